/**
 * The headless UI keeps its address (docs/OPERATIONS.md, "The web UI's address"): the full
 * `ui:` address printed at one start still opens the app, authorised, after a restart on the
 * same data dir and --ui-port; `npm run agent -- ui-address` prints it with or without a
 * running agent, and `--rotate` shuts the old one out at once. The token never reaches the log.
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BRIDGE_TOKEN_HEADER, bridgePath } from '../../../src/shared/agent-api';
import { UI_TOKEN_FILE_NAME } from '../../../src/main/web/ui-token-file';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { runCli } from '../../support/cli-run';
import { freePort } from '../../support/net';
import { AGENT_CLI, agentArgs, startAgentProcess, type AgentProcess } from '../../support/reliability/agent-process';

let sandbox: Sandbox;
let dir: string;
let dataDir: string;
let agent: AgentProcess | null = null;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'print-station-ui-address-'));
  dataDir = join(dir, 'data');
});
afterEach(async () => {
  await agent?.stop();
  agent = null;
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function startAgent(uiPort: number): Promise<AgentProcess> {
  agent = await startAgentProcess({
    args: agentArgs({ apiUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, printer: `folder:${join(dir, 'prints')}`, dataDir, uiPort }),
  });
  return agent;
}

/** Calls getStatus the way the UI does, with the token the address carries. */
async function statusWith(address: string): Promise<number> {
  const url = new URL(address);
  const res = await fetch(`${url.origin}${bridgePath('getStatus')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: url.searchParams.get('token') ?? '' },
    body: '{}',
  });
  await res.arrayBuffer();
  return res.status;
}

const uiAddress = (...args: string[]) => runCli(AGENT_CLI, ['ui-address', '--data-dir', dataDir, ...args]);

describe('the headless UI address', () => {
  it('is the same after a restart and still opens the app, and ui-address prints it with or without the agent', async () => {
    const port = await freePort();
    const first = (await startAgent(port)).uiUrl!;
    expect(first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[A-Za-z0-9_-]{32}$`));
    expect((await stat(join(dataDir, UI_TOKEN_FILE_NAME))).mode & 0o777).toBe(0o600);
    expect(await statusWith(first)).toBe(200);
    const whileRunning = await uiAddress();
    expect(whileRunning.stdout).toBe(`ui: ${first}\n`);
    await agent!.stop();
    agent = null;

    const stopped = await uiAddress('--ui-port', String(port));
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toBe(`ui: ${first}\n`);
    expect(stopped.stderr).toContain('no agent is running');

    const again = await startAgent(port);
    expect(again.uiUrl).toBe(first);
    expect(await statusWith(first)).toBe(200);
    const index = await fetch(new URL('/', first));
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<html');

    const token = new URL(first).searchParams.get('token')!;
    const logs = join(dataDir, 'logs');
    for (const file of await readdir(logs)) expect(await readFile(join(logs, file), 'utf8')).not.toContain(token);
  });

  it('--rotate gives a running agent a new address at once: the old one gets 401, the new one works and lasts', async () => {
    const port = await freePort();
    const first = (await startAgent(port)).uiUrl!;
    const rotated = await uiAddress('--rotate');
    expect(rotated.code).toBe(0);
    const next = /^ui: (\S+)$/m.exec(rotated.stdout)![1]!;
    expect(next).not.toBe(first);
    expect(new URL(next).origin).toBe(new URL(first).origin);
    expect(await statusWith(first)).toBe(401);
    expect(await statusWith(next)).toBe(200);
    expect((await uiAddress()).stdout).toBe(`ui: ${next}\n`);
    await agent!.stop();
    agent = null;
    expect((await startAgent(port)).uiUrl).toBe(next);
  });

  it('without a running agent and without --ui-port says which option it needs', async () => {
    const run = await uiAddress();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: no agent is running on .*--ui-port N/m);
    expect(run.stdout).toBe('');
  });
});
