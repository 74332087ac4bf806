/**
 * README's Quick start on a fresh clone: no out/ folder at all. The `ui:` address that
 * `npm run demo` and `npm run agent -- --ui-port` print must serve the app on the first
 * request (the renderer is built on demand), never "Not found".
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';

const ROOT = process.cwd();
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const KEY = 'fresh-clone-key-31c7';
// tsx, a vite build and the agent's start on a loaded machine: well above the suite's 30 s default.
const SLOW = 120_000;

let clone: string;
let work: string;
let sandbox: Sandbox;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'print-station-fresh-'));
  clone = join(work, 'clone');
  // What a clone holds: the tracked files (and new ones not yet committed), never out/.
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(ROOT, f)));
  for (const file of files) {
    await mkdir(dirname(join(clone, file)), { recursive: true });
    await cp(join(ROOT, file), join(clone, file));
  }
  await symlink(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'junction');
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
}, SLOW);

afterAll(async () => {
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
});

/** Starts a command in the clone and resolves with its stdout once `printer: ` is printed. */
async function startInClone(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(command, args, { cwd: clone, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 60 s:\n${stdout}\n${stderr}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('printer: ')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => (clearTimeout(timer), reject(new Error(`exited ${code}:\n${stdout}\n${stderr}`))));
  });
  return { stdout, stop: async () => (child.kill('SIGINT'), exited) };
}

/** The printed ui: address answers with the built index.html, and the script it names loads. */
async function expectUiServed(stdout: string): Promise<void> {
  const url = /^ui: (\S+)$/m.exec(stdout)?.[1];
  expect(url).toBeDefined();
  const page = await fetch(url!);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await page.text();
  expect(html).toBe(await readFile(join(clone, 'out', 'renderer', 'index.html'), 'utf8'));
  const script = /<script[^>]+src="\.?\/?([^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeDefined();
  const asset = await fetch(new URL(script!, url));
  expect(asset.status).toBe(200);
  expect((await asset.text()).length).toBeGreaterThan(1000);
}

describe('a fresh clone (no build output)', () => {
  it(
    'npm run demo: the printed ui: address serves the app on the first request',
    async () => {
      expect(existsSync(join(clone, 'out'))).toBe(false);
      // As `npm run demo` runs it (package.json).
      const demo = await startInClone(process.execPath, ['--import', 'tsx', 'src/main/cli/demo.ts', '--data-dir', join(work, 'demo-data')]);
      let code: number | null;
      try {
        await expectUiServed(demo.stdout);
      } finally {
        code = await demo.stop();
      }
      expect(code).toBe(0);
    },
    SLOW,
  );

  it(
    'npm run agent -- --ui-port 0: the bundled agent in out/agent builds and serves the UI too',
    async () => {
      await rm(join(clone, 'out'), { recursive: true, force: true });
      execFileSync(TSX, ['scripts/bundle-agent.ts'], { cwd: clone });
      expect(existsSync(join(clone, 'out', 'renderer'))).toBe(false);
      const agent = await startInClone(
        process.execPath,
        [
          'out/agent/agent.mjs',
          '--api-url',
          sandbox.baseUrl,
          '--printer',
          `folder:${join(work, 'prints')}`,
          '--poll-interval',
          '0',
          '--data-dir',
          join(work, 'agent-data'),
          '--ui-port',
          '0',
        ],
        { PRINT_STATION_API_KEY: KEY },
      );
      let code: number | null;
      try {
        await expectUiServed(agent.stdout);
      } finally {
        code = await agent.stop();
      }
      expect(code).toBe(0);
    },
    SLOW,
  );
});
