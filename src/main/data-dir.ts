/**
 * The data directory holds references, tracking ids, webhook bodies and station settings:
 * on macOS and Linux it is the owner's alone (directory 0700, every file in it 0600), created
 * so and tightened at every start for files an older version or another tool left readable.
 * On Windows POSIX modes mean little: the desktop app's directory is in the user's profile,
 * whose ACL keeps it private, and the service's (under ProgramData) gets its ACL at install
 * and is checked at each start (data-dir-acl.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeDirSync } from './fs/make-dir';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export interface PrivateDirOptions {
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
}

/**
 * Creates `dir` (and missing parents) owner-only and tightens it and every regular file
 * directly in it. Subdirectories are left alone (a folder printer may live there and be
 * shared on purpose); symlinks are never followed.
 */
export function ensurePrivateDir(dir: string, options: PrivateDirOptions = {}): void {
  makeDirSync(dir, { mode: PRIVATE_DIR_MODE });
  if ((options.platform ?? process.platform) === 'win32') return;
  tighten(dir, PRIVATE_DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) tighten(path.join(dir, entry.name), PRIVATE_FILE_MODE);
  }
}

function tighten(file: string, mode: number): void {
  try {
    const stat = fs.lstatSync(file);
    // The owner's execute bit is kept (a script someone keeps there still runs); group and others lose everything.
    const wanted = mode | (stat.mode & 0o100);
    if ((stat.mode & 0o777) !== wanted) fs.chmodSync(file, wanted);
  } catch (error) {
    // A file removed meanwhile (SQLite's -shm, a lock file released) is no longer a leak.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
