/** A CLI entry point run through tsx as a child process, the way a person runs it. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');

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
    const child = spawn(TSX, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
