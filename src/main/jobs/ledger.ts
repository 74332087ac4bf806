import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { JobState } from '../../shared/domain';
import { JOB_STATES } from '../../shared/domain';
import { isSqliteBusy, isSqliteCorrupt, JobError, JOB_ERROR_CODES } from './errors';
import { checkIntact, damagedLedger, movedAsideLedgerPresent } from './ledger-check';
import { IntakeStore, type ScanMatch, type SeenShipment } from './intake-store';
import { newJobId } from './job-id';
import {
  AUTO_TRIGGERS,
  autoJobKey,
  rowToRecord,
  type JobPatch,
  type JobRecord,
  type JobRow,
  type JobSpec,
} from './job-record';
import { ensurePrivateDir } from '../data-dir';
import { acquireLedgerLock } from './ledger-lock';
import { migrate } from './migrations';
import type { TrackingEventView } from '../../shared/domain';

export interface RetentionOptions {
  /** Finished jobs, webhook message ids and tracking older than this are removed. @default 90 */
  readonly maxAgeDays?: number;
  /** At most this many finished jobs are kept (the oldest go first). @default 200_000 */
  readonly maxRows?: number;
}

export interface LedgerOptions {
  /** The SQLite file; its directory is created. `:memory:` works for throwaway use. */
  readonly path: string;
  /** How long a write waits for a lock held by another process (e.g. a backup tool). @default 5000 */
  readonly busyTimeoutMs?: number;
  /**
   * How long opening waits for the exclusive lock another agent may hold before it fails
   * with LEDGER_LOCKED. @default 2000
   */
  readonly openBusyTimeoutMs?: number;
  /** Retention applied at open and then every `pruneIntervalMs`. */
  readonly retention?: RetentionOptions;
  /** @default 86_400_000 (daily); 0 = only at open */
  readonly pruneIntervalMs?: number;
  /** @default () => new Date() */
  readonly now?: () => Date;
}

export interface JobSearch {
  /** Matches reference, tracking id or shipment id: exactly or as a prefix, ignoring case. */
  readonly text?: string;
  readonly state?: JobState;
  /** @default 100 */
  readonly limit?: number;
}

export interface PruneResult {
  readonly jobs: number;
  readonly messages: number;
  readonly tracking: number;
  readonly shipments: number;
}

const FINISHED_SQL = "('completed', 'failed', 'canceled')";

/**
 * Above this many index entries matching a history search, walking the table newest first
 * is likely to beat collecting and sorting them (about 2 ms at the threshold here, where a
 * full walk of 100k jobs takes 18 ms and one that stops early well under 1 ms).
 */
export const SEARCH_INDEX_MAX_MATCHES = 10_000;

// INDEXED BY: the plan must not depend on statistics (ANALYZE) the planner may or may not have.
const SEARCH_RANGES_SQL = `
  SELECT seq FROM jobs INDEXED BY jobs_shipment WHERE shipment_id >= @lo COLLATE NOCASE AND shipment_id < @hi COLLATE NOCASE
  UNION ALL SELECT seq FROM jobs INDEXED BY jobs_reference WHERE reference >= @lo COLLATE NOCASE AND reference < @hi COLLATE NOCASE
  UNION ALL SELECT seq FROM jobs INDEXED BY jobs_tracking WHERE tracking_id >= @lo COLLATE NOCASE AND tracking_id < @hi COLLATE NOCASE`;

/** Counts matching index entries, stopping at @cap. */
const SEARCH_MATCH_COUNT_SQL = `SELECT COUNT(*) AS n FROM (SELECT seq FROM (${SEARCH_RANGES_SQL}) LIMIT @cap)`;

/** The text search through the three indexes (IN removes a job found by two of them twice). */
export function searchByIndexSql(withState: boolean): string {
  return `SELECT * FROM jobs WHERE seq IN (${SEARCH_RANGES_SQL})${withState ? ' AND state = @state' : ''} ORDER BY seq DESC LIMIT @limit`;
}

