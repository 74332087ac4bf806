/**
 * The embedded Shipment Booking Service: node:http, routes under /external/v1, admin
 * routes under /admin, print output URLs under /files. Every response carries a fresh
 * X-Service-Request-ID.
 */
import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decideFault, DEFAULT_FAULTS, mergeFaults, type FaultSettings } from './faults';
import { HttpError, parseJson, readRaw, type Reply } from './http';
import { match, type Route } from './router';
import { adminDraftSchema, createDraft, type AdminDraftInput, type DraftCreated } from './drafts';
import { adminRoutes, bookDirect, cancelDirect } from './routes/admin';
import { bookRoutes } from './routes/book';
import { printRoutes, serveFile } from './routes/print';
import { rateRoutes } from './routes/rates';
import { referenceRoutes } from './routes/reference';
import { shipmentRoutes } from './routes/shipments';
import { uploadRoutes } from './routes/upload';
import { seedBooked } from './seed';
import { Services } from './services';
import { SandboxState, type PrinterJob } from './state';
import { WebhookDispatcher } from './webhooks/dispatcher';
import type { WebhookEndpoint } from './webhooks/types';

export type { FaultSettings } from './faults';

export const API_PREFIX = '/external/v1';

export interface SandboxOptions {
  /** Port on 127.0.0.1 (the host is always loopback). @default 0 (any free port) */
  readonly port?: number;
  /** The team's API key; every other key gets 401. @default 'sandbox-key' */
  readonly apiKey?: string;
  /** @default 'Sandbox Team' */
  readonly team?: string;
  /** Webhook endpoints, at most 5. @default [] */
  readonly webhooks?: readonly WebhookEndpoint[];
  /** Booked shipments move through carrier tracking events over time. @default false */
  readonly simulateCarrier?: boolean;
  /** @default no faults */
  readonly faults?: Partial<FaultSettings>;
  /** The team's ADR approval (fully regulated dangerous goods). @default false */
  readonly adrApproved?: boolean;
  /** Clock for token and URL expiry. @default () => new Date() */
  readonly now?: () => Date;
  /** Delay between simulated carrier events. @default 3000 */
  readonly carrierStepMs?: number;
  /** Seed of the fault and carrier-simulation RNG. @default a random seed */
  readonly seed?: number;
}

export interface RequestLogEntry {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly bytes: number;
  /** When the request was logged (epoch ms): benchmarks measure request rates from it. */
  readonly at: number;
}

export interface Sandbox {
  readonly baseUrl: string;
  readonly origin: string;
  readonly apiKey: string;
  setFaults(f: Partial<FaultSettings>): void;
  /** Create + book a shipment in one step, as the web application would (source APP) or as an API integration (source API). Fires SHIPMENT_BOOKED. */
  bookShipment(input?: {
    source?: 'API' | 'APP';
    reference_id?: string;
    sender_reference?: string;
    system?: string;
    packages?: number;
    carrier?: string;
  }): Promise<{ shipmentId: string; trackingId: string; referenceId: string }>;
  /**
   * Cancel a booked shipment as the web application would (POST /admin/cancel); with
   * `trackingEvent` a TRACKING_EVENT `CANCELED` is sent as well. Refused (409) unless booked.
   */
  cancelShipment(shipmentId: string, options?: { trackingEvent?: boolean }): { shipment_id: string; status: string };
  /** A draft (not booked) shipment with the chosen gaps, as POST /admin/drafts makes it (drafts.ts). */
  createDraft(input?: AdminDraftInput): DraftCreated;
  /** Bulk-seed N already-booked shipments without webhooks, fast (for 100k-history benchmarks). */
  seedBooked(count: number): void;
  setWebhooks(endpoints: readonly WebhookEndpoint[]): void;
  /** Jobs recorded on service printers (output_format printer). */
  printerJobs(printerId?: string): ReadonlyArray<PrinterJob>;
  /** Requests served, for tests that count requests (e.g. poll cost): method, path+query, status. */
  requestLog(): ReadonlyArray<RequestLogEntry>;
  clearRequestLog(): void;
  /** Grants or withdraws the team's ADR approval (spec, Endpoints rule 9). */
  setAdrApproved(approved: boolean): void;
  close(): Promise<void>;
}

