import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../../../http/listen';
import { readBody, TOO_LARGE } from '../../../http/read-body';
import { parseWebhook, type ParsedWebhook } from './envelope';
import { errorText } from '../../error-text';
import { INTAKE_ERROR_CODES, IntakeConfigError } from '../../errors';
import { silentLogger, type IntakeLogger } from '../../ports';
import { applyServerLimits, serverOptions, withDefaults, type ServerLimits } from '../../server-limits';
import { createRejectionLog } from './rejection-log';
import { handOffLedgerFailure, ledgerUnwritable } from '../../ledger-outage';
import { parseSignatureHeader, verifySignature, type SignatureFailure } from './signature';

/**
 * The signed webhook receiver: HTTP, body limit, signature, dedup and a
 * durable acknowledgement, for any event type (what a type means is its handler's business,
 * handlers/). Order of work per request, and why: route and size first (cheap,
 * before reading much), then the signature over the raw bytes (nothing of an unsigned body is
 * parsed or stored), then parse, record by message_id (a redelivery is answered `duplicate`),
 * acknowledge, and only then process: the service wants a 2xx within 3 s and a printer can
 * take longer than that.
 *
 * Group commit: the deliveries parsed in one turn of the event loop are recorded in one
 * ledger transaction at its end (each in a savepoint of its own, so one that cannot be
 * recorded fails alone), and each is acknowledged once that transaction has committed.
 * A commit appends every page it touched to the WAL; in a burst, one commit per delivery
 * was most of what the agent wrote (docs/BENCHMARKS.md).
 */

export interface WebhookReceiverOptions {
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
  /** @default silent */
  readonly logger?: IntakeLogger;
  /**
   * A delivery could not be recorded because the ledger cannot take writes (answered 503):
   * the agent parks its lines on it until the ledger takes writes again, and says so once;
   * the receiver then logs no line of its own per delivery. @default nothing (a line each)
   */
  readonly onLedgerFailure?: (error: unknown) => void;
  /** Clock in ms, for tests. @default Date.now */
  readonly now?: () => number;
  /**
   * Connection limits (server-limits.ts).
   * @default { headersTimeoutMs: 10000, requestTimeoutMs: 15000, idleTimeoutMs: 10000, maxConnections: 256 }
   */
  readonly limits?: Partial<ServerLimits>;
}

/** Where a verified, parsed delivery goes (handlers/route.ts). */
export interface WebhookDeliveries {
  /**
   * Before the 2xx: records the delivery durably; false for a redelivery. Throwing answers
   * 503 when the ledger cannot take the write (disk full, read-only, I/O error: SQLite's
   * error or LEDGER_WRITE_FAILED), else 500; either way the service delivers it again.
   */
  remember(webhook: ParsedWebhook): boolean;
  /** Runs `fn`'s remember() calls in one transaction (nested: a savepoint). @default runs `fn` as it is */
  together?<T>(fn: () => T): T;
  /** After the 2xx, off the request. */
  process(webhook: ParsedWebhook): void;
}

/** The service sends one delivery at a time per endpoint; 256 leaves room for retries and a proxy's pool. */
export const WEBHOOK_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  idleTimeoutMs: 10_000,
  maxConnections: 256,
};

export interface ReceiverCounters {
  accepted: number;
  duplicates: number;
  /** `unavailable`: answered 503 because the ledger could not take the delivery (disk full). */
  rejected: Record<SignatureFailure | 'invalid' | 'too_large' | 'not_found' | 'method' | 'internal' | 'unavailable', number>;
}

export const newReceiverCounters = (): ReceiverCounters => ({
  accepted: 0,
  duplicates: 0,
  rejected: {
    missing: 0,
    malformed: 0,
    stale: 0,
    mismatch: 0,
    invalid: 0,
    too_large: 0,
    not_found: 0,
    method: 0,
    internal: 0,
    unavailable: 0,
  },
});

export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  /** Stops accepting and waits for open requests to end. */
  close(): Promise<void>;
}

/**
 * Listens until closed. Refuses to start without a secret. `counters` is counted into (the
 * webhook server shares one object between the receiver and the handlers).
 */
