/**
 * End to end: a real agent (the CLI through tsx) on a real sandbox, with a distinctive API
 * key and webhook secret that were used (every request, a signed webhook) and sit in its
 * config file. The bundles written by the CLI subcommand (while the agent runs and after)
 * and by the bridge operation, and the log files, must hold neither in any spelling.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { RUNNING_AGENT_NOTE } from '../../../src/main/diagnostics/offline-diagnostics';
import { NODE, TS } from '../../support/cli-run';

const CLI = join(process.cwd(), 'src', 'main', 'cli', 'agent.ts');
const KEY = 'diagKEY-Zq81XvT0pLm4-unique';
const WEBHOOK_SECRET = 'whsec_diag_Yb72KcQ9sWe_unique';
const posix = process.platform !== 'win32';

function spellings(secret: string): string[] {
  const b = Buffer.from(secret);
  const base64 = b.toString('base64').replace(/=+$/, '');
  return [secret, base64, b.toString('base64url'), b.toString('hex'), b.toString('hex').toUpperCase(), encodeURIComponent(secret)];
}

function expectNoSecrets(bytes: Buffer, what: string): void {
  const text = bytes.toString('latin1');
  for (const secret of [KEY, WEBHOOK_SECRET]) {
    for (const form of spellings(secret)) expect(text.includes(form), `${what} contains ${form}`).toBe(false);
  }
  // Also a fragment: a secret cut at a field cap must not survive either.
  expect(text).not.toContain('Zq81XvT0pLm4');
  expect(text).not.toContain('Yb72KcQ9sWe');
}

function envWithoutKey(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.PRINT_STATION_API_KEY;
  return env;
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [...TS, CLI, ...args], { env: envWithoutKey(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function until<T>(what: string, probe: () => T | null | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let sandbox: Sandbox;
let dir: string;
let dataDir: string;
let configFile: string;
let agent: ChildProcess | null = null;
let agentOut = '';
let agentErr = '';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
  dir = await mkdtemp(join(tmpdir(), 'print-station-diag-'));
  dataDir = join(dir, 'data');
  configFile = join(dir, 'agent.json');
  await writeFile(
    configFile,
    JSON.stringify({
      apiUrl: sandbox.baseUrl,
      apiKey: KEY,
      printer: `folder:${join(dir, 'prints')}`,
      webhookPort: 0,
      webhookSecrets: [WEBHOOK_SECRET],
      pollIntervalSeconds: 0,
      uiPort: 0,
      dataDir,
    }),
    // It holds the key: the agent refuses a config file every user can read.
    { mode: 0o600 },
  );
});
afterAll(async () => {
  agent?.kill('SIGKILL');
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('diagnostics: log file, CLI subcommand and Settings operation', () => {
  it('writes bundles a support person can read, with no API key or webhook secret in them or in the logs', async () => {
    agent = spawn(NODE, [...TS, CLI, '--config', configFile], { env: envWithoutKey(), stdio: ['ignore', 'pipe', 'pipe'] });
    agent.stdout!.on('data', (d: Buffer) => (agentOut += d.toString()));
    agent.stderr!.on('data', (d: Buffer) => (agentErr += d.toString()));
    await until(`ready lines (stderr: ${agentErr})`, () => /^printer: /m.test(agentOut));
    const uiUrl = new URL(/^ui: (\S+)$/m.exec(agentOut)![1]!);
    const webhookUrl = /^webhooks: (\S+)$/m.exec(agentOut)![1]!;

    // The secret is used: the sandbox signs a webhook with it, and the agent prints the label.
    sandbox.setWebhooks([{ url: webhookUrl, secret: WEBHOOK_SECRET }]);
    await sandbox.bookShipment();
    const prints = join(dir, 'prints');
    await until('a printed label', () => existsSync(prints) && readdirSync(prints).some((f) => f.endsWith('.pdf')));

    // The log file: structured lines, 0600 in a 0700 folder.
    const logFile = join(dataDir, 'logs', 'agent.log');
    const logText = await until('the connected line in the log file', () => {
      const text = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      return /connected: team/.test(text) ? text : null;
    });
    expect(logText).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO {2}connected: team Sandbox Team/m);
    if (posix) {
      expect(statSync(join(dataDir, 'logs')).mode & 0o777).toBe(0o700);
      expect(statSync(logFile).mode & 0o777).toBe(0o600);
    }

    // CLI while the agent runs: no counts (the agent holds the ledger), and it says so.
    const whileRunning = await runCli(['diagnostics', join(dir, 'out-running.json'), '--config', configFile]);
    expect(whileRunning.stderr).toBe('');
    expect(whileRunning.code).toBe(0);
    expect(whileRunning.stdout).toContain(`diagnostics: ${join(dir, 'out-running.json')}`);
    const running = JSON.parse(readFileSync(join(dir, 'out-running.json'), 'utf8'));
    expect(running.kind).toBe('print-station-diagnostics');
    expect(running.source).toBe('cli');
    expect(running.ledgerCounts).toBeNull();
    expect(running.notes).toContain(RUNNING_AGENT_NOTE);
    expect(running.versions).toMatchObject({ app: '0.1.0', node: process.versions.node, platform: process.platform, arch: process.arch });
    expect(running.settings.routing.labelPrinter).toBe(`folder:${join(dir, 'prints')}`);
    expect(running.printers[0]).toMatchObject({ uri: `folder:${join(dir, 'prints')}`, configured: true, ready: true });
    expect(running.logTail.some((l: string) => l.includes('connected: team Sandbox Team'))).toBe(true);

    // Settings → Save diagnostics, through the web bridge.
    const res = await fetch(new URL('/api/saveDiagnostics', uiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-print-station-token': uiUrl.searchParams.get('token')! },
      body: '{}',
    });
    const reply = (await res.json()) as { ok: boolean; value: { path: string; fileName: string; content: string } };
    expect(reply.ok).toBe(true);
    expect(reply.value.path).toBe(join(dataDir, 'diagnostics', reply.value.fileName));
    expect(reply.value.fileName).toMatch(/^print-station-diagnostics-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.json$/);
    expect(readFileSync(reply.value.path, 'utf8')).toBe(reply.value.content);
    if (posix) {
      expect(statSync(reply.value.path).mode & 0o777).toBe(0o600);
      expect(statSync(join(dataDir, 'diagnostics')).mode & 0o777).toBe(0o700);
    }
    const live = JSON.parse(reply.value.content);
    expect(live.source).toBe('agent');
    expect(live.status).toMatchObject({ team: 'Sandbox Team' });
    expect(live.ledgerCounts.completed + live.ledgerCounts.spooled).toBeGreaterThanOrEqual(1);
    expect(live.settings.apiKeySet).toBe(true);
    expect(live.printers.some((p: { uri: string }) => p.uri === `folder:${join(dir, 'prints')}`)).toBe(true);
    // The ids the service sent, newest first, matching the sandbox's own request log.
    expect(live.recentRequests.length).toBeGreaterThanOrEqual(2);
    expect(live.recentRequests.map((r: { path: string }) => r.path)).toContain('/status');
    for (const r of live.recentRequests) expect(r.requestId).toMatch(/\S{6,}/);

    agent.kill('SIGTERM');
    await new Promise((r) => agent!.once('exit', r));
    agent = null;

    // CLI after the agent stopped: the counts are there.
    const stopped = await runCli(['diagnostics', `${dir}/`, '--config', configFile, '--lines', '20']);
    expect(stopped.code).toBe(0);
    const stoppedPath = /^diagnostics: (.+)$/m.exec(stopped.stdout)![1]!;
    expect(stoppedPath.startsWith(dir)).toBe(true);
    const after = JSON.parse(readFileSync(stoppedPath, 'utf8'));
    expect(after.ledgerCounts.completed + after.ledgerCounts.spooled).toBe(live.ledgerCounts.completed + live.ledgerCounts.spooled);
    expect(after.logTail.length).toBeLessThanOrEqual(20);
    expect(after.logTail.at(-1)).toMatch(/stopp/i);

    const logFiles = readdirSync(join(dataDir, 'logs')).map((f) => join(dataDir, 'logs', f));
    expect(logFiles).toContain(logFile);
    for (const file of [join(dir, 'out-running.json'), reply.value.path, stoppedPath, ...logFiles]) {
      expectNoSecrets(readFileSync(file), file);
    }
    expectNoSecrets(Buffer.from(reply.value.content), 'the bridge reply');
  }, 90_000);

  it('explains a missing OUT and a data directory that is not there', async () => {
    const run = await runCli(['diagnostics']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('diagnostics needs one OUT');
    const nowhere = await runCli(['diagnostics', join(dir, 'x.json'), '--data-dir', join(dir, 'nowhere')]);
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.stderr).toContain(`no data directory at ${join(dir, 'nowhere')}: pass the agent's --data-dir DIR`);
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
  });
});
