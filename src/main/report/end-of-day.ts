/**
 * The end-of-day report, as a pure function of what the service lists
 * and what the ledger holds, so every rule below is tested without a clock or a network.
 *
 * Which bookings are the day's: those the service lists as booked (or canceled) within the
 * day that this station's rules print, or that the station printed a label for anyway (a
 * scan, a reprint), plus those the ledger holds an automatic job for (webhook, poll, or a
 * pack-and-ship booking made here, printed or not), booked within the day (a service list that cannot be read, or lags, still leaves the station's own view).
 * A booking only the service knows shows as "not printed": the station never heard of it.
 *
 * Where one stands is read from its label jobs, in this order: canceled (the service lists
 * it CANCELED, or the ledger holds its cancel: this station's own "Cancel shipment", or one the
 * service reported, so a restart or a list that cannot be read keeps it canceled); printed (any label job completed); may have printed (spooled, or failed "may have
 * printed"); not printed but waiting (queued, fetching, spooling); failed; canceled by hand;
 * not printed (no label job at all).
 */
import type { AgentErrorPayload, EndOfDayReport, EndOfDayRow, EndOfDayState, StationRules } from '../../shared/domain';
import { END_OF_DAY_STATES } from '../../shared/domain';
import { noticeFromShipment } from '../intake/booked-shipment';
import type { ShipmentRecord } from '../intake/ports';
import { toEpochNanos } from '../intake/timestamps';
import { matchesStationRules } from '../intake/station-rules';
import type { SeenShipment } from '../ledger/intake-store';
import { AUTO_TRIGGERS, type JobRecord } from '../ledger/job-record';
import {
  englishOf,
  plainMessage,
  agentMessage,
  REPORT_WAITING_STATES,
  type AgentMessage,
  type ReportWaitingState,
} from '../../shared/agent-messages';
import type { DayWindow } from './day-window';

/** A shipment from GET /shipments with its established booking time. */
export interface ListedBooking {
  readonly shipment: ShipmentRecord;
  readonly bookedAt: string;
}

export interface EndOfDayInputs {
  readonly window: DayWindow;
  /** The service's bookings of the day; null when the list could not be read. */
  readonly listed: readonly ListedBooking[] | null;
  readonly serviceError: AgentErrorPayload | null;
  /** Ledger jobs that may concern the day (created since shortly before it). */
  readonly jobs: readonly JobRecord[];
  /** The ledger's shipment index: source, carrier and reference a webhook brought. */
  readonly seen: (shipmentId: string) => SeenShipment | null;
  /** The ledger's record of the shipment's cancel (shipment-cancels.ts). @default none known */
  readonly canceled?: (shipmentId: string) => { readonly source: 'station' | 'service' } | null;
  readonly rules: StationRules;
  readonly now: Date;
}

const LABEL = 'label';
const MANIFEST = 'manifest';
const WAITING: ReadonlySet<string> = new Set(REPORT_WAITING_STATES);

export function buildEndOfDay(inputs: EndOfDayInputs): EndOfDayReport {
  const { window, listed, jobs } = inputs;
  const byShipment = new Map<string, JobRecord[]>();
  for (const job of jobs) {
    const key = job.shipmentId.toLowerCase();
    byShipment.set(key, [...(byShipment.get(key) ?? []), job]);
  }
  const jobsOf = (id: string): JobRecord[] => byShipment.get(id.toLowerCase()) ?? [];

  const rows = new Map<string, EndOfDayRow>();
  for (const { shipment, bookedAt } of listed ?? []) {
    const own = jobsOf(shipment.id);
    const labels = own.filter((j) => j.documentType === LABEL);
    if (!printsHere(inputs, shipment) && labels.length === 0) continue;
    const known = inputs.canceled?.(shipment.id)?.source ?? null;
    const canceled = known ?? ((shipment.status ?? '').toUpperCase() === 'CANCELED' ? 'service' : null);
    rows.set(shipment.id.toLowerCase(), {
      shipmentId: shipment.id,
      reference: shipment.reference_id ?? labels[0]?.reference ?? null,
      carrier: shipment.carrier_name ?? inputs.seen(shipment.id)?.carrier ?? null,
      trackingId: shipment.tracking_id ?? labels[0]?.trackingId ?? null,
      bookedAt,
      ...standing(labels, canceled, plainMessage('report.neverReached')),
      seenBy: own.length > 0 || inputs.seen(shipment.id) !== null ? 'both' : 'service',
      manifest: (shipment.available_documents_types ?? []).some((d) => d.toLowerCase() === MANIFEST),
    });
  }

  // The station's own bookings of the day: automatic jobs, dated by their booking time.
  for (const job of jobs) {
    if (!bookedHere(job) || rows.has(job.shipmentId.toLowerCase())) continue;
    if (!within(window, job.bookedAt ?? job.createdAt)) continue;
    const labels = jobsOf(job.shipmentId).filter((j) => j.documentType === LABEL);
    const seen = inputs.seen(job.shipmentId);
    rows.set(job.shipmentId.toLowerCase(), {
      shipmentId: job.shipmentId,
      reference: job.reference ?? seen?.referenceId ?? null,
      carrier: seen?.carrier ?? null,
      trackingId: job.trackingId ?? seen?.trackingId ?? null,
      bookedAt: job.bookedAt ?? seen?.bookedAt ?? null,
      ...standing(labels, inputs.canceled?.(job.shipmentId)?.source ?? null, plainMessage('report.onlyOtherDocument')),
      seenBy: 'station',
      manifest: false,
    });
  }

  const sorted = [...rows.values()].sort((a, b) => time(a.bookedAt) - time(b.bookedAt) || a.shipmentId.localeCompare(b.shipmentId));
  const counts = Object.fromEntries(END_OF_DAY_STATES.map((s) => [s, 0])) as Record<EndOfDayState, number>;
  for (const row of sorted) counts[row.state]++;
  const withManifest = sorted.filter((r) => r.manifest && r.state !== 'canceled');
  const manifestPrinted = (id: string): boolean => jobsOf(id).some((j) => j.documentType === MANIFEST && j.state === 'completed');
  const manifestsPrinted = withManifest.filter((r) => manifestPrinted(r.shipmentId)).length;
  return {
    day: window.day,
    generatedAt: inputs.now.toISOString(),
    counts: { booked: sorted.length, ...counts },
    rows: sorted,
    manifests: { available: withManifest.length, printed: manifestsPrinted },
    serviceError: inputs.serviceError,
  };
}

