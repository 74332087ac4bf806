import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { errorText } from './error-text';
import { readBody, TOO_LARGE } from '../http/read-body';
import type { AddressInfo } from 'node:net';
import type { TrackingEventView } from '../../shared/domain';
import type { BookingNotice } from './booking-notice';
import { ALERT_EVENTS, alertMessage, type TrackingAlert } from './alerts';
import { createBookingDispatcher, type DispatchResult } from './booking-dispatch';
import { parseWebhook, type ParsedWebhook } from './envelope';
import { BookingDeferredError, INTAKE_ERROR_CODES, IntakeConfigError } from './errors';
import {
  silentLogger,
  type BookingSinkPort,
  type IntakeLogger,
  type MessageLedgerPort,
  type ShipmentIndexPort,
  type ShipmentSourcePort,
  type StationRulesSource,
  type TrackingStorePort,
} from './ports';
import { ReorderBuffer } from './booking-reorder';
import { PendingDecisions, type DecisionRetryOptions, type PendingBookingPort } from './pending-decisions';
import { applyServerLimits, serverOptions, withDefaults, type ServerLimits } from './server-limits';
import { verifySignature, type SignatureFailure } from './signature';

/**
 * The signed webhook receiver (issue 4, part 1). Order of work per request, and why:
 * route and size first (cheap, before reading much), then the signature over the raw
 * bytes (nothing of an unsigned body is parsed or stored), then parse, dedupe by
 * message_id in the ledger, acknowledge, and only then process: the service wants a 2xx
 * within 3 s and a printer can take longer than that.
 */

export interface WebhookServerOptions {
  /** Bind address; set `0.0.0.0` or a LAN address only behind a reverse proxy. @default '127.0.0.1' */
  readonly host?: string;
  /** @default 0 (any free port) */
  readonly port?: number;
  /** @default '/webhooks' */
  readonly path?: string;
  /** Larger bodies are answered 413. @default 262144 (256 KiB) */
  readonly maxBodyBytes?: number;
  /** Every accepted signing secret (one per endpoint, plus old ones while rotating). */
  readonly secrets: readonly string[];
  /** @default 300 */
  readonly toleranceSeconds?: number;
  /** How long bookings are held to be released in booked_at order. @default 250 */
  readonly reorderWindowMs?: number;
  /**
   * Dedup and tracking store (the ledger); its `upsertShipment`, when present, indexes bookings
   * for scans, and its pending-booking methods keep each booking from before the 2xx until decided.
   */
  readonly ledger: MessageLedgerPort & TrackingStorePort & Partial<ShipmentIndexPort> & Partial<PendingBookingPort>;
  readonly sink: BookingSinkPort;
  readonly stationRules: StationRulesSource;
  /** Fetches sender_reference/system when station rules need them. @default none */
  readonly shipments?: Pick<ShipmentSourcePort, 'getShipment'>;
  /** A new tracking event was stored (push it to the UI). @default none */
  readonly onTracking?: (shipmentId: string, event: TrackingEventView) => void;
  /** A tracking event someone must act on. @default none */
  readonly onAlert?: (alert: TrackingAlert) => void;
  /** A booking went through the station rules. @default none */
  readonly onBooking?: (result: DispatchResult) => void;
  /** @default silent */
  readonly logger?: IntakeLogger;
  /** Clock in ms, for tests. @default Date.now */
  readonly now?: () => number;
  /**
   * Connection limits (server-limits.ts).
   * @default { headersTimeoutMs: 10000, requestTimeoutMs: 15000, idleTimeoutMs: 10000, maxConnections: 256 }
   */
  readonly limits?: Partial<ServerLimits>;
  /** Backoff of a booking whose decision is put off (its shipment could not be fetched). @default { baseMs: 2000, maxMs: 300000 } */
  readonly decisionRetry?: DecisionRetryOptions;
}

/** The service sends one delivery at a time per endpoint; 256 leaves room for retries and a proxy's pool. */
export const WEBHOOK_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  idleTimeoutMs: 10_000,
  maxConnections: 256,
};

