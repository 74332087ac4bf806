import { parseAgentMessage, type AgentMessage } from '../../shared/agent-messages';
import type { JobSiteDecision, JobState, JobTrigger, JobView, LabelLayout } from '../../shared/domain';

/** States in which a job is done for good (until a manual retry). */
export const FINISHED_STATES: readonly JobState[] = ['completed', 'failed', 'canceled'];
/** States in which the job is between the ledger and the printer. */
export const IN_FLIGHT_STATES: readonly JobState[] = ['fetching', 'spooling', 'spooled'];
/** Triggers of automatic jobs (held while automatic printing is paused). */
export const AUTO_TRIGGERS: readonly JobTrigger[] = ['webhook', 'poll'];

/** A ledger row: the JobView the UI sees, plus what the queue needs to resume it. */
export interface JobRecord extends JobView {
  /** Creation order: breaks ties between jobs booked at the same time in a lane (lane.ts). */
  readonly seq: number;
  readonly idempotencyKey: string | null;
  readonly bookedAt: string | null;
  /** When a job waiting after a transient failure may run again. */
  readonly nextAttemptAt: string | null;
  /** An automatic job recorded while automatic printing was paused. */
  readonly held: boolean;
  /** spool() was called at least once: look the job up at the spooler before resending. */
  readonly spoolAttempted: boolean;
  /** The batch (jobs/batching.ts) the job was fetched and spooled in; looked up by its id after a crash. Absent = none. */
  readonly batchId?: string | null;
}

export interface JobSpec {
  readonly shipmentId: string;
  readonly reference?: string | null;
  readonly trackingId?: string | null;
  readonly documentType: string;
  readonly layout: LabelLayout;
  /** Printer URI. */
  readonly target: string;
  readonly copies?: number;
  readonly trigger: JobTrigger;
  readonly bookedAt?: string | null;
  readonly held?: boolean;
  /** The site's decision that sent the booking here (`--site`). @default none */
  readonly siteDecision?: JobSiteDecision | null;
}

/** Fields a transition may change; `undefined` keeps the stored value. */
export interface JobPatch {
  /**
   * A message code (the pipeline writes only these, ledger-guard.ts) is stored with its English
   * text; a plain string (older callers, tests) is stored as text without a code.
   */
  readonly reason?: AgentMessage | string | null;
  readonly requestId?: string | null;
  readonly attempts?: number;
  /** Count one more attempt (ignored when `attempts` is given). */
  readonly incrementAttempts?: boolean;
  readonly spoolerJobId?: string | null;
  readonly nextAttemptAt?: string | null;
  readonly held?: boolean;
  readonly spoolAttempted?: boolean;
  /**
   * Set or clear the batch. Undefined keeps it, except that a job queued again without a
   * spool attempt leaves its batch (nothing of the batch can be at the spooler for it).
   */
  readonly batchId?: string | null;
  /**
   * Moves the job to another printer (fallback from a stopped label printer), fetched again in
   * `layout`. The idempotency key stays: a later notice of the same booking finds this job.
   */
  readonly target?: string;
  readonly layout?: LabelLayout;
}

/** The idempotency key of an automatic job: printed at most once, however it arrived. */
export function autoJobKey(spec: Pick<JobSpec, 'shipmentId' | 'documentType' | 'layout' | 'target'>): string {
  return [spec.shipmentId, spec.documentType, spec.layout, spec.target].join('|');
}

export interface JobRow {
  seq: number;
  id: string;
  shipment_id: string;
  reference: string | null;
  tracking_id: string | null;
  document_type: string;
  layout: string;
  target: string;
  copies: number;
  trigger: string;
  state: string;
  reason: string | null;
  /** JSON of the reason's AgentMessage (migration 5); null on older rows and plain-text reasons. */
  reason_message?: string | null;
  request_id: string | null;
  attempts: number;
  spooler_job_id: string | null;
  idempotency_key: string | null;
  booked_at: string | null;
  created_at: string;
  updated_at: string;
  next_attempt_at: string | null;
  held: number;
  spool_attempted: number;
  batch_id: string | null;
  /** JSON of the JobSiteDecision (migration 7); null outside a site. */
  site_decision?: string | null;
}

export function rowToRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    shipmentId: row.shipment_id,
    reference: row.reference,
    trackingId: row.tracking_id,
    documentType: row.document_type,
    layout: row.layout as LabelLayout,
    target: row.target,
    copies: row.copies,
    trigger: row.trigger as JobTrigger,
    state: row.state as JobState,
    reason: row.reason,
    ...withReasonMessage(row.reason === null ? null : parseAgentMessage(row.reason_message)),
    requestId: row.request_id,
    attempts: row.attempts,
    spoolerJobId: row.spooler_job_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    seq: row.seq,
    idempotencyKey: row.idempotency_key,
    bookedAt: row.booked_at,
    nextAttemptAt: row.next_attempt_at,
    held: row.held === 1,
    spoolAttempted: row.spool_attempted === 1,
    batchId: row.batch_id ?? null,
    ...withSiteDecision(parseSiteDecision(row.site_decision)),
  };
}

/** The stored decision, or null when absent or unreadable (a history line is not worth a failure). */
export function parseSiteDecision(text: string | null | undefined): JobSiteDecision | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as JobSiteDecision;
    return typeof value === 'object' && value !== null && typeof value.station === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** `siteDecision` only when there is one: views outside a site keep their shape. */
export function withSiteDecision(decision: JobSiteDecision | null | undefined): { siteDecision?: JobSiteDecision } {
  return decision ? { siteDecision: decision } : {};
}

/** Strip the queue's bookkeeping: what crosses to the UI. */
export function toJobView(job: JobRecord): JobView {
  return {
    id: job.id,
    shipmentId: job.shipmentId,
    reference: job.reference,
    trackingId: job.trackingId,
    documentType: job.documentType,
    layout: job.layout,
    target: job.target,
    copies: job.copies,
    trigger: job.trigger,
    state: job.state,
    reason: job.reason,
    ...withReasonMessage(job.reasonMessage ?? null),
    requestId: job.requestId,
    attempts: job.attempts,
    spoolerJobId: job.spoolerJobId,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    ...withSiteDecision(job.siteDecision),
  };
}

/** `reasonMessage` only when there is one: rows and views without a code keep their old shape. */
export function withReasonMessage(message: AgentMessage | null): { reasonMessage?: AgentMessage } {
  return message ? { reasonMessage: message } : {};
}