/**
 * A job for a booking: a webhook's or a poll's, or pack-and-ship's (trigger `scan`, but keyed
 * per shipment and document like the automatic ones, with its booking time). A scan-to-track
 * or Reprint copy (no key) is not a booking of the day.
 */
function bookedHere(job: JobRecord): boolean {
  return AUTO_TRIGGERS.includes(job.trigger) || (job.trigger === 'scan' && job.idempotencyKey !== null);
}

/** This station's rules print it; a source a webhook brought counts (a poll alone knows none). */
function printsHere(inputs: EndOfDayInputs, shipment: ShipmentRecord): boolean {
  const source = inputs.seen(shipment.id)?.source ?? null;
  return matchesStationRules(inputs.rules, { ...noticeFromShipment(shipment), source }).print;
}

export type Standing = Pick<EndOfDayRow, 'state' | 'detail' | 'detailMessage' | 'printedAt' | 'printer'>;

/** The detail from its code (English composed by englishOf), or a job's reason as stored (with its code when it has one). */
function detailOf(message: AgentMessage): Pick<Standing, 'detail' | 'detailMessage'> {
  return { detail: englishOf(message), detailMessage: message };
}

function reasonOf(job: JobRecord): Pick<Standing, 'detail' | 'detailMessage'> {
  return { detail: job.reason, ...(job.reasonMessage ? { detailMessage: job.reasonMessage } : {}) };
}

/**
 * Where one document of one shipment stands, from its jobs (oldest first). `canceled` says
 * where the shipment was canceled, if it was (null: booked).
 */
export function standing(labels: readonly JobRecord[], canceled: 'station' | 'service' | null, noJob: AgentMessage): Standing {
  const last = labels.at(-1);
  if (canceled) {
    const where = canceled === 'station' ? plainMessage('report.canceledAtStation') : plainMessage('report.canceledAtService');
    return { state: 'canceled', ...detailOf(where), printedAt: null, printer: last?.target ?? null };
  }
  // The latest print: after a reprint the parcel's summary says when paper last came out.
  const printed = labels.findLast((j) => j.state === 'completed');
  if (printed) return { state: 'printed', detail: null, printedAt: printed.updatedAt, printer: printed.target };
  const unsure = labels.find((j) => j.state === 'spooled' || (j.state === 'failed' && /may have printed/.test(j.reason ?? '')));
  if (unsure) {
    const detail = unsure.state === 'spooled' ? detailOf(plainMessage('report.atPrinter')) : reasonOf(unsure);
    return { state: 'may_have_printed', ...detail, printedAt: null, printer: unsure.target };
  }
  const waiting = labels.find((j) => WAITING.has(j.state));
  if (waiting) {
    const message = waiting.held
      ? plainMessage('report.held')
      : agentMessage('report.waiting', { state: waiting.state as ReportWaitingState });
    return { state: 'not_printed', ...detailOf(message), printedAt: null, printer: waiting.target };
  }
  const failed = labels.findLast((j) => j.state === 'failed');
  if (failed) return { state: 'failed', ...reasonOf(failed), printedAt: null, printer: failed.target };
  if (last?.state === 'canceled') {
    return { state: 'canceled', ...detailOf(plainMessage('report.canceledByHand')), printedAt: null, printer: last.target };
  }
  return { state: 'not_printed', ...detailOf(noJob), printedAt: null, printer: null };
}

/** Milliseconds of an RFC 3339 time (any fraction, any offset); NaN when unreadable. */
export function epochMs(text: string | null): number {
  const ns = text === null ? null : toEpochNanos(text);
  return ns === null ? NaN : Number(ns / 1_000_000n);
}

function within(window: DayWindow, text: string): boolean {
  const t = epochMs(text);
  return t >= window.start.getTime() && t < window.end.getTime();
}

function time(text: string | null): number {
  const t = epochMs(text);
  return Number.isFinite(t) ? t : Number.MAX_SAFE_INTEGER;
}
