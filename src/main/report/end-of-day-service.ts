/**
 * Builds the end-of-day report from the live parts (the ledger, the service's list, the
 * station rules) and carries out its two actions: print what is missing, print the
 * manifests. Both go through the print pipeline as automatic jobs, whose idempotency (one
 * per shipment and document type) makes a second click, or a webhook arriving meanwhile,
 * print nothing twice; a failed label is retried as the same job, never copied.
 */
import type { EndOfDayPrintResult, EndOfDayReport, JobView, StationRules } from '../../shared/domain';
import { toErrorPayload } from '../errors';
import type { BookingNotice } from '../ledger/booking-notice';
import type { IntakeLogger, ShipmentSourcePort } from '../intake/ports';
import type { SeenShipment } from '../ledger/intake-store';
import type { JobRecord } from '../ledger/job-record';
import { dayWindow } from './day-window';
import { buildEndOfDay, type ListedBooking } from './end-of-day';
import { printIfMissing, type MissingTally } from './missing-document';
import { listBookingsOfDay } from './service-bookings';

/** Jobs created this long before the day still concern it (a clock that was off, a late night). */
const JOBS_BEFORE_DAY_MS = 24 * 3_600_000;

export interface EndOfDayLedger {
  jobsCreatedSince(isoTime: string): JobRecord[];
  jobsForShipment(shipmentId: string): JobRecord[];
  getShipment(shipmentId: string): SeenShipment | null;
  /** The shipment's cancel as the ledger holds it (migration 6). */
  cancelOf(shipmentId: string): { readonly source: 'station' | 'service' } | null;
  /** Records a cancel the service's list shows, so a later report from the ledger alone agrees. */
  recordCancel(cancel: { shipmentId: string; source: 'service' }): boolean;
}

/** The pipeline, as far as the report's actions use it. */
export interface EndOfDayPipeline {
  submitBooking(notice: BookingNotice, documentTypes?: readonly string[]): JobView[];
  retry(jobId: string): JobView;
}

export interface EndOfDayDeps {
  readonly ledger: EndOfDayLedger;
  /** The service; null when no account is connected (the report is then the ledger's alone). */
  readonly shipments: ShipmentSourcePort | null;
  readonly stationRules: () => StationRules;
  readonly logger: IntakeLogger;
  /** @default () => new Date() */
  readonly now?: () => Date;
}

export async function endOfDayReport(day: string, deps: EndOfDayDeps): Promise<EndOfDayReport> {
  const window = dayWindow(day);
  const now = deps.now?.() ?? new Date();
  let listed: Awaited<ReturnType<typeof listBookingsOfDay>> | null = null;
  let serviceError: EndOfDayReport['serviceError'] = null;
  if (deps.shipments) {
    try {
      listed = await listBookingsOfDay(window, { shipments: deps.shipments, logger: deps.logger });
    } catch (error) {
      serviceError = toErrorPayload(error);
      deps.logger.warn(
        `end of day: the service's list of shipments could not be read (${serviceError.message}); the report shows the station's ledger only`,
      );
    }
  } else {
    const message = "No service account connected: the report shows the station's ledger only.";
    serviceError = { code: 'NOT_CONNECTED', message, requestId: null };
  }
  const jobs = deps.ledger.jobsCreatedSince(new Date(window.start.getTime() - JOBS_BEFORE_DAY_MS).toISOString());
  rememberListedCancels(listed, jobs, deps);
  return buildEndOfDay({
    window,
    listed,
    serviceError,
    jobs,
    seen: (id) => deps.ledger.getShipment(id),
    canceled: (id) => deps.ledger.cancelOf(id),
    rules: deps.stationRules(),
    now,
  });
}

/**
 * A shipment of this station's the service lists as CANCELED goes into the ledger's cancels:
 * the next report, after a restart or without the service, says the same.
 */
function rememberListedCancels(listed: readonly ListedBooking[] | null, jobs: readonly JobRecord[], deps: EndOfDayDeps): void {
  const own = new Set(jobs.map((j) => j.shipmentId.toLowerCase()));
  for (const { shipment } of listed ?? []) {
    if ((shipment.status ?? '').toUpperCase() !== 'CANCELED' || !own.has(shipment.id.toLowerCase())) continue;
    try {
      if (!deps.ledger.cancelOf(shipment.id)) deps.ledger.recordCancel({ shipmentId: shipment.id, source: 'service' });
    } catch (error) {
      deps.logger.warn(
        `end of day: the cancel of shipment ${shipment.id} could not be recorded in the ledger: ${(error as Error).message}`,
      );
    }
  }
}

/** Queues the label of every booking not printed and retries every failed one; then reports again. */
export type EndOfDayActionDeps = EndOfDayDeps & { readonly pipeline: EndOfDayPipeline };

export async function printMissing(day: string, deps: EndOfDayActionDeps): Promise<EndOfDayPrintResult> {
  const before = await endOfDayReport(day, deps);
  const tally: MissingTally = { queued: 0, retried: 0, waiting: 0 };
  for (const row of before.rows) {
    if (row.state !== 'not_printed' && row.state !== 'failed') continue;
    printIfMissing(
      {
        own: deps.ledger.jobsForShipment(row.shipmentId).filter((j) => j.documentType === 'label'),
        retry: (id) => deps.pipeline.retry(id),
        submit: () => deps.pipeline.submitBooking(noticeOf(row), ['label'])[0],
      },
      tally,
    );
  }
  const { queued, retried, waiting } = tally;
  deps.logger.info(`end of day ${day}: print what is missing: ${queued} queued, ${retried} retried, ${waiting} already waiting`);
  return { queued, retried, waiting, report: await endOfDayReport(day, deps) };
}

/** Queues the manifest of every shipment of the day the service offers one for (once each). */
export async function printManifests(day: string, deps: EndOfDayActionDeps): Promise<EndOfDayPrintResult> {
  const before = await endOfDayReport(day, deps);
  let queued = 0;
  let waiting = 0;
  for (const row of before.rows) {
    if (!row.manifest || row.state === 'canceled') continue;
    const had = deps.ledger.jobsForShipment(row.shipmentId).some((j) => j.documentType === 'manifest');
    deps.pipeline.submitBooking(noticeOf(row), ['manifest']);
    if (had) waiting++;
    else queued++;
  }
  deps.logger.info(`end of day ${day}: manifests: ${queued} queued, ${waiting} already printed or waiting`);
  return { queued, retried: 0, waiting, report: await endOfDayReport(day, deps) };
}

function noticeOf(row: EndOfDayReport['rows'][number]): BookingNotice {
  return {
    shipmentId: row.shipmentId,
    referenceId: row.reference,
    trackingId: row.trackingId,
    carrier: row.carrier,
    source: null,
    senderReference: null,
    system: null,
    bookedAt: row.bookedAt,
    trigger: 'poll',
  };
}