/** The text search walking the table newest first: for prefixes that match most of it. */
function searchByWalkSql(withState: boolean): string {
  return `SELECT * FROM jobs WHERE ((shipment_id >= @lo COLLATE NOCASE AND shipment_id < @hi COLLATE NOCASE)
      OR (reference >= @lo COLLATE NOCASE AND reference < @hi COLLATE NOCASE)
      OR (tracking_id >= @lo COLLATE NOCASE AND tracking_id < @hi COLLATE NOCASE))${withState ? ' AND state = @state' : ''}
    ORDER BY seq DESC LIMIT @limit`;
}
/** Set in a ledger that replaced a lost one (kept with the poll cursors: no migration needed). */
const RECOVERED_MARKER = 'ledger:recovered-at';
const OPEN_SQL = "('queued', 'fetching', 'spooling', 'spooled')";

/**
 * The durable job ledger: one SQLite file, one connection, synchronous calls. The
 * connection holds SQLite's exclusive lock from open to close (`locking_mode = EXCLUSIVE`),
 * so it is the only reader and writer of the file: a second agent on the same data
 * directory fails to open with LEDGER_LOCKED instead of printing the same jobs again.
 *
 * WAL with `synchronous = NORMAL`: a commit is durable as soon as it is in the WAL, which
 * survives a crash or SIGKILL of the process (the case that matters for exactly-once); only
 * a power cut can lose the last few commits, and the file stays consistent. FULL would add
 * an fsync per job transition for no gain against process crashes.
 */
export class Ledger {
  private readonly db: Database.Database;
  /** The data directory holding the file (what an error tells the user to check). */
  readonly dir: string;
  /**
   * This ledger was created next to one moved aside (after damage): the poll marks were lost
   * with it, so the poller must not treat a poll without a mark as a first run and print the
   * last minutes' bookings again (create-agent.ts starts it at "now"). Persisted, so a restart
   * before the first poll still knows.
   */
  readonly recovered: boolean;
  private releaseLock: () => void = () => undefined;
  private readonly now: () => Date;
  private readonly intake: IntakeStore;
  private readonly retention: Required<RetentionOptions>;
  private pruneTimer: NodeJS.Timeout | null = null;
  /** One prepared statement per search shape (text and/or state filter). */
  private readonly searchStatements = new Map<string, Database.Statement>();
  private readonly s;

  static open(options: LedgerOptions): Ledger {
    return new Ledger(options);
  }

