/**
 * `npm start`: the desktop app, through `electron-vite preview` (builds out/, then runs
 * Electron). Checks first that the Electron binary is installed: without it (an install
 * with ELECTRON_SKIP_BINARY_DOWNLOAD=1) electron-vite would rebuild out/ and then end in a
 * stack trace. Here it is one line saying how to get the binary, exit 1, nothing changed.
 *
 *   tsx scripts/start.ts [electron-vite preview options]
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Why the desktop app cannot start in the project at `root`, or null when it can. */
export function missingElectron(root: string): string | null {
  const require = createRequire(path.join(root, 'package.json'));
  const get = 'run `node node_modules/electron/install.js` (or `npm ci` without ELECTRON_SKIP_BINARY_DOWNLOAD)';
  if (!existsSync(path.join(root, 'node_modules', 'electron', 'package.json'))) {
    return 'npm start needs the electron package, which is not installed: run `npm ci`';
  }
  let binary: string;
  try {
    // electron's index.js returns the binary's path, or throws when the install skipped it.
    binary = require('electron') as string;
  } catch {
    return `npm start needs the Electron binary, which is not installed (the demo, the agent and the tests do not need it): ${get}`;
  }
  if (!existsSync(binary)) return `npm start needs the Electron binary, and ${binary} is missing: ${get}`;
  return null;
}

function runPreview(root: string, args: readonly string[]): void {
  const pkg = path.join(root, 'node_modules', 'electron-vite', 'package.json');
  const { bin } = JSON.parse(readFileSync(pkg, 'utf8')) as { bin: Record<string, string> };
  const cli = path.join(path.dirname(pkg), bin['electron-vite']!);
  const child = spawn(process.execPath, [cli, 'preview', ...args], { cwd: root, stdio: 'inherit' });
  // Ctrl-C reaches the child through the terminal; stay alive until it has closed.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problem = missingElectron(ROOT);
  if (problem) {
    process.stderr.write(`error: ${problem}\n`);
    process.exit(1);
  }
  runPreview(ROOT, process.argv.slice(2));
}
