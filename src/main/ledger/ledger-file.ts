import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateDir } from '../data-dir';
import { isSqliteBusy, isSqliteCorrupt, JobError, JOB_ERROR_CODES } from './errors';
import { checkIntact, damagedLedger, movedAsideLedgerPresent } from './ledger-check';
import { acquireLedgerLock } from './ledger-lock';
import { migrate } from './migrations';

export interface LedgerFileOptions {
  /** The SQLite file; its directory is created. `:memory:` works for throwaway use. */
  readonly path: string;
  /** How long a write waits for a lock held by another process (e.g. a backup tool). @default 5000 */
  readonly busyTimeoutMs?: number;
  /**
   * How long opening waits for the exclusive lock another agent may hold before it fails
   * with LEDGER_LOCKED. @default 2000
   */
  readonly openBusyTimeoutMs?: number;
  /** @default () => new Date() */
  readonly now?: () => Date;
}

/** An open ledger file: the database the repositories share, and how to let go of it. */
export interface LedgerFile {
  readonly db: Database.Database;
  /** The data directory holding the file (what an error tells the user to check). */
  readonly dir: string;
  /**
   * This ledger was created next to one moved aside (after damage): the poll marks were lost
   * with it, so the poller must not treat a poll without a mark as a first run and print the
   * last minutes' bookings again (create-agent.ts starts it at "now"). Persisted, so a restart
   * before the first poll still knows.
   */
  readonly recovered: boolean;
  /** Closes the database and releases the lock file. */
  close(): void;
}

/** Set in a ledger that replaced a lost one (kept with the poll cursors: no migration needed). */
const RECOVERED_MARKER = 'ledger:recovered-at';

/**
 * Opens the ledger: one SQLite file, one connection. Two locks keep it to one agent per
 * data directory: a lock file next to it (ledger-lock.ts) and SQLite's exclusive lock, held
 * from open to close (`locking_mode = EXCLUSIVE`), so the connection is the only reader and
 * writer of the file. A second agent on the same data directory fails with LEDGER_LOCKED
 * instead of printing the same jobs again.
 *
 * WAL with `synchronous = NORMAL`: a commit is durable as soon as it is in the WAL, which
 * survives a crash or SIGKILL of the process (the case that matters for exactly-once); only
 * a power cut can lose the last few commits, and the file stays consistent. FULL would add
 * an fsync per job transition for no gain against process crashes.
 */
export function openLedgerFile(options: LedgerFileOptions): LedgerFile {
  const now = options.now ?? (() => new Date());
  const memory = options.path === ':memory:';
  const file = memory ? ':memory:' : path.resolve(options.path);
  const dir = memory ? ':memory:' : path.dirname(file);
  // The ledger holds references and webhook bodies: the directory and its files are the owner's alone.
  if (!memory) ensurePrivateDir(dir);
  const replacesLost = !memory && !fs.existsSync(options.path) && movedAsideLedgerPresent(file);
  const locked = (cause?: unknown): JobError =>
    new JobError(
      JOB_ERROR_CODES.LEDGER_LOCKED,
      `Another Print Station agent is already using ${dir} (ledger.sqlite is locked); stop it or use another --data-dir.`,
      cause === undefined ? undefined : { cause },
    );
  let releaseLock = (): void => undefined;
  if (!memory) {
    const lock = acquireLedgerLock(`${file}.lock`);
    if (!lock.ok) throw locked();
    releaseLock = lock.release;
  }
  let opened: Database.Database | null = null;
  try {
    const db = new Database(options.path);
    opened = db;
    // Short at open: a second agent on the same directory must hear "locked" promptly.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.openBusyTimeoutMs ?? 2000))}`);
    if (!memory) {
      // One agent per data directory: the exclusive lock is taken now and kept until close
      // (or until the OS drops it when the process dies, so a crash never leaves it stuck).
      // Set before WAL so SQLite keeps the WAL index in heap memory, not a shared file.
      db.pragma('locking_mode = EXCLUSIVE');
    }
    db.pragma('journal_mode = WAL');
    if (!memory) db.exec('BEGIN EXCLUSIVE; COMMIT');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    db.pragma('foreign_keys = ON');
    // Checked before anything reads or writes it: a damaged ledger found here stops the start
    // with what to do, instead of every job failing later with "malformed".
    if (!memory) checkIntact(db, file);
    migrate(db);
    // Files SQLite created just now (a new ledger, its WAL) get the process umask's mode.
    if (!memory) ensurePrivateDir(dir);
    if (replacesLost) {
      db.prepare('INSERT OR IGNORE INTO cursors (name, value) VALUES (?, ?)').run(RECOVERED_MARKER, now().toISOString());
    }
    const recovered = db.prepare('SELECT 1 FROM cursors WHERE name = ?').get(RECOVERED_MARKER) !== undefined;
    return {
      db,
      dir,
      recovered,
      close() {
        if (db.open) db.close();
        releaseLock();
      },
    };
  } catch (cause) {
    if (opened?.open) opened.close();
    releaseLock();
    if (cause instanceof JobError) throw cause;
    if (isSqliteCorrupt(cause)) throw damagedLedger(file, (cause as Error).message, cause);
    if (isSqliteBusy(cause)) throw locked(cause);
    throw new JobError(
      JOB_ERROR_CODES.LEDGER,
      `Cannot open the job ledger at ${options.path}: ${(cause as Error).message}. ` +
        'Check the data directory is writable, or move the damaged file aside.',
      { cause },
    );
  }
}
