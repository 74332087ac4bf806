/**
 * The ledger's health check at open, and what a damaged ledger tells the operator.
 *
 * `PRAGMA quick_check(1)` reads every page once and stops at the first problem: about
 * 110 ms on a 100k-job ledger (94 MB) on the 2-core bench machine, and retention keeps the
 * ledger near that size. The full `integrity_check` also checks every index against its
 * table and took 820 ms there: too slow for every start.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { JobError, JOB_ERROR_CODES } from './errors';

/** Throws LEDGER_DAMAGED when SQLite finds the file damaged. */
export function checkIntact(db: Database.Database, file: string): void {
  const result = db.pragma('quick_check(1)', { simple: true });
  if (result !== 'ok') throw damagedLedger(file, String(result));
}

export function damagedLedger(file: string, detail: string, cause?: unknown): JobError {
  const base = path.basename(file);
  return new JobError(
    JOB_ERROR_CODES.LEDGER_DAMAGED,
    `The job ledger ${file} is damaged (${plainDetail(detail)}), so the station did not start: move ${base} aside (rename it, ` +
      `with ${base}-wal if there is one, to ${base}.damaged) and start again: the station starts a new ledger and rebuilds what it needs from the ` +
      'service by polling. Bookings already printed are not printed again; bookings made while the station was stopped are ' +
      'not printed automatically either: find them by scan and use Reprint. Keep the damaged file for support.',
    { cause },
  );
}

/** SQLite's report without its `*** in database main ***` banner, on one line. */
function plainDetail(detail: string): string {
  const text = detail
    .replace(/\*{3}\s*in database \S+\s*\*{3}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (text || 'quick_check found a problem').slice(0, 200);
}

/**
 * A ledger file moved aside after damage (`ledger.sqlite.damaged`, or any `ledger.sqlite.<something>`
 * other than the live lock file): a new ledger next to it replaces a lost one, not a first run.
 */
export function movedAsideLedgerPresent(file: string): boolean {
  const base = path.basename(file);
  const live = new Set([`${base}-wal`, `${base}-shm`, `${base}-journal`, `${base}.lock`]);
  try {
    return fs.readdirSync(path.dirname(file)).some((name) => name.startsWith(`${base}.`) && !live.has(name));
  } catch {
    return false;
  }
}
