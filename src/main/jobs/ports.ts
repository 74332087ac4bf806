import type { LabelLayout } from '../../shared/domain';
import type { PrinterTarget } from '../printing/target';
import type { JobSiteDecision, JobState, JobView } from '../../shared/domain';
import type { JobError } from '../ledger/errors';
import type { JobPatch, JobRecord, JobSpec } from '../ledger/job-record';

/**
 * The pipeline's ports: everything it talks to outside src/main/jobs, as structural types,
 * so it does not import the service client, the routing module or intake. `ServiceClient`
 * (src/main/api/client.ts) satisfies `PdfFetcher`; the agent's Ledger satisfies
 * `PipelineLedger`; create-agent.ts's target cache is behind `PrinterDirectory`.
 */
// A type alias, not an interface, so it stays assignable to the client's zod-inferred
// request type (which has an index signature).
export type PrintFileRequest = {
  readonly shipment_ids: string[];
  readonly document_type: string;
  readonly label_layout: LabelLayout;
};

export interface PdfFetcher {
  /**
   * POST /shipments/print with `output_format: file`. Throws ApiError. Tried once: the
   * pipeline owns a fetch's retries (retry/policies.ts JOB_FETCH), so a client under it is
   * built without retries of its own (`retries: JOB_FETCH.clientRetries`).
   */
  printFile(request: PrintFileRequest): Promise<{ pdf: Uint8Array; requestId: string | null }>;
  /**
   * The shipment's `available_documents_types` (GET /shipments/{id}). Optional: when
   * given, a 422 on an automatic job is checked against it to tell "this shipment has no
   * such document" from other refusals; without it the service's message is read.
   */
  availableDocuments?(shipmentId: string): Promise<readonly string[]>;
  /**
   * Which of these shipments the service now lists as CANCELED, all of them known booked at
   * `since`: GET /shipments/{id} for one, one GET /shipments?status=CANCELED for several.
   * Optional: without it a job that waited is spooled without asking (the station's own
   * cancels still stop it). Throws ApiError.
   */
  canceledAmong?(shipmentIds: readonly string[], since: Date): Promise<{ canceled: readonly string[]; requestId: string | null }>;
}

/**
 * Where a document type prints, and how, and the media that follows from a layout: the
 * routing module's own (one definition of each, src/main/printing/routing.ts).
 */
export { mediaForLayout, type Route as RouteDecision } from '../printing/routing';

/** A printer target; `reconcilable: false` ones cannot be looked up after a crash. */
export type PipelineTarget = PrinterTarget;

// ---- the ledger, as far as the pipeline uses it ----------------------------------------
// The agent's Ledger (src/main/ledger/ledger.ts) satisfies all three; its job repository
// (job-repository.ts) satisfies JobStore and PauseStore.

/** The pipeline's jobs: created, moved through their states, read back. */
export interface JobStore {
  /** The data directory holding the ledger (what a write error tells the user to check). */
  readonly dir: string;
  createAutoJob(spec: JobSpec): { job: JobRecord; created: boolean };
  createJob(spec: JobSpec): JobRecord;
  transition(id: string, state: JobState, patch?: JobPatch): JobRecord;
  get(id: string): JobRecord | null;
  /** Every unfinished job, in creation order. */
  open(): JobRecord[];
  /**
   * Runs `fn` in one transaction (nested calls join it); a throw rolls back everything `fn`
   * wrote. Optional: without it every write commits on its own.
   */
  transaction?<T>(fn: () => T): T;
  /**
   * A write that changes nothing (written and undone in one commit): whether the ledger takes
   * writes again after a failure, when nothing else waits to be written. Throws SQLite's error.
   * Optional: without it the next real write tells.
   */
  probeWrite?(): void;
}

/** Pauses ('*' = automatic printing, else a printer URI) and the automatic jobs they hold. */
export interface PauseStore {
  pausedScopes(): string[];
  setPaused(scope: string, paused: boolean): void;
  holdAutoJobs(): JobRecord[];
  releaseHeld(): JobRecord[];
}

/** The local shipment index (intake's): a reprint takes its reference and tracking id from it. */
export interface ShipmentLookup {
  getShipment(
    shipmentId: string,
  ): { readonly referenceId: string | null; readonly trackingId: string | null; readonly carrier?: string | null } | null;
}

/**
 * Batches (batch-repository.ts). Optional: a ledger without them never batches. Each call
 * is one transaction; claimBatch claims every member or none.
 */
export interface BatchStore {
  claimBatch?(spec: { id: string; target: string; documentType: string; layout: string; jobIds: readonly string[] }): boolean;
  batchState?(id: string, state: 'claimed' | 'spooling' | 'spooled' | 'dissolved', spoolerJobId?: string | null): void;
  dissolveBatch?(id: string): void;
}

/**
 * Canceled shipments (shipment-cancels.ts). Optional: without it only the jobs themselves
 * record a cancel, and nothing stops a later booking notice of the shipment.
 */
export interface CancelStore {
  recordCancel?(cancel: { shipmentId: string; source: 'station' | 'service'; requestId?: string | null }): boolean;
  cancelOf?(shipmentId: string): { readonly source: 'station' | 'service' } | null;
}

export type PipelineLedger = JobStore & PauseStore & ShipmentLookup & BatchStore & CancelStore;

/** A booking to print automatically (intake's BookingNotice satisfies it). */
export interface BookingToPrint {
  readonly shipmentId: string;
  readonly referenceId: string | null;
  readonly trackingId: string | null;
  /** RFC 3339; lanes order automatic jobs by it. */
  readonly bookedAt: string | null;
  readonly trigger: 'webhook' | 'poll' | 'scan';
  /** Carrier code (webhook) or name (poll); routing rules may match it. */
  readonly carrier?: string | null;
  /** Why the site sent it to this station (`--site`). @default none */
  readonly siteDecision?: JobSiteDecision | null;
}

/** The printers jobs go to, by URI: a target, or the error that says why there is none (yet). */
export interface PrinterDirectory {
  resolve(uri: string): PipelineTarget | Error;
}

/** Who hears what the pipeline does: every job row written, and failures it keeps working through. */
export interface PipelineObserver {
  onJobChange(job: JobView): void;
  /** A ledger write failed during background work; printing waits and retries. Told once per outage. */
  onError(error: JobError): void;
  /** The ledger takes writes again after onError: the lines run again. */
  onLedgerBack?(): void;
}
