import { CodedError } from '../errors';

export const JOB_ERROR_CODES = {
  NOT_FOUND: 'JOB_NOT_FOUND',
  /** The job is being handed to the spooler right now: it can no longer be canceled here. */
  BUSY: 'JOB_BUSY',
  /** The requested change does not apply to the job's state (e.g. retrying a completed job). */
  INVALID_STATE: 'JOB_INVALID_STATE',
  /** The pipeline was stopped; start a new one. */
  STOPPED: 'PIPELINE_STOPPED',
  /** The ledger file cannot be opened or migrated. */
  LEDGER: 'LEDGER_UNAVAILABLE',
  /** A ledger write failed (disk full, I/O error, read-only, locked): printing waits and resumes by itself. */
  LEDGER_WRITE_FAILED: 'LEDGER_WRITE_FAILED',
  /** The ledger file is damaged (PRAGMA quick_check failed, or SQLite reports corruption): move it aside. */
  LEDGER_DAMAGED: 'LEDGER_DAMAGED',
  /** A step of the print queue threw something unexpected (a bug): its line waits and tries again by itself. */
  STEP_FAILED: 'PIPELINE_STEP_FAILED',
  /** Another process (a second agent) holds the ledger's exclusive lock. */
  LEDGER_LOCKED: 'LEDGER_LOCKED',
} as const;
export type JobErrorCode = (typeof JOB_ERROR_CODES)[keyof typeof JOB_ERROR_CODES];

export class JobError extends CodedError {
  override readonly code: JobErrorCode;
  readonly jobId: string | null;

  constructor(code: JobErrorCode, message: string, options?: { jobId?: string | null; cause?: unknown }) {
    super(code, message, { cause: options?.cause });
    this.code = code;
    this.jobId = options?.jobId ?? null;
  }
}

/** better-sqlite3's SqliteError carries the extended result code (`SQLITE_IOERR_WRITE`). */
export function sqliteCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

/** A lock held by another connection (SQLITE_BUSY, SQLITE_LOCKED and their extended codes). */
export function isSqliteBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== null && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * A failed ledger write as a coded error that says what to do. The pipeline keeps the
 * previous state (the write did not happen) and tries again by itself.
 */
export function ledgerWriteError(cause: unknown, dir: string): JobError {
  if (cause instanceof JobError) return cause;
  const code = sqliteCode(cause) ?? 'unknown';
  const message = isSqliteBusy(cause)
    ? `Cannot write the job ledger in ${dir}: another process holds ledger.sqlite locked (${code}). Stop it; the agent resumes by itself.`
    : `Cannot write the job ledger (${code}): the disk holding ${dir} is full or read-only: free space, then the agent resumes by itself.`;
  return new JobError(JOB_ERROR_CODES.LEDGER_WRITE_FAILED, message, { cause });
}

/**
 * A Pause or Resume the ledger could not record: nothing changed (the pause as it was is
 * what the UI keeps showing), so the person presses it again once the disk has room.
 */
export function pauseNotRecorded(failure: JobError, pausing: boolean, dir: string): JobError {
  const code = sqliteCode(failure.cause) ?? 'unknown';
  const outcome = pausing ? 'Printing was not paused' : 'Printing stays paused';
  const message =
    `${outcome}: the job ledger cannot be written (${code}; the disk holding ${dir} is full or read-only, or another process holds the ledger). ` +
    `Free space, then press ${pausing ? 'Pause' : 'Resume'} again.`;
  return new JobError(JOB_ERROR_CODES.LEDGER_WRITE_FAILED, message, { cause: failure });
}

/** SQLite's own word that a file is damaged or not a database at all. */
export function isSqliteCorrupt(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== null && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}
