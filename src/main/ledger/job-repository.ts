import type Database from 'better-sqlite3';
import type { JobState } from '../../shared/domain';
import { JOB_STATES } from '../../shared/domain';
import { JobError, JOB_ERROR_CODES } from './errors';
import { newJobId } from './job-id';
import { codedOnly, englishOf, type AgentMessage } from '../../shared/agent-messages';
import {
  AUTO_TRIGGERS,
  autoJobKey,
  rowToRecord,
  withReasonMessage,
  withSiteDecision,
  type JobPatch,
  type JobRecord,
  type JobRow,
  type JobSpec,
} from './job-record';
import { JobSearcher, type JobSearch } from './job-search';

const FINISHED_SQL = "('completed', 'failed', 'canceled')";
const OPEN_SQL = "('queued', 'fetching', 'spooling', 'spooled')";

/**
 * The ledger's jobs (table `jobs`) and the pauses that hold them (table `pauses`): creation
 * with its idempotency, state transitions, history search, counts and retention.
 * Synchronous calls on the connection the ledger file opened; statements are prepared once.
 */
/** The pauses row probeWrite() writes and removes at once; never a printer URI. */
const PROBE_SCOPE = '\u0000probe';

export class JobRepository {
  private readonly s;
  private readonly searcher: JobSearcher;

