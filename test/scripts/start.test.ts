/**
 * `npm start` (scripts/start.ts) in a throw-away project: the real electron package
 * (its index.js) without a binary, as ELECTRON_SKIP_BINARY_DOWNLOAD leaves it, then with a
 * binary in place. A stand-in electron-vite records how it was called, so the test sees
 * whether the build (which rewrites out/) would have run.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

let project: string;

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'print-station-start-'));
  await mkdir(join(project, 'scripts'));
  await cp(join(ROOT, 'scripts', 'start.ts'), join(project, 'scripts', 'start.ts'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'start-test', type: 'module' }));
  const electron = join(project, 'node_modules', 'electron');
  await mkdir(electron, { recursive: true });
  for (const file of ['index.js', 'package.json']) await cp(join(ROOT, 'node_modules', 'electron', file), join(electron, file));
  const vite = join(project, 'node_modules', 'electron-vite');
  await mkdir(join(vite, 'bin'), { recursive: true });
  await writeFile(join(vite, 'package.json'), JSON.stringify({ name: 'electron-vite', bin: { 'electron-vite': 'bin/electron-vite.js' } }));
  await writeFile(
    join(vite, 'bin', 'electron-vite.js'),
    "const fs = require('fs');\nfs.writeFileSync('ran.json', JSON.stringify(process.argv.slice(2)));\nprocess.exit(7);\n",
  );
  await mkdir(join(project, 'out', 'renderer'), { recursive: true });
  await writeFile(join(project, 'out', 'renderer', 'index.html'), 'the previous build');
});

afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

function start(args: readonly string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.ELECTRON_OVERRIDE_DIST_PATH;
  return new Promise((resolve) => {
    execFile(TSX, ['scripts/start.ts', ...args], { cwd: project, env }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('npm start', () => {
  it('without the Electron binary: one line saying how to get it, exit 1, out/ untouched, no build', async () => {
    const run = await start();
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'error: npm start needs the Electron binary, which is not installed (the demo, the agent and the tests do not need it): ' +
        'run `node node_modules/electron/install.js` (or `npm ci` without ELECTRON_SKIP_BINARY_DOWNLOAD)\n',
    );
    expect(existsSync(join(project, 'ran.json'))).toBe(false);
    expect(await readFile(join(project, 'out', 'renderer', 'index.html'), 'utf8')).toBe('the previous build');
  });

  it('with path.txt naming a binary that is not there: names the missing file', async () => {
    await writeFile(join(project, 'node_modules', 'electron', 'path.txt'), 'electron');
    const run = await start();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: npm start needs the Electron binary, and ${join(project, 'node_modules', 'electron', 'dist', 'electron')} is missing: ` +
        'run `node node_modules/electron/install.js` (or `npm ci` without ELECTRON_SKIP_BINARY_DOWNLOAD)\n',
    );
    expect(existsSync(join(project, 'ran.json'))).toBe(false);
  });

  it('without the electron package: says to run npm ci', async () => {
    await rm(join(project, 'node_modules', 'electron'), { recursive: true });
    const run = await start();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error: npm start needs the electron package, which is not installed: run `npm ci`\n');
  });

  it('with the binary: runs electron-vite preview with the arguments given and exits with its code', async () => {
    const dist = join(project, 'node_modules', 'electron', 'dist');
    await mkdir(dist);
    await writeFile(join(dist, 'electron'), '#!/bin/sh\n');
    await chmod(join(dist, 'electron'), 0o755);
    await writeFile(join(project, 'node_modules', 'electron', 'path.txt'), 'electron');
    const run = await start(['--sourcemap']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(7);
    expect(JSON.parse(await readFile(join(project, 'ran.json'), 'utf8'))).toEqual(['preview', '--sourcemap']);
  });
});
