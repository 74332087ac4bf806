/**
 * Creating a folder and its missing parents without `mkdir(…, { recursive: true })`: Node's
 * recursive mkdir loops forever where a parent exists but refuses new entries with ENOENT
 * (procfs: `/proc/x`), hanging the agent at start and even ignoring SIGTERM. Here the path
 * is walked up to the first existing ancestor, then each missing level is created with a
 * plain mkdir, and any refusal becomes one coded error that says what to do.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import { CodedError } from '../errors';

export const MAKE_DIR_ERROR_CODES = {
  /** The user may not write there, or the file system is read-only. */
  PERMISSION_DENIED: 'DIR_PERMISSION_DENIED',
  /** A file stands where a folder is needed. */
  NOT_A_DIRECTORY: 'DIR_NOT_A_DIRECTORY',
  /** The disk is full. */
  DISK_FULL: 'DIR_DISK_FULL',
  /** The parent takes no new folders (procfs, sysfs, a vanished mount…). */
  CANNOT_CREATE: 'DIR_CANNOT_CREATE',
} as const;

/** Not there (ENOTDIR: a file higher up, found as the walk goes on). */
const MISSING = new Set(['ENOENT', 'ENOTDIR']);

export class MakeDirError extends CodedError {
  constructor(
    code: string,
    message: string,
    /** The folder asked for. */
    readonly dir: string,
    /** The system error code (EACCES, ENOENT…) behind it. */
    readonly sysCode: string | null,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export interface MakeDirOptions {
  /** Mode of each folder created (existing ones are left alone). @default 0o777 (minus umask) */
  readonly mode?: number;
}

/** The calls makeDir needs, so a target with an injected file system keeps using it. */
export interface MakeDirFs {
  mkdir(dir: string, options: { mode?: number }): Promise<unknown>;
  stat(file: string): Promise<{ isDirectory(): boolean }>;
}

export async function makeDir(dir: string, options: MakeDirOptions = {}, fs: MakeDirFs = nodeFs.promises): Promise<void> {
  const target = path.resolve(dir);
  const missing: string[] = [];
  for (let current = target; ; current = path.dirname(current)) {
    const found = await fs.stat(current).then(
      (s) => s,
      (error: unknown) => error as NodeJS.ErrnoException,
    );
    if (!(found instanceof Error)) {
      if (!found.isDirectory()) throw notADirectory(target, current);
      break;
    }
    if (!MISSING.has(found.code ?? '') || path.dirname(current) === current) throw toMakeDirError(found, target, current);
    missing.push(current);
  }
  for (const level of missing.reverse()) {
    try {
      await fs.mkdir(level, { mode: options.mode });
    } catch (error) {
      // Someone else created it meanwhile: fine when it is a folder.
      if (
        (error as NodeJS.ErrnoException).code === 'EEXIST' &&
        (await fs.stat(level).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      )
        continue;
      throw toMakeDirError(error, target, level);
    }
  }
}

export function makeDirSync(dir: string, options: MakeDirOptions = {}): void {
  const target = path.resolve(dir);
  const missing: string[] = [];
  for (let current = target; ; current = path.dirname(current)) {
    let stat: nodeFs.Stats;
    try {
      stat = nodeFs.statSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!MISSING.has(code) || path.dirname(current) === current) throw toMakeDirError(error, target, current);
      missing.push(current);
      continue;
    }
    if (!stat.isDirectory()) throw notADirectory(target, current);
    break;
  }
  for (const level of missing.reverse()) {
    try {
      nodeFs.mkdirSync(level, { mode: options.mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && isDirSync(level)) continue;
      throw toMakeDirError(error, target, level);
    }
  }
}

function isDirSync(file: string): boolean {
  try {
    return nodeFs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function notADirectory(target: string, at: string): MakeDirError {
  const where = at === target ? `${at} is a file` : `${at} (on the way to ${target}) is a file`;
  return new MakeDirError(
    MAKE_DIR_ERROR_CODES.NOT_A_DIRECTORY,
    `Cannot create the folder ${target}: ${where}, not a folder. Move it or choose another folder.`,
    target,
    'ENOTDIR',
  );
}

function toMakeDirError(error: unknown, target: string, at: string): MakeDirError {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? null;
  const head = `Cannot create the folder ${target}`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    const message = `${head}: this user may not write to ${at}${code === 'EROFS' ? ' (read-only file system)' : ''}. Give it write access or choose another folder.`;
    return new MakeDirError(MAKE_DIR_ERROR_CODES.PERMISSION_DENIED, message, target, code, { cause: error });
  }
  if (code === 'ENOTDIR' || code === 'EEXIST') return notADirectory(target, at);
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new MakeDirError(
      MAKE_DIR_ERROR_CODES.DISK_FULL,
      `${head}: the disk is full. Free some space or choose another folder.`,
      target,
      code,
      { cause: error },
    );
  }
  const why = code ? ` (${code})` : '';
  const message = `${head}: ${path.dirname(at)} does not take new folders${why}. Choose a folder on an ordinary disk.`;
  return new MakeDirError(MAKE_DIR_ERROR_CODES.CANNOT_CREATE, message, target, code, { cause: error });
}
