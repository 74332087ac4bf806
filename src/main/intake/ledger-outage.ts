/**
 * A write intake could not make because the ledger cannot take writes (disk full, read-only,
 * I/O error). That is one condition of the station, not a failure of each booking: the agent
 * parks its lines on it and says so once (log, status), and once more when it clears
 * (ledger-guard.ts). Intake hands such a failure to that one place instead of logging a line
 * per booking at every poll and per webhook retry.
 */

/**
 * The ledger refused the write as a whole (full, read-only, I/O error, locked): SQLite's
 * own codes, or the print queue's LEDGER_WRITE_FAILED. A constraint or a bug is not one.
 */
export function ledgerUnwritable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'LEDGER_WRITE_FAILED') return true;
  return typeof code === 'string' && /^SQLITE_(FULL|IOERR|READONLY|BUSY|LOCKED|CANTOPEN)/.test(code);
}

/**
 * True when `error` is the ledger's outage and `onLedgerFailure` took it (it tells the user,
 * once): the caller then logs nothing of its own. False for any other failure, or when no one
 * listens (a receiver or poller on its own), and the caller logs it as before.
 */
export function handOffLedgerFailure(error: unknown, onLedgerFailure: ((error: unknown) => void) | undefined): boolean {
  if (!onLedgerFailure || !ledgerUnwritable(error)) return false;
  onLedgerFailure(error);
  return true;
}