export interface WebhookCounters {
  accepted: number;
  duplicates: number;
  ignored: number;
  bookingsSubmitted: number;
  bookingsSkipped: number;
  /** Decisions put off (each a failed shipment fetch, retried later). */
  bookingsDeferred: number;
  trackingStored: number;
  alerts: number;
  processingErrors: number;
  rejected: Record<SignatureFailure | 'invalid' | 'too_large' | 'not_found' | 'method' | 'internal', number>;
}

export interface WebhookServer {
  readonly url: string;
  readonly port: number;
  readonly counters: Readonly<WebhookCounters>;
  /** Stops accepting, releases held bookings and waits for processing to finish. */
  close(): Promise<void>;
}

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/webhooks';
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const secrets = options.secrets.filter((s) => s.length > 0);
  if (secrets.length === 0) {
    throw new IntakeConfigError(INTAKE_ERROR_CODES.NO_WEBHOOK_SECRET, 'No webhook secret is configured: pass --webhook-secret with the secret shown in the service\'s API settings.');
  }

  const counters: WebhookCounters = {
    accepted: 0,
    duplicates: 0,
    ignored: 0,
    bookingsSubmitted: 0,
    bookingsSkipped: 0,
    bookingsDeferred: 0,
    trackingStored: 0,
    alerts: 0,
    processingErrors: 0,
    rejected: { missing: 0, malformed: 0, stale: 0, mismatch: 0, invalid: 0, too_large: 0, not_found: 0, method: 0, internal: 0 },
  };

  const ledger = options.ledger;
  const index: ShipmentIndexPort | undefined = ledger.upsertShipment ? { upsertShipment: (s) => ledger.upsertShipment!(s) } : undefined;
  const dispatch = createBookingDispatcher({ stationRules: options.stationRules, sink: options.sink, shipments: options.shipments, index, logger });
  // Bookings are dispatched one after another: a dispatch may first fetch the shipment
  // (station rules on sender_reference/system), and concurrent fetches would undo the
  // booked_at order the reorder buffer just established.
  let chain: Promise<void> = Promise.resolve();
  const dispatchInOrder = (notice: BookingNotice, data: unknown): void => {
    chain = chain.then(() =>
      dispatch(notice, data).then(
        (result) => {
          pending.decided(notice.shipmentId);
          if (result.print) counters.bookingsSubmitted++;
          else counters.bookingsSkipped++;
          logger.info(`intake: booking ${notice.shipmentId} ${result.print ? 'submitted' : 'not printed'}: ${result.why}`);
          options.onBooking?.(result);
        },
        (error: unknown) => {
          // Put off or not submitted (the ledger could not be written): kept, tried again.
          if (error instanceof BookingDeferredError) counters.bookingsDeferred++;
          else {
            counters.processingErrors++;
            logger.error(`intake: booking ${notice.shipmentId} could not be submitted: ${errorText(error)}`);
          }
          pending.putOff(notice, data, error);
        },
      ),
    );
  };
  const pending = new PendingDecisions({ ...options.decisionRetry, store: ledger, redispatch: dispatchInOrder, logger, now });

  const bookings = new ReorderBuffer<{ notice: BookingNotice; data: unknown }>({
    windowMs: options.reorderWindowMs ?? 250,
    release: ({ notice, data }) => dispatchInOrder(notice, data),
  });

  const processWebhook = (webhook: ParsedWebhook): void => {
    const { envelope } = webhook;
    if (webhook.kind === 'booked') {
      const notice = bookingNotice(webhook);
      bookings.push({ notice, data: webhook.data }, notice.bookedAt);
      return;
    }
    if (webhook.kind === 'tracking') {
      const { data } = webhook;
      const event: TrackingEventView = {
        id: null,
        status: data.event,
        description: data.description ?? null,
        location: data.location ? data.location : null,
        occurredAt: data.event_time ?? envelope.created_at,
        url: null,
      };
      try {
        if (!options.ledger.recordTracking(envelope.shipment_id, event)) return;
        counters.trackingStored++;
        options.onTracking?.(envelope.shipment_id, event);
        if (ALERT_EVENTS.has(data.event)) {
          const base = { shipmentId: envelope.shipment_id, trackingId: data.tracking_id ?? null, event: data.event, reason: data.reason ?? null, occurredAt: event.occurredAt };
          counters.alerts++;
          options.onAlert?.({ ...base, message: alertMessage(base) });
        }
      } catch (error) {
        counters.processingErrors++;
        logger.error(`intake: tracking event for ${envelope.shipment_id} could not be stored: ${errorText(error)}`);
      }
      return;
    }
    counters.ignored++;
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== path) return reject(res, 'not_found', 404);
    if (req.method !== 'POST') return reject(res, 'method', 405, { Allow: 'POST' });

    // A request that errors (the sender went away) gets no answer.
    readBody(req, maxBodyBytes).then((rawBody) => {
      if (rawBody === TOO_LARGE) return tooLarge(req, res);
      const verdict = verifySignature({ header: req.headers['service-signature'], rawBody, secrets, now: now(), toleranceSeconds });
      if (!verdict.ok) return reject(res, verdict.reason, 401);

      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return reject(res, 'invalid', 400, {}, 'body is not JSON');
      }
      const parsed = parseWebhook(body);
      if (!parsed.ok) return reject(res, 'invalid', 400, {}, parsed.error);

      let fresh: boolean;
      try {
        const { webhook } = parsed;
        // A booking is stored with its message id, before the 2xx: a crash after the answer
        // loses nothing (decided at the next start, pending-decisions.ts).
        fresh =
          webhook.kind === 'booked' && ledger.rememberBooking
            ? ledger.rememberBooking(webhook.envelope.message_id, bookingNotice(webhook), webhook.data)
            : ledger.rememberMessage(webhook.envelope.message_id);
      } catch (error) {
        // Not recorded, so not acknowledged: the service retries with the same message_id.
        logger.error(`intake: could not record webhook ${parsed.webhook.envelope.message_id}: ${errorText(error)}`);
        return reject(res, 'internal', 500);
      }
      if (!fresh) {
        counters.duplicates++;
        return send(res, 200, { status: 'duplicate' });
      }
      counters.accepted++;
      send(res, 200, { status: 'accepted' });
      setImmediate(() => processWebhook(parsed.webhook));
    }, () => {});
  };

  const reject = (res: ServerResponse, reason: keyof WebhookCounters['rejected'], status: number, headers: Record<string, string> = {}, detail?: string): void => {
    counters.rejected[reason]++;
    send(res, status, { error: detail ? `${reason}: ${detail}` : reason }, headers);
  };

  const tooLarge = (req: IncomingMessage, res: ServerResponse): void => {
    counters.rejected.too_large++;
    send(res, 413, { error: `body larger than ${maxBodyBytes} bytes` }, { Connection: 'close' });
    // Stop reading; the socket closes once the answer is out.
    req.removeAllListeners('data');
    req.pause();
    res.on('finish', () => setTimeout(() => req.socket.destroy(), 50).unref());
  };

  const limits = withDefaults(WEBHOOK_SERVER_LIMITS, options.limits);
  const server = createServer(serverOptions(limits, 'webhook'), handle);
  applyServerLimits(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  pending.resume();
  const shownHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    counters,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      bookings.flush();
      pending.close();
      await chain;
    },
  };
}

function bookingNotice(webhook: Extract<ParsedWebhook, { kind: 'booked' }>): BookingNotice {
  const { envelope, data } = webhook;
  return {
    shipmentId: envelope.shipment_id,
    referenceId: data.reference_id ?? null,
    trackingId: data.tracking_id ?? null,
    carrier: data.carrier ?? null,
    source: data.source ?? null,
    senderReference: null,
    system: null,
    bookedAt: data.booked_at ?? envelope.created_at,
    trigger: 'webhook',
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
