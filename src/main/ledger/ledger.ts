import type { AgentMessage } from '../../shared/agent-messages';
import type { JobState, TrackingEventView } from '../../shared/domain';
import type { BookingNotice } from './booking-notice';
import { IntakeStore, type PendingBooking, type ScanMatch, type SeenShipment } from './intake-store';
import type { JobPatch, JobRecord, JobSpec } from './job-record';
import { JobRepository } from './job-repository';
import { BatchRepository, type BatchSpec, type BatchState } from './batch-repository';
import type { JobSearch } from './job-search';
import { ShipmentCancels, type ShipmentCancel } from './shipment-cancels';
import { openLedgerFile, type LedgerFile, type LedgerFileOptions } from './ledger-file';

export type { JobSearch } from './job-search';

export interface RetentionOptions {
  /** Finished jobs, webhook message ids and tracking older than this are removed. @default 90 */
  readonly maxAgeDays?: number;
  /** At most this many finished jobs are kept (the oldest go first). @default 200_000 */
  readonly maxRows?: number;
}

export interface LedgerOptions extends LedgerFileOptions {
  /** Retention applied at open and then every `pruneIntervalMs`. */
  readonly retention?: RetentionOptions;
  /** @default 86_400_000 (daily); 0 = only at open */
  readonly pruneIntervalMs?: number;
}

export interface PruneResult {
  readonly jobs: number;
  readonly messages: number;
  readonly tracking: number;
  readonly shipments: number;
}

/**
 * The durable ledger as the agent holds it: one SQLite file (ledger-file.ts) shared by
 * the job repository (job-repository.ts) and the intake store (intake/intake-store.ts),
 * plus the retention that prunes both in one transaction. A thin facade: every other method
 * hands over to one of the two. It stays because one handle is what the agent, the bench
 * and some thirty tests open and close (and what other branches add queries to); code that
 * needs one side only takes `jobs` or `intake`, or the narrow port it satisfies.
 */
export class Ledger {
  readonly jobs: JobRepository;
  readonly batches: BatchRepository;
  readonly intake: IntakeStore;
  /** Canceled shipments (migration 6): what End of day and report count as canceled. */
  readonly cancels: ShipmentCancels;
  /** The data directory holding the file (what an error tells the user to check). */
  readonly dir: string;
  /** This ledger replaced a damaged one moved aside (see LedgerFile.recovered). */
  readonly recovered: boolean;
  private readonly file: LedgerFile;
  private readonly now: () => Date;
  private readonly retention: Required<RetentionOptions>;
  private pruneTimer: NodeJS.Timeout | null = null;
  /** Made once: db.transaction(fn) builds four wrapper functions at each call. */
  private readonly inTransaction: <T>(fn: () => T) => T;

  static open(options: LedgerOptions): Ledger {
    return new Ledger(options);
  }

  private constructor(options: LedgerOptions) {
    this.now = options.now ?? (() => new Date());
    this.file = openLedgerFile(options);
    this.dir = this.file.dir;
    this.recovered = this.file.recovered;
    this.jobs = new JobRepository(this.file.db, this.now, this.dir);
    this.batches = new BatchRepository(this.file.db, this.now);
    this.intake = new IntakeStore(this.file.db, this.now);
    this.cancels = new ShipmentCancels(this.file.db, this.now);
    this.inTransaction = this.file.db.transaction((fn: () => unknown) => fn()) as <T>(fn: () => T) => T;
    this.retention = { maxAgeDays: options.retention?.maxAgeDays ?? 90, maxRows: options.retention?.maxRows ?? 200_000 };
    this.prune();
    const interval = options.pruneIntervalMs ?? 86_400_000;
    if (interval > 0) {
      this.pruneTimer = setInterval(() => this.prune(), interval);
      this.pruneTimer.unref();
    }
  }

  // ---- batches (batch-repository.ts) ---------------------------------------------------

  claimBatch(spec: BatchSpec): boolean {
    return this.batches.claimBatch(spec);
  }
  batchState(id: string, state: BatchState, spoolerJobId: string | null = null): void {
    this.batches.batchState(id, state, spoolerJobId);
  }
  dissolveBatch(id: string): void {
    this.batches.dissolveBatch(id);
  }