export async function startWebhookReceiver(
  options: WebhookReceiverOptions,
  deliveries: WebhookDeliveries,
  counters: ReceiverCounters = newReceiverCounters(),
): Promise<WebhookReceiver> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/webhooks';
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const secrets = acceptedSecrets(options.secrets);
  const logRejection = createRejectionLog({ logger, now });
  /** What to check, for the refusals an operator can fix (a flood of them logs one line a minute). */
  const explain = (reason: SignatureFailure, header: string | string[] | undefined): void => {
    if (reason === 'mismatch') {
      logRejection(
        reason,
        'intake: webhook refused (401): its signature matches no configured webhook secret. Check that the webhook secret in ' +
          "the service's API settings is the one given to the station (PRINT_STATION_WEBHOOK_SECRET, --config webhookSecrets).",
      );
    } else if (reason === 'stale') {
      const sent = Number(parseSignatureHeader(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''))?.timestamp);
      const off = Number.isFinite(sent) ? ` is ${Math.round(Math.abs(now() / 1000 - sent))} s off this station's clock` : ' is too old';
      logRejection(
        reason,
        `intake: webhook refused (401): its signature time${off} (at most ${toleranceSeconds} s allowed). ` +
          "Check the station's clock (time sync, NTP).",
      );
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== path) return reject(res, 'not_found', 404);
    if (req.method !== 'POST') return reject(res, 'method', 405, { Allow: 'POST' });

    // A request that errors (the sender went away) gets no answer.
    readBody(req, maxBodyBytes).then(
      (rawBody) => {
        if (rawBody === TOO_LARGE) return tooLarge(req, res);
        const verdict = verifySignature({ header: req.headers['service-signature'], rawBody, secrets, now: now(), toleranceSeconds });
        if (!verdict.ok) {
          explain(verdict.reason, req.headers['service-signature']);
          return reject(res, verdict.reason, 401);
        }

        let body: unknown;
        try {
          body = JSON.parse(rawBody.toString('utf8'));
        } catch {
          return reject(res, 'invalid', 400, {}, 'body is not JSON');
        }
        const parsed = parseWebhook(body);
        if (!parsed.ok) return reject(res, 'invalid', 400, {}, parsed.error);
        record(parsed.webhook, res);
      },
      () => {},
    );
  };

  const together = <T>(fn: () => T): T => (deliveries.together ? deliveries.together(fn) : fn());
  /** Parsed deliveries waiting for this turn's commit. */
  let waiting: Array<{ readonly webhook: ParsedWebhook; readonly res: ServerResponse }> = [];
  const record = (webhook: ParsedWebhook, res: ServerResponse): void => {
    waiting.push({ webhook, res });
    if (waiting.length === 1) setImmediate(recordWaiting);
  };
  const recordWaiting = (): void => {
    const group = waiting;
    waiting = [];
    // Recorded before the 2xx (a booking with all it needs to be decided after a crash).
    let outcomes: Array<{ fresh: boolean } | { error: unknown }>;
    try {
      outcomes = together(() =>
        group.map(({ webhook }) => {
          try {
            return { fresh: together(() => deliveries.remember(webhook)) };
          } catch (error) {
            return { error };
          }
        }),
      );
    } catch (error) {
      // The commit failed: nothing of the group was recorded.
      outcomes = group.map(() => ({ error }));
    }
    const accepted: ParsedWebhook[] = [];
    group.forEach(({ webhook, res }, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) {
        // Not recorded, so not acknowledged: the service retries with the same message_id.
        // A ledger that cannot be written (disk full) is a station that is down for now: 503.
        // The outage is told once by whoever listens (the agent), not at each retry of each delivery.
        if (!handOffLedgerFailure(outcome.error, options.onLedgerFailure)) {
          logger.error(`intake: could not record webhook ${webhook.envelope.message_id}: ${errorText(outcome.error)}`);
        }
        if (ledgerUnwritable(outcome.error)) return reject(res, 'unavailable', 503, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
        return reject(res, 'internal', 500);
      }
      if (!outcome.fresh) {
        counters.duplicates++;
        return send(res, 200, { status: 'duplicate' });
      }
      counters.accepted++;
      send(res, 200, { status: 'accepted' });
      accepted.push(webhook);
    });
    if (accepted.length > 0) setImmediate(() => accepted.forEach((webhook) => deliveries.process(webhook)));
  };

  const reject = (
    res: ServerResponse,
    reason: keyof ReceiverCounters['rejected'],
    status: number,
    headers: Record<string, string> = {},
    detail?: string,
  ): void => {
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
  const port = await listen(server, options.port ?? 0, host);
  const shownHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** What a 503 asks of the service: a disk is not freed in a second. */
const RETRY_AFTER_SECONDS = 30;

/** The non-empty secrets; throws when there is none (nothing could be verified). */
export function acceptedSecrets(secrets: readonly string[]): readonly string[] {
  const accepted = secrets.filter((s) => s.length > 0);
  if (accepted.length === 0) {
    throw new IntakeConfigError(
      INTAKE_ERROR_CODES.NO_WEBHOOK_SECRET,
      "No webhook secret is configured: pass --webhook-secret with the secret shown in the service's API settings.",
    );
  }
  return accepted;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
