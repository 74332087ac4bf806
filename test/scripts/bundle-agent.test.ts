/**
 * The bundled agent (scripts/bundle-agent.ts) as `npm run agent` runs it: split, with pdf-lib
 * in a chunk loaded on first use (a test page prints through it: a CommonJS chunk hands its
 * exports over as `default` only), ASCII-only so V8 keeps its source at one byte a character,
 * and started with AGENT_NODE_FLAGS, which `npm run agent` passes too. Its `undici` is
 * undici's classes without the package's index (scripts/undici-agent.cjs), and `node:http` is
 * required, not imported: either way Node would load its own built-in undici for nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NODE_FLAGS, bundleAgentCli } from '../../scripts/bundle-agent';
import { BRIDGE_TOKEN_HEADER, bridgePath } from '../../src/shared/agent-api';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { agentArgs, REPO_ROOT, startAgentProcess, type AgentProcess } from '../support/reliability/agent-process';

const OUT = join(REPO_ROOT, 'out', 'agent-bundle-test', 'agent.mjs');
let sandbox: Sandbox;
let dir: string;
let agent: AgentProcess | null = null;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'print-station-bundle-'));
  await bundleAgentCli(OUT);
});
afterAll(async () => {
  await agent?.stop();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
  await rm(join(REPO_ROOT, 'out', 'agent-bundle-test'), { recursive: true, force: true });
});

describe('the bundled agent', () => {
  it('is ASCII-only, keeps pdf-lib in a chunk, and npm run agent runs it with the same node flags', () => {
    const files = [OUT, ...readdirSync(join(OUT, '..', 'chunks')).map((f) => join(OUT, '..', 'chunks', f))].filter((f) =>
      f.endsWith('.mjs'),
    );
    for (const file of files)
      expect(
        readFileSync(file).some((byte) => byte > 0x7f),
        file,
      ).toBe(false);
    // pdf-lib's modules are in a chunk, not in the file every agent loads.
    expect(readFileSync(OUT, 'utf8').includes('node_modules/pdf-lib/')).toBe(false);
    expect(files.some((f) => f !== OUT && readFileSync(f, 'utf8').includes('node_modules/pdf-lib/'))).toBe(true);
    const script = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[
      'agent'
    ]!;
    expect(script).toContain(`node ${AGENT_NODE_FLAGS.join(' ')} out/agent/agent.mjs`);
  });

  it("gives every name src/main imports from 'undici' through its undici without the index", () => {
    const shim = createRequire(import.meta.url)('../../scripts/undici-agent.cjs') as Record<string, unknown>;
    const names = new Set<string>();
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const f = join(d, e.name);
        if (e.isDirectory()) walk(f);
        else if (f.endsWith('.ts'))
          for (const m of readFileSync(f, 'utf8').matchAll(/import \{([^}]*)\} from 'undici'/g))
            for (const n of m[1]!.split(',').map((x) => x.trim())) if (n && !n.startsWith('type ')) names.add(n.split(' as ')[0]!.trim());
      }
    };
    walk(join(REPO_ROOT, 'src', 'main'));
    expect([...names].sort()).toEqual(['Agent', 'Client', 'FormData', 'request']);
    for (const n of names) expect(shim[n], n).toBeTypeOf('function');
  });

  it('starts and prints a test page through its pdf-lib chunk', async () => {
    const prints = join(dir, 'prints');
    agent = await startAgentProcess({
      script: OUT,
      execArgv: [...AGENT_NODE_FLAGS],
      args: agentArgs({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        printer: `folder:${prints}`,
        dataDir: join(dir, 'data'),
        uiPort: 0,
      }),
    });
    const ui = new URL(agent.uiUrl!);
    const res = await fetch(`${ui.origin}${bridgePath('testPrint')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: ui.searchParams.get('token')! },
      body: JSON.stringify({ printer: `folder:${prints}` }),
    });
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
    const end = Date.now() + 20_000;
    while (!(existsSync(prints) && readdirSync(prints).some((f) => f.startsWith('test-page') && f.endsWith('.pdf')))) {
      if (Date.now() > end) throw new Error(`no test page printed:\n${agent.lines.slice(-10).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(agent.lines.join('\n')).not.toMatch(/Cannot read properties/);
  });

  it("prints a booking and uploads a document without loading Node's built-in undici", async () => {
    await agent?.stop();
    agent = null;
    const prints = join(dir, 'prints-lean');
    const modulesFile = join(dir, 'modules.json');
    // At exit, the internal modules this process loaded.
    const atExit = `import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(${JSON.stringify(modulesFile)}, JSON.stringify(process.moduleLoadList)));`;
    agent = await startAgentProcess({
      script: OUT,
      execArgv: [...AGENT_NODE_FLAGS, `--import=data:text/javascript,${encodeURIComponent(atExit)}`],
      args: agentArgs({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        printer: `folder:${prints}`,
        dataDir: join(dir, 'data-lean'),
        pollIntervalSeconds: 1,
        uiPort: 0,
      }),
    });
    await sandbox.bookShipment();
    const end = Date.now() + 20_000;
    while (!(existsSync(prints) && readdirSync(prints).some((f) => f.endsWith('.pdf')))) {
      if (Date.now() > end) throw new Error(`no label printed:\n${agent.lines.slice(-10).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // A multipart upload (to a draft: documents go before booking): undici's FormData, loaded on first use.
    const { shipmentId } = sandbox.createDraft();
    const ui = new URL(agent.uiUrl!);
    const res = await fetch(`${ui.origin}${bridgePath('packUpload')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: ui.searchParams.get('token')! },
      body: JSON.stringify({
        shipmentId,
        documentType: 'customsinvoice',
        fileName: 'ci.pdf',
        contentBase64: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'),
      }),
    });
    expect(await res.json()).toMatchObject({ ok: true, value: { ok: true, value: { documentType: 'customsinvoice', bytes: 15 } } });
    await agent.stop();
    agent = null;
    const modules = JSON.parse(readFileSync(modulesFile, 'utf8')) as string[];
    expect(modules.filter((m) => m.includes('internal/deps/undici'))).toEqual([]);
  });
});
