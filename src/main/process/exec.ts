import { execFile } from 'node:child_process';

export interface ExecResult {
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code; null when killed by a signal. */
  readonly code: number | null;
}

export interface ExecOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Bytes written to the child's stdin. */
  readonly input?: Uint8Array;
  /** @default 30000 */
  readonly timeoutMs?: number;
}

/** The runner the CUPS target and discovery use; tests may pass their own. */
export type ExecFileRunner = (file: string, args: readonly string[], options?: ExecOptions) => Promise<ExecResult>;

/**
 * The C locale for CUPS tools: lp, lpstat and friends translate their output, and the
 * agent parses it.
 */
export function cLocaleEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, LANG: 'C', LC_ALL: 'C', LANGUAGE: 'C' };
}

/**
 * execFile without a shell (arguments are passed as they are, so queue names and titles
 * never need quoting) that resolves with the exit code instead of throwing on non-zero.
 * Rejects only when the program cannot be started (ENOENT) or times out.
 */
export const runExecFile: ExecFileRunner = (file, args, options = {}) =>
  new Promise((resolve, reject) => {
    const child = execFile(
      file,
      [...args],
      {
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 30_000,
        maxBuffer: 16 * 1024 * 1024,
        encoding: 'utf8',
        shell: false,
      },
      (error, stdout, stderr) => {
        const err = error as (NodeJS.ErrnoException & { code?: string | number; killed?: boolean }) | null;
        if (err && typeof err.code === 'string') {
          reject(err);
          return;
        }
        if (err?.killed) {
          reject(Object.assign(new Error(`${file} timed out`), { code: 'ETIMEDOUT' }));
          return;
        }
        resolve({ stdout, stderr, code: err ? (typeof err.code === 'number' ? err.code : null) : 0 });
      },
    );
    child.stdin?.on('error', () => {
      // The child may exit before reading all of stdin (e.g. lp rejecting the queue);
      // its exit status tells what happened, the EPIPE does not.
    });
    if (options.input) child.stdin?.end(Buffer.from(options.input));
    else child.stdin?.end();
  });
