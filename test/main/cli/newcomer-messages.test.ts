/**
 * Every error a newcomer can cause on the command line says what to do: a port in use names
 * its option, an unknown option or command gets the one meant, a webhook secret too short
 * is refused with the reason, and every command's --help has the same shape. Real agent
 * processes through `npm run agent`.
 */
import { createServer, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { nearest } from '../../../src/main/cli/did-you-mean';
import { runCli } from '../../support/cli-run';

const CLI = join(process.cwd(), 'src', 'main', 'cli', 'agent.ts');
const KEY = 'newcomer-key-5d1e';
const SECRET = 'whsec_newcomer_0123456789';

// Each test starts the CLI through tsx (a few seconds each, more on a busy machine), some more than once.
vi.setConfig({ testTimeout: 90_000 });

let sandbox: Sandbox;
let dir: string;
let busy: Server;
let busyPort: number;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
  dir = await mkdtemp(join(tmpdir(), 'print-station-newcomer-'));
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const agent = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(CLI, args, { env: { PRINT_STATION_API_KEY: KEY, ...env }, killAfterMs: 60_000 });
const base = (name: string): string[] => [
  '--api-url',
  sandbox.baseUrl,
  '--printer',
  `folder:${join(dir, `${name}-prints`)}`,
  '--poll-interval',
  '0',
  '--data-dir',
  join(dir, name),
];

describe('a port in use', () => {
  it.each([
    ['--ui-port', [] as string[]],
    ['--webhook-port', ['--webhook-secret', SECRET]],
  ])(
    'names %s and how to pick another, not listen EADDRINUSE',
    async (option, extra) => {
      const run = await agent([...base(`port${option}`), option, String(busyPort), ...extra]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`error: ${option} ${busyPort}: 127.0.0.1:${busyPort} is already in use`);
      expect(run.stderr).toContain(`pick another port with ${option} N (0 = any free one) [PORT_UNAVAILABLE]`);
      expect(run.stderr).not.toContain('listen EADDRINUSE');
    },
    60_000,
  );

  it('names both options when two ask for the same port', async () => {
    const run = await agent([
      ...base('same'),
      '--ui-port',
      String(busyPort + 0),
      '--webhook-port',
      String(busyPort),
      '--webhook-secret',
      SECRET,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--ui-port and --webhook-port both ask for port \d+|--(ui|webhook)-port \d+: .* is already in use/);
  }, 60_000);
});

describe('unknown options and commands', () => {
  it('suggest the one meant, in one line, without the whole help', async () => {
    const run = await agent(['--printer-uri', 'cups:x']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'error: unknown option --printer-uri; did you mean --printer? (npm run agent -- --help lists every option) [INVALID_OPTIONS]',
    );
    const command = await agent(['reprot', '--day', '2026-11-28']);
    expect(command.stderr).toContain('unknown command reprot; did you mean report?');
    const site = await agent(['--station', 'a']);
    expect(site.stderr).toContain('did you mean --station-name?');
  });

  it('nearest() finds typos and prefixes, and nothing for a word far from every option', () => {
    const known = ['--printer', '--document-printer', '--poll-interval', '--ui-port', '--webhook-port'];
    expect(nearest('--printer-uri', known)).toBe('--printer');
    expect(nearest('--pol-interval', known)).toBe('--poll-interval');
    expect(nearest('--webhookport', known)).toBe('--webhook-port');
    expect(nearest('--colour', known)).toBeNull();
  });
});

describe('a webhook secret', () => {
  it('of one character is refused at start with the reason and the minimum, never printed', async () => {
    const run = await agent([...base('short'), '--webhook-port', '0'], { PRINT_STATION_WEBHOOK_SECRET: 'x' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: the webhook secret has 1 character; at least 16 are needed');
    expect(run.stderr).toContain("use the endpoint secret from the service's API settings");
  });
});

describe('every command --help', () => {
  it.each(['report', 'ui-address', 'diagnostics', 'install-service', 'relay'])(
    '%s --help has its own options and never the whole agent help',
    async (command) => {
      const run = await agent([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: npm run agent -- ${command}\\b`));
      expect(run.stdout).toMatch(/^Options:$/m);
      expect(run.stdout).toMatch(/^ {2}--help {19}this text$/m);
      expect(run.stdout).not.toContain('Commands (npm run agent');
      expect(run.stdout).toMatch(/npm run agent -- --help (lists every command|explains them)/);
    },
  );
});

describe('the ready lines', () => {
  it('name the document printer too', async () => {
    const run = await runCli(CLI, [...base('lines'), '--document-printer', `folder:${join(dir, 'sheets')}`], {
      env: { PRINT_STATION_API_KEY: KEY },
      until: /^document printer: /m,
      killAfterMs: 60_000,
    });
    expect(run.stdout).toContain(`printer: folder:${join(dir, 'lines-prints')}`);
    expect(run.stdout).toContain(`document printer: folder:${join(dir, 'sheets')}`);
  }, 60_000);
});
