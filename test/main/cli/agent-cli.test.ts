import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { runCli as runScript, NODE, TS, type CliRun } from '../../support/cli-run';

const CLI = join(process.cwd(), 'src', 'main', 'cli', 'agent.ts');
const KEY = 'cli-test-key-7f3a9c';

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
  dir = await mkdtemp(join(tmpdir(), 'print-station-cli-'));
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI; when `until` matches stdout, sends SIGTERM and waits for the exit. */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}, until?: RegExp): Promise<CliRun> {
  return runScript(CLI, args, { env, until, killAfterMs: 20_000 });
}

describe('npm run agent', () => {
  it('prints the ready lines, checks the key, never prints it, and stops cleanly on SIGTERM', async () => {
    const run = await runCli(
      [
        '--api-url',
        sandbox.baseUrl,
        '--printer',
        `folder:${join(dir, 'prints')}`,
        '--webhook-port',
        '0',
        '--webhook-secret',
        'whsec_cli_0123456789',
        '--poll-interval',
        '0',
        '--data-dir',
        join(dir, 'a'),
      ],
      { PRINT_STATION_API_KEY: KEY },
      /^printer: /m,
    );
    expect(run.stdout).toMatch(/^webhooks: http:\/\/127\.0\.0\.1:\d+\/webhooks$/m);
    expect(run.stdout).toContain(`printer: folder:${join(dir, 'prints')}`);
    expect(run.stderr).toContain('connected: team Sandbox Team');
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(run.stderr).toContain('SIGTERM: stopping');
    expect(run.stderr).not.toContain('again');
    expect(run.code).toBe(0);
  });

  it('keeps running as a service with polling off and no servers, until it is told to stop', async () => {
    const child = spawn(
      NODE,
      [
        ...TS,
        CLI,
        '--api-url',
        sandbox.baseUrl,
        '--printer',
        `folder:${join(dir, 'quiet')}`,
        '--poll-interval',
        '0',
        '--data-dir',
        join(dir, 'q'),
      ],
      {
        env: { ...process.env, PRINT_STATION_API_KEY: KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let exitedEarly = false;
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    void exited.then(() => (exitedEarly = true));
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('printer: ') && resolve()));
    await new Promise((r) => setTimeout(r, 2500));
    expect(exitedEarly).toBe(false);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a wrong key with the service request id and exits non-zero', async () => {
    const run = await runCli(['--api-url', sandbox.baseUrl, '--api-key', 'not-the-key-000', '--data-dir', join(dir, 'b')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/request id [0-9a-f-]{36}/);
    expect(run.stderr).toContain('SERVICE_UNAUTHORIZED');
    expect(run.stdout + run.stderr).not.toContain('not-the-key-000');
  });

  it('explains missing or invalid options', async () => {
    const noKey = await runCli(['--api-url', sandbox.baseUrl, '--data-dir', join(dir, 'c')], { PRINT_STATION_API_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('API key is required');
    const badPort = await runCli(['--api-url', sandbox.baseUrl, '--api-key', KEY, '--webhook-port', 'eighty']);
    expect(badPort.stderr).toContain('--webhook-port must be a number');
    const noSecret = await runCli(['--api-url', sandbox.baseUrl, '--api-key', KEY, '--webhook-port', '0']);
    expect(noSecret.stderr).toContain('--webhook-secret');
  });
});
