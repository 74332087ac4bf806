import type { JobView, LabelLayout, PrinterMedia } from '../../shared/domain';
import type { JobError } from '../ledger/errors';
import {
  mediaForLayout,
  type PdfFetcher,
  type PipelineLedger,
  type PipelineObserver,
  type PipelineTarget,
  type RouteDecision,
} from './ports';
import { JOB_FETCH, LEDGER } from '../retry/policies';

/*
 * What a PrintPipeline is configured with, and the defaults it fills in: kept apart from the
 * queue so the options and their documented defaults are read in one place, and so the
 * modules the pipeline is built from share one resolved settings type.
 */

/** Shipments per batch unless told otherwise: batching is on. */
export const BATCH_MAX_DEFAULT = 25;
/** The most shipments one batch may hold, whatever is asked. */
export const BATCH_MAX_LIMIT = 25;
/**
 * 8 MiB: 25 carrier labels (50–300 kB each) fit well under it, so it bites only on heavy
 * documents (many-page customs invoices, shipments of hundreds of parcels); a lane holds at
 * most `lookahead` batches in memory, so this keeps a lane's PDFs to tens of MB at worst.
 */
export const BATCH_MAX_BYTES_DEFAULT = 8 * 1024 * 1024;

export interface PrintPipelineOptions {
  readonly ledger: PipelineLedger;
  /** Fetches PDFs (`ServiceClient` satisfies it). */
  readonly fetcher: PdfFetcher;
  /** The target for a printer URI; the caller caches targets. */
  readonly targetFor: (uri: string) => PipelineTarget;
  /** Where a document type (of a carrier, code or name, when known) prints and in which layout (routing rules). */
  readonly route: (documentType: string, carrier?: string | null) => RouteDecision;
  /** The media a job in `layout` is printed on at printer `target`. @default mediaForLayout(layout) (4x6 label or A4) */
  readonly mediaFor?: (target: string, layout: LabelLayout) => PrinterMedia;
  /** Document types printed automatically after a booking. @default () => ['label'] */
  readonly autoPrintTypes?: () => readonly string[];
  /** Copies per automatic job and default for reprints. @default () => 1 */
  readonly copies?: () => number;
  /** PDFs fetched concurrently, across all targets. @default 4 */
  readonly fetchConcurrency?: number;
  /** Per target, how many jobs from the head may be fetched ahead (bounds PDFs held in memory). @default 8 */
  readonly lookahead?: number;
  /**
   * Most shipments fetched with one print call and spooled as one job (jobs/batching.ts),
   * from the consecutive jobs already waiting in a line (cups and windows targets only).
   * 1 prints every job alone, as before batching; at most 25. @default 25
   */
  readonly batchMax?: number;
  /**
   * Bytes a batch's PDF is expected to stay under (batch-bytes.ts): a batch holds at most
   * this many bytes divided by the bytes per shipment seen so far for its document type and
   * layout, and a shipment that big alone goes alone. Bounds the PDFs held in memory and sent
   * to the spooler in one job. @default 8 MiB (BATCH_MAX_BYTES_DEFAULT)
   */
  readonly batchMaxBytes?: number;
  /**
   * A line with nothing in flight sends its first label alone (its first sheet on a sheet
   * layout) before it batches what waits behind it, so the first label of a burst is not
   * held up by rendering a batch of the webhooks read with it. Tests that build a batch from
   * jobs submitted at once turn it off. @default true
   */
  readonly firstAlone?: boolean;
  /** Tries before a transient failure becomes a failed job. @default 8 */
  readonly maxAttempts?: number;
  /** @default 500 */
  readonly retryBaseMs?: number;
  /** @default 30000 */
  readonly retryMaxMs?: number;
  /** Poll target.jobState until the spooler says completed or aborted. @default true */
  readonly followSpooler?: boolean;
  /** @default 500 */
  readonly followIntervalMs?: number;
  /**
   * After a crash, how long after a job entered `spooling` the spooler is first asked about
   * it: an lp started by the killed process can outlive it and create its job a moment later.
   * @default 2000
   */
  readonly reconcileSettleMs?: number;
  /**
   * A job that waited this long since its shipment was last known booked (its PDF fetched,
   * or, for a printer that needs none, since it was queued) asks the service again before it
   * is spooled: one request, one list call for a batch (cancel-check.ts). A shipment canceled
   * meanwhile (the web application, another station) ends the job `canceled`, unprinted.
   * 0 checks before every spool. @default 3000
   */
  readonly recheckAfterMs?: number;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** Jitter source, in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** Every change of a job (state, reason): the agent logs it and pushes it to the UI. */
  readonly onJobChange?: (job: JobView) => void;
  /**
   * A ledger write failed during background work (LEDGER_WRITE_FAILED: disk full, I/O
   * error, read-only, locked). Printing waits and the write is retried with backoff.
   * @default logs the message with console.error
   */
  readonly onError?: (error: JobError) => void;
  /**
   * The ledger takes writes again after onError told of LEDGER_WRITE_FAILED: the lines run
   * again by themselves (the agent clears the error from its status). @default nothing
   */
  readonly onLedgerBack?: () => void;
  /** First wait before a failed ledger write is tried again; doubles up to ledgerRetryMaxMs. @default 1000 */
  readonly ledgerRetryBaseMs?: number;
  /** @default 30000 */
  readonly ledgerRetryMaxMs?: number;
}

