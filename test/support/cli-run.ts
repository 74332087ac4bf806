/** A CLI entry point run as a child process, the way `npm run demo` runs it: one Node process with tsx's loader. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Node that runs the tests (Node 24 in CI). */
export const NODE = process.execPath;
/**
 * Node's flags that run a TypeScript file in the one process (`node --import tsx`). Not the
 * `tsx` command: it is a second process that relays a signal to the script and, when the
 * script does not acknowledge it within 60 ms (a busy machine), kills it (exit 130 or 143
 * instead of a clean stop).
 */
export const TS: readonly string[] = ['--import', pathToFileURL(join(process.cwd(), 'node_modules', 'tsx', 'dist', 'loader.mjs')).href];

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  /** Added to this process's environment. @default {} */
  readonly env?: NodeJS.ProcessEnv;
  /** When stdout matches, the CLI is sent SIGTERM and its exit awaited. @default none: it runs to its own end */
  readonly until?: RegExp;
  /** A run still going after this long is killed (SIGKILL), so a hung CLI fails its test instead of the suite. @default 30_000 */
  readonly killAfterMs?: number;
}

/** Runs `script` with `args`; resolves with its exit code and everything it wrote. */
export function runCli(script: string, args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const { env = {}, until, killAfterMs = 30_000 } = options;
  return new Promise((resolve) => {
    const child = spawn(NODE, [...TS, script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let told = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      // Once: a second SIGTERM a second later means "stop now" to the agent (exit 130).
      if (!told && until?.test(stdout)) {
        told = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