const API_ROUTES: readonly Route[] = [...referenceRoutes, ...rateRoutes, ...bookRoutes, ...printRoutes, ...shipmentRoutes, ...uploadRoutes];
const MAX_LOG = 100_000;

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Reading an aborted request fails with `aborted` (ECONNRESET) once its socket is gone. */
function clientWentAway(req: IncomingMessage, error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') && (req.destroyed || req.socket.destroyed);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const apiKey = options.apiKey ?? 'sandbox-key';
  const keyDigest = digest(apiKey);
  const dispatcher = new WebhookDispatcher({ endpoints: options.webhooks ?? [], now: options.now });
  const state = new SandboxState(options.team ?? 'Sandbox Team', options.now ?? (() => new Date()), dispatcher, {
    faults: mergeFaults(DEFAULT_FAULTS, options.faults ?? {}),
    adrApproved: options.adrApproved ?? false,
    seed: options.seed ?? randomInt(2 ** 31),
  });
  const services = new Services(state, { simulateCarrier: options.simulateCarrier ?? false, carrierStepMs: options.carrierStepMs ?? 3000 });
  let log: RequestLogEntry[] = [];

  const authorized = (req: IncomingMessage): boolean => {
    const key = req.headers['x-api-key'];
    return typeof key === 'string' && timingSafeEqual(digest(key), keyDigest);
  };

  async function dispatch(req: IncomingMessage, path: string, url: URL, routes: readonly Route[]): Promise<Reply> {
    if (!authorized(req))
      throw new HttpError(401, 'unauthorized', 'Missing or invalid x-api-key header. Use the API key of your team for this environment.');
    const found = match(routes, req.method ?? 'GET', path);
    if (!found) throw new HttpError(404, 'not_found', `No endpoint ${req.method} ${url.pathname}.`);
    if ('allowed' in found) {
      throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}.`, undefined, {
        Allow: [...new Set(found.allowed)].join(', '),
      });
    }
    let raw: Promise<Buffer> | null = null;
    const readBody = (): Promise<Buffer> => (raw ??= readRaw(req));
    return found.route.handler({
      state,
      services,
      params: found.params,
      query: url.searchParams,
      headers: req.headers,
      raw: readBody,
      json: async () => parseJson(await readBody()),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('X-Service-Request-ID', randomUUID());
    // The service's clock, as every HTTP server dates its answers (RFC 9110): the sandbox's own
    // (a test may move it), which stations read to compare with booked_at.
    res.setHeader('Date', state.now().toUTCString());
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    let reply: Reply;
    try {
      if (path.startsWith(`${API_PREFIX}/`) || path === API_PREFIX) {
        const fault = decideFault(state.faults, state.random);
        if (state.faults.latencyMs > 0) await new Promise((r) => setTimeout(r, state.faults.latencyMs));
        if (fault === 'drop') {
          log.push({ method: req.method ?? '', url: req.url ?? '', status: 0, bytes: 0, at: Date.now() });
          req.socket.destroy();
          return;
        }
        if (fault === 'error') throw new HttpError(503, 'service_unavailable', 'The service is temporarily unavailable. Retry later.');
        if (fault === 'rate-limit') {
          throw new HttpError(429, 'rate_limited', 'Too many requests. Retry after the time in Retry-After.', undefined, {
            'Retry-After': String(state.faults.retryAfterSeconds),
          });
        }
        reply = await dispatch(req, path.slice(API_PREFIX.length) || '/', url, API_ROUTES);
      } else if (path.startsWith('/admin/')) {
        reply = await dispatch(req, path, url, adminRoutes);
      } else if (req.method === 'GET' && /^\/files\/[A-Za-z0-9_-]+\.pdf$/.test(path)) {
        reply = serveFile(state, path.slice('/files/'.length, -'.pdf'.length));
      } else {
        throw new HttpError(404, 'not_found', `Nothing at ${path}. The API lives under ${API_PREFIX}.`);
      }
    } catch (error) {
      if (error instanceof HttpError) {
        reply = { status: error.status, json: error.body(), headers: error.headers };
      } else if (clientWentAway(req, error)) {
        // The client hung up (e.g. timed out during the latency fault) before its body was
        // read: nothing to answer and no fault of the sandbox. Logged like a dropped connection.
        log.push({ method: req.method ?? '', url: req.url ?? '', status: 0, bytes: 0, at: Date.now() });
        return;
      } else {
        console.error('sandbox: internal error', error);
        reply = { status: 500, json: { message: 'Internal sandbox error.', code: 'internal_error' } };
      }
    }
    send(req, res, reply);
  }

  function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
    let body: Buffer | Uint8Array | undefined;
    if (reply.bytes) {
      body = reply.bytes;
      res.setHeader('Content-Type', reply.contentType ?? 'application/octet-stream');
    } else if (reply.json !== undefined && reply.status !== 204) {
      body = Buffer.from(JSON.stringify(reply.json));
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
    }
    if (body) res.setHeader('Content-Length', body.byteLength);
    res.statusCode = reply.status;
    res.end(body);
    log.push({ method: req.method ?? '', url: req.url ?? '', status: reply.status, bytes: body?.byteLength ?? 0, at: Date.now() });
    if (log.length > MAX_LOG * 2) log = log.slice(-MAX_LOG);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('sandbox: failed to answer', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  state.origin = origin;

  return {
    baseUrl: `${origin}${API_PREFIX}`,
    origin,
    apiKey,
    setFaults: (f) => {
      state.faults = mergeFaults(state.faults, f);
    },
    bookShipment: async (input = {}) => bookDirect(state, services, input),
    cancelShipment: (shipmentId, options = {}) =>
      cancelDirect(state, services, { shipment_id: shipmentId, tracking_event: options.trackingEvent ?? false }),
    createDraft: (input = {}) => createDraft(state, adminDraftSchema.parse(input)),
    seedBooked: (count) => seedBooked(state, services, count),
    setWebhooks: (endpoints) => dispatcher.setEndpoints(endpoints),
    printerJobs: (printerId) => state.printerJobs.filter((j) => !printerId || j.printerId === printerId),
    requestLog: () => [...log],
    clearRequestLog: () => {
      log = [];
    },
    setAdrApproved: (approved) => {
      state.adrApproved = approved;
    },
    close: async () => {
      services.close();
      await dispatcher.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
