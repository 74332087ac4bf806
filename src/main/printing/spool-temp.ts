/**
 * Temp files handed to `lp`: a label holds names and addresses. Each spool writes one file
 * (0600) in a directory of its own (0700) inside a per-user root (0700) named so the sweep
 * at start can find them: `<tmp>/print-station-spool-<uid>/<pid>-<random>/document.pdf`.
 * A crash while spooling leaves such a directory behind; the next start removes every one
 * whose process is gone (another agent of the same user, still running, keeps its own).
 */
import { chmodSync, lstatSync } from 'node:fs';
import { makeDirSync } from '../fs/make-dir';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../process-alive';

export const SPOOL_TEMP_PREFIX = 'print-station-spool-';

export interface SpoolTempOptions {
  /** The per-user root. @default `<os tmpdir>/print-station-spool-<uid>` */
  readonly root?: string;
}

export function defaultSpoolTempRoot(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : userInfo().username;
  return join(tmpdir(), `${SPOOL_TEMP_PREFIX}${uid}`);
}

/**
 * Creates the root owner-only. A root that is a symlink or belongs to another user (someone
 * else got there first in a shared /tmp) is refused rather than written into.
 */
function ensureRoot(root: string): void {
  makeDirSync(root, { mode: 0o700 });
  const stat = lstatSync(root);
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  if (!stat.isDirectory() || (uid !== null && stat.uid !== uid)) {
    throw Object.assign(new Error(`${root} is not a directory of this user; remove it`), { code: 'EACCES' });
  }
  if (process.platform !== 'win32' && (stat.mode & 0o777) !== 0o700) chmodSync(root, 0o700);
}

/**
 * Writes `pdf` to a private temp file, runs `use` with its path, and removes it. A
 * file-system failure before `use` is passed through `mapError` (where to say what to do).
 */
export async function withSpoolFile<T>(
  pdf: Uint8Array,
  use: (path: string) => Promise<T>,
  mapError: (error: unknown, where: string) => Error,
  options: SpoolTempOptions = {},
): Promise<T> {
  const root = options.root ?? defaultSpoolTempRoot();
  let dir: string | null = null;
  try {
    let path: string;
    try {
      ensureRoot(root);
      dir = await mkdtemp(join(root, `${process.pid}-`));
      path = join(dir, 'document.pdf');
      await writeFile(path, pdf, { mode: 0o600 });
    } catch (error) {
      throw mapError(error, dir ?? root);
    }
    return await use(path);
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Removes spool files left by processes that are gone (a crash during spooling). Returns how many. */
export async function sweepSpoolTemp(options: SpoolTempOptions & { readonly isAlive?: (pid: number) => boolean } = {}): Promise<number> {
  const root = options.root ?? defaultSpoolTempRoot();
  const isAlive = options.isAlive ?? processAlive;
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch {
    return 0; // no root: nothing was ever left
  }
  let removed = 0;
  for (const name of entries) {
    const pid = Number.parseInt(name.split('-')[0] ?? '', 10);
    // Kept: this process's own (in use) and those of another live process.
    if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && isAlive(pid))) continue;
    await rm(join(root, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