  // ---- jobs (job-repository.ts) --------------------------------------------------------

  createAutoJob(spec: JobSpec): { job: JobRecord; created: boolean } {
    return this.jobs.createAutoJob(spec);
  }
  createJob(spec: JobSpec): JobRecord {
    return this.jobs.createJob(spec);
  }
  transition(id: string, state: JobState, patch: JobPatch = {}): JobRecord {
    return this.jobs.transition(id, state, patch);
  }
  get(id: string): JobRecord | null {
    return this.jobs.get(id);
  }
  search(query: JobSearch = {}): JobRecord[] {
    return this.jobs.search(query);
  }
  inFlight(): JobRecord[] {
    return this.jobs.inFlight();
  }
  jobsCreatedSince(isoTime: string): JobRecord[] {
    return this.jobs.createdSince(isoTime);
  }
  jobsForShipment(shipmentId: string): JobRecord[] {
    return this.jobs.forShipment(shipmentId);
  }
  open(): JobRecord[] {
    return this.jobs.open();
  }
  pending(target: string): JobRecord[] {
    return this.jobs.pending(target);
  }
  counts(): Record<JobState, number> {
    return this.jobs.counts();
  }
  totalJobs(): number {
    return this.jobs.totalJobs();
  }
  holdAutoJobs(): JobRecord[] {
    return this.jobs.holdAutoJobs();
  }
  releaseHeld(): JobRecord[] {
    return this.jobs.releaseHeld();
  }
  pausedScopes(): string[] {
    return this.jobs.pausedScopes();
  }
  setPaused(scope: string, paused: boolean): void {
    this.jobs.setPaused(scope, paused);
  }
  probeWrite(): void {
    this.jobs.probeWrite();
  }

  // ---- intake (intake-store.ts) --------------------------------------------------------

  rememberMessage(messageId: string): boolean {
    return this.intake.rememberMessage(messageId);
  }
  rememberBooking(messageId: string, notice: BookingNotice, data: unknown): boolean {
    return this.intake.rememberBooking(messageId, notice, data);
  }
  deferPendingBooking(shipmentId: string, nextAttemptAt: string, reason: AgentMessage): void {
    this.intake.deferPendingBooking(shipmentId, nextAttemptAt, reason);
  }
  removePendingBooking(shipmentId: string): void {
    this.intake.removePendingBooking(shipmentId);
  }
  pendingBookings(): PendingBooking[] {
    return this.intake.pendingBookings();
  }
  upsertShipment(shipment: SeenShipment): void {
    this.intake.upsertShipment(shipment);
  }
  shipmentsWithoutParcels(limit: number): string[] {
    return this.intake.shipmentsWithoutParcels(limit);
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

  // ---- canceled shipments (shipment-cancels.ts) ---------------------------------------

  recordCancel(cancel: Parameters<ShipmentCancels['record']>[0]): boolean {
    return this.cancels.record(cancel);
  }
  cancelOf(shipmentId: string): ShipmentCancel | null {
    return this.cancels.get(shipmentId);
  }

  // ---- both ----------------------------------------------------------------------------

  /**
   * Remove finished jobs older than `maxAgeDays` or beyond `maxRows`, plus webhook message
   * ids, tracking events and seen shipments older than the age. Unfinished jobs stay.
   */
  prune(options: RetentionOptions = {}): PruneResult {
    const maxAgeDays = options.maxAgeDays ?? this.retention.maxAgeDays;
    const maxRows = options.maxRows ?? this.retention.maxRows;
    const cutoff = new Date(this.now().getTime() - maxAgeDays * 86_400_000).toISOString();
    return this.transaction(() => {
      const jobs = this.jobs.prune(cutoff, maxRows);
      this.batches.prune();
      this.cancels.prune(cutoff);
      return { jobs, ...this.intake.prune(cutoff) };
    });
  }

  /** Run several ledger calls in one transaction (one commit for a batch). */
  transaction<T>(fn: () => T): T {
    return this.inTransaction(fn);
  }

  close(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
    this.file.close();
  }
}
