import type { AgentMessage } from '../../shared/agent-messages';
import type { LabelLayout, PrinterMedia } from '../../shared/domain';
import type { PrinterKind } from '../../shared/printer-kinds';

/** One document handed to a printer target. */
export interface SpoolRequest {
  /** The ledger's job id; carried in the spooler job title so a restart can find it. */
  readonly jobId: string;
  /** Spooler job title; always contains `jobId`. */
  readonly title: string;
  /** The PDF; null for targets that print on the service side (`needsPdf` false). */
  readonly pdf: Uint8Array | null;
  /** 4x6 label stock or A4: decides media and scaling options. */
  readonly media: PrinterMedia;
  readonly copies: number;
  readonly shipmentId: string;
  /** The shipment's reference (an order number): a folder names its file by it too, so a person finds it. @default none */
  readonly reference?: string | null;
  readonly documentType: string;
  readonly layout: LabelLayout;
}

/**
 * `lost`: the spooler ended the job without the printer having said it finished it (CUPS
 * `cups-ipp-missing-job-history`: the printer restarted mid-job and forgot it). The label
 * may or may not have come out: a person checks, nothing is sent again by itself.
 */
export type SpoolerJobState = 'pending' | 'printing' | 'completed' | 'aborted' | 'canceled' | 'lost' | 'unknown';

export interface SpoolResult {
  /** The spooler's own job id (CUPS `queue-123`), a file path, or the service's output_url. */
  readonly spoolerJobId: string | null;
  /** True when the target is done as soon as spool() returns (folder, service, windows: nothing more can be followed). */
  readonly completed: boolean;
  /**
   * Words kept on a job that stays `spooled` without being followed (a raw ZPL device that
   * cannot report its state: sent, not known printed). @default null
   */
  readonly note?: string | null;
}

export interface Readiness {
  readonly ready: boolean;
  /** Why not, in words that say what to do ("queue Zebra is disabled: cupsenable Zebra"). */
  readonly detail: string | null;
  /** `detail` as a message code, for the UI's languages; absent or null when it has none. */
  readonly message?: AgentMessage | null;
}

/** A printer that is not ready because of `problem`: its English, and its message code when it has one. */
export function notReady(problem: { readonly message: string; readonly agentMessage: AgentMessage | null }): Readiness {
  return problem.agentMessage
    ? { ready: false, detail: problem.message, message: problem.agentMessage }
    : { ready: false, detail: problem.message };
}

/**
 * A place documents print to, addressed by a printer URI (docs/INTERFACES.md):
 * `cups:QUEUE[@HOST:PORT]`, `windows:NAME`, `folder:DIR`, `service:PRINTER_ID`. Each kind's
 * parser and factory are in printer-kinds.ts.
 */
export interface PrinterTarget {
  readonly uri: string;
  readonly kind: PrinterKind;
  /** False when the service prints for us (`output_format: printer`). */
  readonly needsPdf: boolean;
  /**
   * False when findSpooled() cannot see the spooler (service, windows): it then always
   * resolves null, and a job caught mid-spool by a crash cannot be told apart from one that
   * was never sent. Absent means true.
   */
  readonly reconcilable?: boolean;
  /** Hand one document to the spooler. Throws PrintError. */
  spool(request: SpoolRequest): Promise<SpoolResult>;
  /** Follow a job handed over earlier. */
  jobState(spoolerJobId: string): Promise<SpoolerJobState>;
  /**
   * Optional: the states of many jobs handed over earlier, in as few spooler requests as the
   * target can (CUPS: one Get-Jobs per queue instead of one request per job), so following a
   * burst of hundreds of jobs does not load the spooler with hundreds of requests a tick.
   * Each id maps to what jobState would answer for it ('unknown' when the spooler no longer
   * knows the job). Throws (like jobState) when the spooler cannot be asked.
   */
  jobStates?(spoolerJobIds: readonly string[]): Promise<ReadonlyMap<string, SpoolerJobState>>;
  /**
   * After a crash: find a job this agent spooled earlier by the ledger job id in its title.
   * Null when the spooler has no such job (then it is safe to spool it again).
   */
  findSpooled(jobId: string): Promise<{ readonly spoolerJobId: string; readonly state: SpoolerJobState } | null>;
  /**
   * Optional: withdraw a job handed over earlier while the spooler still holds it (pending or
   * held, not yet printing): true once the spooler has it canceled; false when it is printing,
   * done, or unknown there (the label may be out: a person takes it off). Throws when the
   * spooler cannot be asked. Absent: a job at the spooler cannot be withdrawn.
   */
  cancelJob?(spoolerJobId: string): Promise<boolean>;
  /**
   * Whether the printer can print now. With `media` (the media the printer is configured
   * for: Settings, start-up) a printer that can say which media it takes and lacks this one
   * is not ready either, saying what it offers.
   */
  readiness(media?: PrinterMedia): Promise<Readiness>;
  /**
   * Optional: the printer's own words about a job it ended aborted, canceled or lost
   * ("Printer cannot print with supplied options"), as heard in the answer that ended it
   * (no further request); null when it said nothing. Read once: the words are then forgotten.
   */
  jobMessage?(spoolerJobId: string): string | null;
  /**
   * Optional: what holds up a job still at the spooler, in the printer's words ("cannot be
   * reached … The printer may not exist or is unavailable at this time."), as heard in the
   * last answer about it; null when nothing does.
   */
  jobNote?(spoolerJobId: string): string | null;
}