  private constructor(options: LedgerOptions) {
    this.now = options.now ?? (() => new Date());
    // The ledger holds references and webhook bodies: the directory and its files are the owner's alone.
    if (options.path !== ':memory:') ensurePrivateDir(path.dirname(path.resolve(options.path)));
    this.dir = options.path === ':memory:' ? ':memory:' : path.dirname(path.resolve(options.path));
    const replacesLost = options.path !== ':memory:' && !fs.existsSync(options.path) && movedAsideLedgerPresent(path.resolve(options.path));
    const locked = (): JobError =>
      new JobError(
        JOB_ERROR_CODES.LEDGER_LOCKED,
        `Another Print Station agent is already using ${this.dir} (ledger.sqlite is locked); stop it or use another --data-dir.`,
      );
    if (options.path !== ':memory:') {
      const lock = acquireLedgerLock(`${path.resolve(options.path)}.lock`);
      if (!lock.ok) throw locked();
      this.releaseLock = lock.release;
    }
    let opened: Database.Database | null = null;
    try {
      const db = new Database(options.path);
      opened = db;
      this.db = db;
      // Short at open: a second agent on the same directory must hear "locked" promptly.
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.openBusyTimeoutMs ?? 2000))}`);
      if (options.path !== ':memory:') {
        // One agent per data directory: the exclusive lock is taken now and kept until close
        // (or until the OS drops it when the process dies, so a crash never leaves it stuck).
        // Set before WAL so SQLite keeps the WAL index in heap memory, not a shared file.
        db.pragma('locking_mode = EXCLUSIVE');
      }
      db.pragma('journal_mode = WAL');
      if (options.path !== ':memory:') db.exec('BEGIN EXCLUSIVE; COMMIT');
      db.pragma('synchronous = NORMAL');
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      db.pragma('foreign_keys = ON');
      // Checked before anything reads or writes it: a damaged ledger found here stops the start
      // with what to do, instead of every job failing later with "malformed".
      if (options.path !== ':memory:') checkIntact(db, path.resolve(options.path));
      migrate(db);
      // Files SQLite created just now (a new ledger, its WAL) get the process umask's mode.
      if (options.path !== ':memory:') ensurePrivateDir(this.dir);
    } catch (cause) {
      if (opened?.open) opened.close();
      this.releaseLock();
      if (cause instanceof JobError) throw cause;
      if (isSqliteCorrupt(cause)) throw damagedLedger(path.resolve(options.path), (cause as Error).message, cause);
      if (isSqliteBusy(cause)) {
        throw new JobError(
          JOB_ERROR_CODES.LEDGER_LOCKED,
          `Another Print Station agent is already using ${this.dir} (ledger.sqlite is locked); stop it or use another --data-dir.`,
          { cause },
        );
      }
      throw new JobError(
        JOB_ERROR_CODES.LEDGER,
        `Cannot open the job ledger at ${options.path}: ${(cause as Error).message}. Check the data directory is writable, or move the damaged file aside.`,
        { cause },
      );
    }
    this.intake = new IntakeStore(this.db, this.now);
    if (replacesLost) this.intake.setCursor(RECOVERED_MARKER, this.now().toISOString());
    this.recovered = this.intake.getCursor(RECOVERED_MARKER) !== null;
    this.retention = { maxAgeDays: options.retention?.maxAgeDays ?? 90, maxRows: options.retention?.maxRows ?? 200_000 };
    const db = this.db;
    this.s = {
      insert: db.prepare(`
        INSERT OR IGNORE INTO jobs (id, shipment_id, reference, tracking_id, document_type, layout, target, copies,
          trigger, state, attempts, idempotency_key, booked_at, created_at, updated_at, held)
        VALUES (@id, @shipmentId, @reference, @trackingId, @documentType, @layout, @target, @copies,
          @trigger, 'queued', 0, @key, @bookedAt, @now, @now, @held)`),
      byId: db.prepare('SELECT * FROM jobs WHERE id = ?'),
      byKey: db.prepare('SELECT * FROM jobs WHERE idempotency_key = ?'),
      autoForDocument: db.prepare(
        'SELECT * FROM jobs WHERE shipment_id = ? COLLATE NOCASE AND document_type = ? AND idempotency_key IS NOT NULL ORDER BY seq LIMIT 1',
      ),
      update: db.prepare(`
        UPDATE jobs SET state = @state, reason = @reason, request_id = @requestId, attempts = @attempts,
          spooler_job_id = @spoolerJobId, next_attempt_at = @nextAttemptAt, held = @held,
          spool_attempted = @spoolAttempted, updated_at = @updatedAt
        WHERE id = @id`),
      inFlight: db.prepare("SELECT * FROM jobs WHERE state IN ('fetching', 'spooling', 'spooled') ORDER BY seq"),
      open: db.prepare(`SELECT * FROM jobs WHERE state IN ${OPEN_SQL} ORDER BY seq`),
      pending: db.prepare(
        `SELECT * FROM jobs WHERE target = ? AND state IN ${OPEN_SQL} AND state != 'spooled' ORDER BY seq`,
      ),
      counts: db.prepare('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state'),
      hold: db.prepare(
        `UPDATE jobs SET held = 1, updated_at = ? WHERE held = 0 AND state = 'queued'
           AND trigger IN (${AUTO_TRIGGERS.map((t) => `'${t}'`).join(', ')}) RETURNING *`,
      ),
      release: db.prepare('UPDATE jobs SET held = 0, updated_at = ? WHERE held = 1 RETURNING *'),
      pruneAge: db.prepare(`DELETE FROM jobs WHERE state IN ${FINISHED_SQL} AND updated_at < ?`),
      pruneRows: db.prepare(`
        DELETE FROM jobs WHERE seq IN (
          SELECT seq FROM jobs WHERE state IN ${FINISHED_SQL} ORDER BY seq DESC LIMIT -1 OFFSET ?)`),
      total: db.prepare('SELECT COUNT(*) AS n FROM jobs'),
    };
    this.prune();
    const interval = options.pruneIntervalMs ?? 86_400_000;
    if (interval > 0) {
      this.pruneTimer = setInterval(() => this.prune(), interval);
      this.pruneTimer.unref();
    }
  }

  // ---- jobs ----------------------------------------------------------------------------

  /**
   * An automatic job, idempotent by (shipment, document type, layout, target): a second
   * call with the same key returns the existing job with `created: false`, whatever its
   * state, so a booking seen by webhook and by poll (or three times) prints once.
   */
  createAutoJob(spec: JobSpec): { job: JobRecord; created: boolean } {
    // A booking prints automatically once per document type, wherever it printed: after the
    // printer or layout setting changes, the poll that sees a booking the webhook already
    // printed must not print it again on the new printer (a reprint by hand still can).
    const printed = this.s.autoForDocument.get(spec.shipmentId, spec.documentType) as JobRow | undefined;
    if (printed) return { job: rowToRecord(printed), created: false };
    const key = autoJobKey(spec);
    for (let attempt = 0; attempt < 3; attempt++) {
      const info = this.insert(spec, key);
      if (info.changes === 1) return { job: info.record, created: true };
      const existing = this.s.byKey.get(key) as JobRow | undefined;
      if (existing) return { job: rowToRecord(existing), created: false };
      // Ignored but no job has the key: the new id clashed with another job's (L14); take a fresh one.
    }
    throw new JobError(JOB_ERROR_CODES.INVALID_STATE, `Job insert for ${key} was ignored but no job has that key.`);
  }

  /** A job that is never deduplicated (reprints, scans, manual prints, tests). */
  createJob(spec: JobSpec): JobRecord {
    // INSERT OR IGNORE also ignores a clash on the job id (L14): never hand back a job that
    // is not in the ledger. A clash is rare (same millisecond, counter and random part), so
    // a fresh id almost always goes in; a ledger that keeps refusing is an error, said so.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { changes, record } = this.insert(spec, null);
      if (changes === 1) return record;
    }
    throw new JobError(JOB_ERROR_CODES.LEDGER, `The job ledger in ${this.dir} did not record a new job for shipment ${spec.shipmentId}; try again.`);
  }

  /** Move a job to `state`, changing the patched fields; returns the updated row. */
  transition(id: string, state: JobState, patch: JobPatch = {}): JobRecord {
    const job = this.mustGet(id);
    const updatedAt = this.now().toISOString();
    const next = {
      id,
      state,
      reason: patch.reason === undefined ? job.reason : patch.reason,
      requestId: patch.requestId === undefined ? job.requestId : patch.requestId,
      attempts: patch.attempts ?? job.attempts + (patch.incrementAttempts ? 1 : 0),
      spoolerJobId: patch.spoolerJobId === undefined ? job.spoolerJobId : patch.spoolerJobId,
      nextAttemptAt: patch.nextAttemptAt === undefined ? job.nextAttemptAt : patch.nextAttemptAt,
      held: (patch.held ?? job.held) ? 1 : 0,
      spoolAttempted: (patch.spoolAttempted ?? job.spoolAttempted) ? 1 : 0,
      updatedAt,
    };
    this.s.update.run(next);
    return {
      ...job,
      state,
      reason: next.reason,
      requestId: next.requestId,
      attempts: next.attempts,
      spoolerJobId: next.spoolerJobId,
      nextAttemptAt: next.nextAttemptAt,
      held: next.held === 1,
      spoolAttempted: next.spoolAttempted === 1,
      updatedAt,
    };
  }

  get(id: string): JobRecord | null {
    const row = this.s.byId.get(id) as JobRow | undefined;
    return row ? rowToRecord(row) : null;
  }

  /**
   * History, newest first. A text search reads the three NOCASE indexes (shipment id,
   * reference, tracking id) as ranges: exact and prefix matches, no LIKE wildcards to escape
   * in what a scanner typed. The three ranges joined by OR made SQLite scan the whole table
   * (25 ms at 100k jobs); as one IN over a UNION ALL of three index ranges it reads only
   * the matching index entries. A short prefix can match most of the table (every UPS
   * tracking id starts "1Z"), where sorting all matches costs more than walking the table
   * newest first and stopping at `limit`: when the ranges hold more than
   * SEARCH_INDEX_MAX_MATCHES entries, that walk is used instead. Both give the same rows in
   * the same order.
   */
  search(query: JobSearch = {}): JobRecord[] {
    const limit = Math.max(1, Math.min(10_000, Math.floor(query.limit ?? 100)));
    const text = query.text?.trim();
    const state = query.state ?? null;
    if (!text) {
      const sql = `SELECT * FROM jobs ${state ? 'WHERE state = @state' : ''} ORDER BY seq DESC LIMIT @limit`;
      return (this.searchStatement(sql).all({ state, limit }) as JobRow[]).map(rowToRecord);
    }
    const range = { lo: text, hi: `${text}\uffff` };
    const matches = (this.searchStatement(SEARCH_MATCH_COUNT_SQL).get({ ...range, cap: SEARCH_INDEX_MAX_MATCHES + 1 }) as { n: number }).n;
    const sql = matches <= SEARCH_INDEX_MAX_MATCHES ? searchByIndexSql(state !== null) : searchByWalkSql(state !== null);
    return (this.searchStatement(sql).all({ ...range, state, limit }) as JobRow[]).map(rowToRecord);
  }

  private searchStatement(sql: string): Database.Statement {
    let statement = this.searchStatements.get(sql);
    if (!statement) this.searchStatements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** Jobs created at or after `isoTime` (the ledger's own clock), oldest first: the end-of-day report reads them. */
  jobsCreatedSince(isoTime: string): JobRecord[] {
    return (this.searchStatement('SELECT * FROM jobs WHERE created_at >= ? ORDER BY seq').all(isoTime) as JobRow[]).map(rowToRecord);
  }

  /** Every job of one shipment, oldest first (what printed where, before a reprint). */
  jobsForShipment(shipmentId: string): JobRecord[] {
    const sql = 'SELECT * FROM jobs WHERE shipment_id = ? COLLATE NOCASE ORDER BY seq';
    return (this.searchStatement(sql).all(shipmentId) as JobRow[]).map(rowToRecord);
  }

  /** Jobs between the ledger and the printer (fetching, spooling, spooled), oldest first. */
  inFlight(): JobRecord[] {
    return (this.s.inFlight.all() as JobRow[]).map(rowToRecord);
  }

  /** Every unfinished job (queued … spooled), in creation order: what start() resumes. */
  open(): JobRecord[] {
    return (this.s.open.all() as JobRow[]).map(rowToRecord);
  }

  /** A target's jobs not yet handed to its spooler, in FIFO order. */
  pending(target: string): JobRecord[] {
    return (this.s.pending.all(target) as JobRow[]).map(rowToRecord);
  }

  counts(): Record<JobState, number> {
    const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
    for (const row of this.s.counts.all() as { state: JobState; n: number }[]) counts[row.state] = row.n;
    return counts;
  }

  /** Hold every queued automatic job (automatic printing paused); returns them. */
  holdAutoJobs(): JobRecord[] {
    return (this.s.hold.all(this.now().toISOString()) as JobRow[]).map(rowToRecord);
  }

  /** Release every held job; returns them. */
  releaseHeld(): JobRecord[] {
    return (this.s.release.all(this.now().toISOString()) as JobRow[]).map(rowToRecord);
  }

  // ---- retention -----------------------------------------------------------------------

  /**
   * Remove finished jobs older than `maxAgeDays` or beyond `maxRows`, plus webhook message
   * ids, tracking events and seen shipments older than the age. Unfinished jobs stay.
   */
  prune(options: RetentionOptions = {}): PruneResult {
    const maxAgeDays = options.maxAgeDays ?? this.retention.maxAgeDays;
    const maxRows = options.maxRows ?? this.retention.maxRows;
    const cutoff = new Date(this.now().getTime() - maxAgeDays * 86_400_000).toISOString();
    return this.db.transaction(() => {
      const byAge = this.s.pruneAge.run(cutoff).changes;
      const byRows = this.s.pruneRows.run(Math.max(0, Math.floor(maxRows))).changes;
      return { jobs: byAge + byRows, ...this.intake.prune(cutoff) };
    })();
  }

  // ---- intake --------------------------------------------------------------------------

  rememberMessage(messageId: string): boolean {
    return this.intake.rememberMessage(messageId);
  }
  upsertShipment(shipment: SeenShipment): void {
    this.intake.upsertShipment(shipment);
  }
  findShipmentIdByScan(value: string): string | null {
    return this.intake.findShipmentIdByScan(value);
  }
  lookupShipment(value: string): ScanMatch | null {
    return this.intake.lookupShipment(value);
  }
  getShipment(shipmentId: string): SeenShipment | null {
    return this.intake.getShipment(shipmentId);
  }
  recordTracking(shipmentId: string, event: TrackingEventView): boolean {
    return this.intake.recordTracking(shipmentId, event);
  }
  trackingFor(shipmentId: string): TrackingEventView[] {
    return this.intake.trackingFor(shipmentId);
  }
  getCursor(name: string): string | null {
    return this.intake.getCursor(name);
  }
  setCursor(name: string, value: string): void {
    this.intake.setCursor(name, value);
  }
  pausedScopes(): string[] {
    return this.intake.pausedScopes();
  }
  setPaused(scope: string, paused: boolean): void {
    this.intake.setPaused(scope, paused);
  }

  /** Run several ledger calls in one transaction (one commit for a batch). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  totalJobs(): number {
    return (this.s.total.get() as { n: number }).n;
  }

  close(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
    if (this.db.open) this.db.close();
    this.releaseLock();
  }

  /** Inserts and builds the record from what was written (no read back: the hot path of a burst). */
  private insert(spec: JobSpec, key: string | null): { changes: number; record: JobRecord } {
    const now = this.now();
    const row = {
      id: newJobId(now.getTime()),
      shipmentId: spec.shipmentId,
      reference: spec.reference ?? null,
      trackingId: spec.trackingId ?? null,
      documentType: spec.documentType,
      layout: spec.layout,
      target: spec.target,
      copies: Math.max(1, Math.floor(spec.copies ?? 1)),
      trigger: spec.trigger,
      key,
      bookedAt: spec.bookedAt ?? null,
      now: now.toISOString(),
      held: spec.held ? 1 : 0,
    };
    const info = this.s.insert.run(row);
    const record: JobRecord = {
      id: row.id,
      shipmentId: row.shipmentId,
      reference: row.reference,
      trackingId: row.trackingId,
      documentType: row.documentType,
      layout: row.layout,
      target: row.target,
      copies: row.copies,
      trigger: row.trigger,
      state: 'queued',
      reason: null,
      requestId: null,
      attempts: 0,
      spoolerJobId: null,
      createdAt: row.now,
      updatedAt: row.now,
      seq: Number(info.lastInsertRowid),
      idempotencyKey: key,
      bookedAt: row.bookedAt,
      nextAttemptAt: null,
      held: spec.held === true,
      spoolAttempted: false,
    };
    return { changes: info.changes, record };
  }

  private mustGet(id: string): JobRecord {
    const job = this.get(id);
    if (!job) throw new JobError(JOB_ERROR_CODES.NOT_FOUND, `No print job ${id}: it may have been removed by retention.`, { jobId: id });
    return job;
  }
}