export interface ReprintRequest {
  readonly shipmentId: string;
  /** @default 'label' */
  readonly documentType?: string;
  readonly layout?: LabelLayout;
  /** Printer URI; defaults to the routed printer. */
  readonly printer?: string;
  readonly copies?: number;
  /** @default 'reprint' */
  readonly trigger?: 'reprint' | 'scan' | 'manual';
  readonly reference?: string | null;
  readonly trackingId?: string | null;
}

/** The tunables with their defaults filled in (the ports and listeners are used as given). */
export type PipelineSettings = Required<
  Omit<PrintPipelineOptions, 'onJobChange' | 'onError' | 'onLedgerBack' | 'ledger' | 'fetcher' | 'targetFor' | 'route'>
>;

export function resolveSettings(options: PrintPipelineOptions): PipelineSettings {
  return {
    autoPrintTypes: options.autoPrintTypes ?? (() => ['label']),
    mediaFor: options.mediaFor ?? ((_target, layout) => mediaForLayout(layout)),
    copies: options.copies ?? (() => 1),
    fetchConcurrency: Math.max(1, options.fetchConcurrency ?? 4),
    lookahead: Math.max(1, options.lookahead ?? 8),
    batchMax: Math.min(BATCH_MAX_LIMIT, Math.max(1, Math.floor(options.batchMax ?? BATCH_MAX_DEFAULT))),
    batchMaxBytes: Math.max(1, options.batchMaxBytes ?? BATCH_MAX_BYTES_DEFAULT),
    firstAlone: options.firstAlone ?? true,
    maxAttempts: Math.max(1, options.maxAttempts ?? JOB_FETCH.maxAttempts),
    retryBaseMs: options.retryBaseMs ?? JOB_FETCH.baseMs,
    retryMaxMs: options.retryMaxMs ?? JOB_FETCH.maxMs,
    followSpooler: options.followSpooler ?? true,
    followIntervalMs: options.followIntervalMs ?? 500,
    reconcileSettleMs: options.reconcileSettleMs ?? 2000,
    recheckAfterMs: Math.max(0, options.recheckAfterMs ?? 3000),
    ledgerRetryBaseMs: Math.max(1, options.ledgerRetryBaseMs ?? LEDGER.baseMs),
    ledgerRetryMaxMs: Math.max(1, options.ledgerRetryMaxMs ?? LEDGER.maxMs),
    now: options.now ?? (() => new Date()),
    random: options.random ?? Math.random,
  };
}

/** The listeners as one observer: a listener's bug must not stall printing. */
export function observerFrom(options: Pick<PrintPipelineOptions, 'onJobChange' | 'onError' | 'onLedgerBack'>): PipelineObserver {
  return {
    onJobChange(job) {
      try {
        options.onJobChange?.(job);
      } catch {
        // ignored: see above
      }
    },
    onError(error) {
      try {
        if (options.onError) options.onError(error);
        else console.error(`${error.code}: ${error.message}`);
      } catch {
        // ignored: see above
      }
    },
    onLedgerBack() {
      try {
        options.onLedgerBack?.();
      } catch {
        // ignored: see above
      }
    },
  };
}