  /** `dir` is the data directory an error tells the user to check. */
  constructor(
    db: Database.Database,
    private readonly now: () => Date,
    private readonly dir: string,
  ) {
    this.searcher = new JobSearcher(db);
    const probeInsert = db.prepare('INSERT OR REPLACE INTO pauses (scope, paused_at) VALUES (?, ?)');
    const probeDelete = db.prepare('DELETE FROM pauses WHERE scope = ?');
    this.s = {
      insert: db.prepare(`
        INSERT OR IGNORE INTO jobs (id, shipment_id, reference, tracking_id, document_type, layout, target, copies,
          trigger, state, attempts, idempotency_key, booked_at, created_at, updated_at, held, site_decision)
        VALUES (@id, @shipmentId, @reference, @trackingId, @documentType, @layout, @target, @copies,
          @trigger, 'queued', 0, @key, @bookedAt, @now, @now, @held, @siteDecision)`),
      byId: db.prepare('SELECT * FROM jobs WHERE id = ?'),
      byKey: db.prepare('SELECT * FROM jobs WHERE idempotency_key = ?'),
      setTrigger: db.prepare('UPDATE jobs SET trigger = @trigger WHERE id = @id'),
      autoForDocument: db.prepare(
        'SELECT * FROM jobs WHERE shipment_id = ? COLLATE NOCASE AND document_type = ? AND idempotency_key IS NOT NULL ORDER BY seq LIMIT 1',
      ),
      update: db.prepare(`
        UPDATE jobs SET state = @state, reason = @reason, reason_message = @reasonMessage, request_id = @requestId, attempts = @attempts,
          spooler_job_id = @spoolerJobId, next_attempt_at = @nextAttemptAt, held = @held,
          spool_attempted = @spoolAttempted, batch_id = @batchId, target = @target, layout = @layout, updated_at = @updatedAt
        WHERE id = @id`),
      inFlight: db.prepare("SELECT * FROM jobs WHERE state IN ('fetching', 'spooling', 'spooled') ORDER BY seq"),
      createdSince: db.prepare('SELECT * FROM jobs WHERE created_at >= ? ORDER BY seq'),
      forShipment: db.prepare('SELECT * FROM jobs WHERE shipment_id = ? COLLATE NOCASE ORDER BY seq'),
      open: db.prepare(`SELECT * FROM jobs WHERE state IN ${OPEN_SQL} ORDER BY seq`),
      pending: db.prepare(`SELECT * FROM jobs WHERE target = ? AND state IN ${OPEN_SQL} AND state != 'spooled' ORDER BY seq`),
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
      pauses: db.prepare('SELECT scope FROM pauses'),
      pause: db.prepare('INSERT OR IGNORE INTO pauses (scope, paused_at) VALUES (?, ?)'),
      resume: db.prepare('DELETE FROM pauses WHERE scope = ?'),
      // A row written and removed in one commit: the pages still go to the WAL, so the disk must take them.
      probe: db.transaction((at: string) => {
        probeInsert.run(PROBE_SCOPE, at);
        probeDelete.run(PROBE_SCOPE);
      }),
    };
  }

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
    if (printed) return { job: this.bookedHere(rowToRecord(printed), spec), created: false };
    const key = autoJobKey(spec);
    for (let attempt = 0; attempt < 3; attempt++) {
      const info = this.insert(spec, key);
      if (info.changes === 1) return { job: info.record, created: true };
      const existing = this.s.byKey.get(key) as JobRow | undefined;
      if (existing) return { job: this.bookedHere(rowToRecord(existing), spec), created: false };
      // Ignored but no job has the key: the new id clashed with another job's (L14); take a fresh one.
    }
    throw new JobError(JOB_ERROR_CODES.INVALID_STATE, `Job insert for ${key} was ignored but no job has that key.`);
  }

  /**
   * A booking made at this station (pack and ship: trigger `scan`) whose webhook or poll came in
   * before the booking call answered: its job is recorded as booked here, which it was, so the
   * queue says so rather than "booked (webhook)".
   */
  private bookedHere(job: JobRecord, spec: JobSpec): JobRecord {
    if (spec.trigger !== 'scan' || !AUTO_TRIGGERS.includes(job.trigger)) return job;
    this.s.setTrigger.run({ id: job.id, trigger: spec.trigger });
    return { ...job, trigger: spec.trigger };
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
    throw new JobError(
      JOB_ERROR_CODES.LEDGER,
      `The job ledger in ${this.dir} did not record a new job for shipment ${spec.shipmentId}; try again.`,
    );
  }

  /** Move a job to `state`, changing the patched fields; returns the updated row. */
  transition(id: string, state: JobState, patch: JobPatch = {}): JobRecord {
    const job = this.mustGet(id);
    const reason = reasonColumns(job, patch.reason);
    const next = {
      id,
      state,
      reason: reason.text,
      reasonMessage: reason.json,
      requestId: patch.requestId === undefined ? job.requestId : patch.requestId,
      attempts: patch.attempts ?? job.attempts + (patch.incrementAttempts ? 1 : 0),
      spoolerJobId: patch.spoolerJobId === undefined ? job.spoolerJobId : patch.spoolerJobId,
      nextAttemptAt: patch.nextAttemptAt === undefined ? job.nextAttemptAt : patch.nextAttemptAt,
      held: (patch.held ?? job.held) ? 1 : 0,
      spoolAttempted: (patch.spoolAttempted ?? job.spoolAttempted) ? 1 : 0,
      batchId: job.batchId ?? null,
      target: patch.target ?? job.target,
      layout: patch.layout ?? job.layout,
      updatedAt: this.now().toISOString(),
    };
    next.batchId =
      patch.batchId !== undefined ? patch.batchId : state === 'queued' && next.spoolAttempted === 0 ? null : (job.batchId ?? null);
    this.s.update.run(next);
    const { reasonMessage: _json, ...changed } = next;
    const { reasonMessage: _old, ...before } = job;
    return {
      ...before,
      ...changed,
      ...withReasonMessage(reason.message),
      held: next.held === 1,
      spoolAttempted: next.spoolAttempted === 1,
    };
  }

  get(id: string): JobRecord | null {
    const row = this.s.byId.get(id) as JobRow | undefined;
    return row ? rowToRecord(row) : null;
  }

  /** History, newest first (job-search.ts). */
  search(query: JobSearch = {}): JobRecord[] {
    return this.searcher.search(query);
  }

  /** Jobs between the ledger and the printer (fetching, spooling, spooled), oldest first. */
  inFlight(): JobRecord[] {
    return (this.s.inFlight.all() as JobRow[]).map(rowToRecord);
  }

  /** Jobs created at or after `isoTime` (the ledger's own clock), oldest first: the end-of-day report reads them. */
  createdSince(isoTime: string): JobRecord[] {
    return (this.s.createdSince.all(isoTime) as JobRow[]).map(rowToRecord);
  }

  /** Every job of one shipment, oldest first (what printed where, before a reprint). */
  forShipment(shipmentId: string): JobRecord[] {
    return (this.s.forShipment.all(shipmentId) as JobRow[]).map(rowToRecord);
  }

  /** Every unfinished job (queued … spooled), in creation order: what start() resumes. */
  open(): JobRecord[] {
    return (this.s.open.all() as JobRow[]).map(rowToRecord);
  }

  /** A target's jobs not yet handed to its spooler, in creation order. */
  pending(target: string): JobRecord[] {
    return (this.s.pending.all(target) as JobRow[]).map(rowToRecord);
  }

  counts(): Record<JobState, number> {
    const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
    for (const row of this.s.counts.all() as { state: JobState; n: number }[]) counts[row.state] = row.n;
    return counts;
  }

  totalJobs(): number {
    return (this.s.total.get() as { n: number }).n;
  }

  /** Hold every queued automatic job (automatic printing paused); returns them. */
  holdAutoJobs(): JobRecord[] {
    return (this.s.hold.all(this.now().toISOString()) as JobRow[]).map(rowToRecord);
  }

  /** Release every held job; returns them. */
  releaseHeld(): JobRecord[] {
    return (this.s.release.all(this.now().toISOString()) as JobRow[]).map(rowToRecord);
  }

  /** '*' = automatic printing; otherwise printer URIs. */
  pausedScopes(): string[] {
    return (this.s.pauses.all() as { scope: string }[]).map((r) => r.scope);
  }

  setPaused(scope: string, paused: boolean): void {
    if (paused) this.s.pause.run(scope, this.now().toISOString());
    else this.s.resume.run(scope);
  }

  /**
   * A real write that leaves nothing behind, to learn whether the ledger takes writes again
   * (disk full, read-only) when nothing else is waiting to be written. Throws SQLite's error.
   */
  probeWrite(): void {
    this.s.probe(this.now().toISOString());
  }

  /** Removes finished jobs updated before `cutoffIso` or beyond the newest `maxRows`; unfinished jobs stay. */
  prune(cutoffIso: string, maxRows: number): number {
    const byAge = this.s.pruneAge.run(cutoffIso).changes;
    return byAge + this.s.pruneRows.run(Math.max(0, Math.floor(maxRows))).changes;
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
      siteDecision: spec.siteDecision ? JSON.stringify(spec.siteDecision) : null,
    };
    const info = this.s.insert.run(row);
    const { key: idempotencyKey, now: createdAt, held: _held, siteDecision: _site, ...fields } = row;
    const record: JobRecord = {
      ...fields,
      state: 'queued',
      reason: null,
      requestId: null,
      attempts: 0,
      spoolerJobId: null,
      createdAt,
      updatedAt: createdAt,
      seq: Number(info.lastInsertRowid),
      idempotencyKey,
      nextAttemptAt: null,
      held: spec.held === true,
      spoolAttempted: false,
      batchId: null,
      ...withSiteDecision(spec.siteDecision),
    };
    return { changes: info.changes, record };
  }

  private mustGet(id: string): JobRecord {
    const job = this.get(id);
    if (!job) throw new JobError(JOB_ERROR_CODES.NOT_FOUND, `No print job ${id}: it may have been removed by retention.`, { jobId: id });
    return job;
  }
}

/** The reason's two columns: its English text, and its code as JSON (null for plain text). Undefined keeps both. */
function reasonColumns(
  job: JobRecord,
  reason: JobPatch['reason'],
): { text: string | null; json: string | null; message: AgentMessage | null } {
  if (reason === undefined) {
    const message = job.reasonMessage ?? null;
    return { text: job.reason, json: message ? JSON.stringify(message) : null, message };
  }
  if (reason === null || typeof reason === 'string') return { text: reason, json: null, message: null };
  // Bare text has no code to store: the row reads like one written before codes.
  const message = codedOnly(reason);
  return { text: englishOf(reason), json: message ? JSON.stringify(message) : null, message };
}
