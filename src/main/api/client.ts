/**
 * The typed client of the Shipment Booking Service: one method per endpoint of the spec,
 * every body checked against ./schemas, every failure an ApiError. It is the only code
 * that talks to the service.
 */
import { inspect } from 'node:util';
import { Blob } from 'node:buffer';
import { Agent, FormData, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { invalidRequestError, invalidResponseError, type FailureContext } from './error-mapping';
import {
  bookRequest,
  bookResponse,
  cancelRequest,
  cancelResponse,
  carriersResponse,
  createShipmentResponse,
  favoriteAddressesResponse,
  favoriteAddressSearch,
  favoritePackagesResponse,
  formatPath,
  issuesToFieldErrors,
  listShipmentsQuery,
  printersResponse,
  printRequest,
  printUrlResponse,
  rateRequest,
  rateResponse,
  servicePointSearch,
  servicePointsResponse,
  shipment,
  shipmentDefaults,
  shipmentDefaultsPatch,
  shipmentInput,
  shipmentList,
  shippingRulesResponse,
  statusResponse,
  trackingEvents,
  type BookRequest,
  type BookResponse,
  type CancelResponse,
  type CarriersResponse,
  type CreateShipmentResponse,
  type FavoriteAddress,
  type FavoriteAddressSearch,
  type FavoritePackage,
  type ListShipmentsQuery,
  type PrintersResponse,
  type PrintRequest,
  type PrintToPrinterRequest,
  type PrintUrlResponse,
  type RateRequest,
  type RateResponse,
  type ServicePointSearch,
  type ServicePointsResponse,
  type Shipment,
  type ShipmentDefaults,
  type ShipmentDefaultsPatch,
  type ShipmentInput,
  type ShippingRulesResponse,
  type StatusResponse,
  type TrackingEvent,
} from './schemas';
import { checkServiceAddress, invalidSegmentReason } from './service-address';
import { Transport, type CallSpec, type RawResponse, type ResponseListener, type ServiceDateListener } from './transport';
import { CLIENT_VERSION } from './version';
import { SERVICE_CALL } from '../retry/policies';
import { uploadFileName } from './upload-name';

/**
 * A misbehaving service or proxy must not exhaust memory with an endless body. A label PDF
 * is tens of kilobytes; a print of a few hundred shipments stays well below this.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
export interface ServiceClientOptions {
  /** The API root including the path prefix, e.g. `https://host/external/v1`. */
  readonly baseUrl: string;
  /** Sent as `x-api-key`. Never logged, never in an error message, hidden from inspect/toString/JSON. */
  readonly apiKey: string;
  /**
   * Deadline of one attempt, headers and body together.
   * @default 15000
   */
  readonly timeoutMs?: number;
  /**
   * Extra attempts for safe calls (GET reads, status, print as `url` or `file`). Other calls are tried once.
   * @default 3
   */
  readonly retries?: number;
  /**
   * Base of the exponential backoff (full jitter: a random wait up to base * 2^n).
   * @default 250
   */
  readonly retryBaseMs?: number;
  /**
   * Longest wait between attempts. A Retry-After up to this long is honoured exactly; a
   * longer one ends the call with `retryAfterMs` set so the caller reschedules it.
   * @default 10000
   */
  readonly retryMaxMs?: number;
  /**
   * undici dispatcher for every call.
   * @default one keep-alive undici Agent owned by the client and closed by close()
   */
  readonly dispatcher?: Dispatcher;
  /**
   * Accept a plain http:// address on a public host, where the key would travel in clear.
   * Loopback and private addresses are always accepted. @default PRINT_STATION_ALLOW_PLAIN_HTTP=1 in the environment
   */
  readonly allowPlainHttp?: boolean;
  /** @default 'print-station/<version>' */
  readonly userAgent?: string;
  /**
   * Largest response body accepted (on the client's own Agent); larger answers fail as
   * SERVICE_INVALID_RESPONSE (a ResponseTooLargeError, with the size known of them) instead
   * of filling memory. @default MAX_RESPONSE_BYTES (64 MiB)
   */
  readonly maxResponseBytes?: number;
  /** Told of every answer's X-Service-Request-ID (the agent keeps the last few for diagnostics). @default none */
  readonly onRequestId?: ResponseListener;
  /** Told of every answer's Date header (the service's clock: service-clock.ts). @default none */
  readonly onServiceDate?: ServiceDateListener;
}

/** The PDF of POST /shipments/print with output_format `file`. */
export interface PrintFileResult {
  readonly pdf: Uint8Array;
  /** X-Service-Request-ID of the answer, for the job's history. */
  readonly requestId: string | null;
}

/** One page of GET /shipments. */
export interface ShipmentPage {
  readonly shipments: Shipment[];
  /** X-Total-Count when the service sends it. */
  readonly total: number | null;
  readonly requestId: string | null;
}

export class ServiceClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly userAgent: string;
  readonly #apiKey: string;
  readonly #transport: Transport;
  readonly #ownedAgent: Agent | null;
  readonly #lifetime = new AbortController();
  #closing: Promise<void> | null = null;

  constructor(options: ServiceClientOptions) {
    // An empty key is allowed on purpose: the service answers 401, which surfaces as
    // SERVICE_UNAUTHORIZED with the "check it in Settings" message like any wrong key.
    if (typeof options.apiKey !== 'string') throw new TypeError('ServiceClient: apiKey must be a string');
    if (!URL.canParse(options.baseUrl)) {
      throw new TypeError(`ServiceClient: "${options.baseUrl}" is not a valid service address: set it in Settings → Connection`);
    }
    // The key goes in every request: never in clear over a public network (unless allowed).
    checkServiceAddress(options.baseUrl, options.allowPlainHttp);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.retries = options.retries ?? SERVICE_CALL.retries;
    this.retryBaseMs = options.retryBaseMs ?? SERVICE_CALL.baseMs;
    this.retryMaxMs = options.retryMaxMs ?? SERVICE_CALL.maxMs;
    this.userAgent = options.userAgent ?? `print-station/${CLIENT_VERSION}`;
    this.#apiKey = options.apiKey;
    const maxResponseBytes = options.dispatcher ? null : (options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
    this.#ownedAgent =
      maxResponseBytes === null
        ? null
        : new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000, maxResponseSize: maxResponseBytes });
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: this.timeoutMs,
      retries: this.retries,
      retryBaseMs: this.retryBaseMs,
      retryMaxMs: this.retryMaxMs,
      userAgent: this.userAgent,
      dispatcher: options.dispatcher ?? this.#ownedAgent!,
      maxResponseBytes,
      lifetime: this.#lifetime.signal,
      onRequestId: options.onRequestId,
      onServiceDate: options.onServiceDate,
    });
  }

  // ---- status ----

  /** GET /status: checks that the key is valid here; returns the team. */
  async status(): Promise<StatusResponse> {
    return this.#json({ method: 'GET', path: '/status', safe: true }, statusResponse);
  }

  // ---- shipments ----

  /** POST /shipments. With enable_bookable_validation, missing data fails with `fieldErrors`. */
  async createShipment(body: ShipmentInput): Promise<CreateShipmentResponse> {
    const path = '/shipments';
    const json = this.#checkRequest('POST', path, shipmentInput, body);
    return this.#json({ method: 'POST', path, json, safe: false }, createShipmentResponse);
  }

  /** GET /shipments: filtered by reference_id and status; newest change first in the sandbox. */
  async listShipments(query: ListShipmentsQuery = {}): Promise<Shipment[]> {
    return (await this.listShipmentsPage(query)).shipments;
  }

  /** GET /shipments with the total count (X-Total-Count) for paging. */
  async listShipmentsPage(query: ListShipmentsQuery = {}): Promise<ShipmentPage> {
    const path = '/shipments';
    const checked = this.#checkRequest('GET', path, listShipmentsQuery, query);
    const raw = await this.#transport.call({ method: 'GET', path, query: checked, safe: true });
    const shipments = this.#parse(raw, shipmentList);
    const header = raw.headers['x-total-count'];
    const total = Number(Array.isArray(header) ? header[0] : header);
    return { shipments, total: header !== undefined && Number.isFinite(total) ? total : null, requestId: raw.requestId };
  }

  /** GET /shipments/{id}: the full record. A malformed id gives SERVICE_BAD_REQUEST, an unknown one SERVICE_NOT_FOUND. */
  async getShipment(id: string): Promise<Shipment> {
    return this.#json({ method: 'GET', path: this.#shipmentPath('GET', id), safe: true }, shipment);
  }

  /** PUT /shipments/{id}: each given sub-resource replaces the stored one; refused once booked. */
  async updateShipment(id: string, body: ShipmentInput): Promise<Shipment> {
    const path = this.#shipmentPath('PUT', id);
    const json = this.#checkRequest('PUT', path, shipmentInput, body);
    return this.#json({ method: 'PUT', path, json, safe: false }, shipment);
  }

  /** DELETE /shipments/{id}: refused once booked. */
  async deleteShipment(id: string): Promise<void> {
    await this.#transport.call({ method: 'DELETE', path: this.#shipmentPath('DELETE', id), safe: false });
  }

  // ---- rates, booking, cancel ----

  /** POST /shipments/rates. Not retried: the brief keeps retries to reads and print. */
  async rates(body: RateRequest): Promise<RateResponse> {
    const path = '/shipments/rates';
    const json = this.#checkRequest('POST', path, rateRequest, body);
    return this.#json({ method: 'POST', path, json, safe: false }, rateResponse);
  }

  /** POST /shipments/book. Never retried: a repeat could book twice. */
  async book(body: BookRequest): Promise<BookResponse> {
    const path = '/shipments/book';
    const json = this.#checkRequest('POST', path, bookRequest, body);
    return this.#json({ method: 'POST', path, json, safe: false }, bookResponse);
  }

  /** POST /shipments/cancel. The spec shows no response body: whatever JSON object comes back, or null. */
  async cancel(body: { shipment_id: string }): Promise<CancelResponse> {
    const path = '/shipments/cancel';
    const json = this.#checkRequest('POST', path, cancelRequest, body);
    return this.#json({ method: 'POST', path, json, safe: false }, cancelResponse, true);
  }

  // ---- print ----

  /** POST /shipments/print as `url`: a link valid for 2 minutes. Retried (idempotent). */
  async printUrl(req: PrintRequest): Promise<PrintUrlResponse> {
    const json = this.#printBody(req, 'url');
    return this.#json({ method: 'POST', path: '/shipments/print', json, safe: true }, printUrlResponse);
  }

  /** POST /shipments/print as `file`: the PDF bytes. Retried (idempotent); anything but a PDF is SERVICE_INVALID_RESPONSE. */
  async printFile(req: PrintRequest): Promise<PrintFileResult> {
    const json = this.#printBody(req, 'file');
    const raw = await this.#transport.call({
      method: 'POST',
      path: '/shipments/print',
      json,
      accept: 'application/pdf, application/json',
      safe: true,
    });
    const type = String(raw.headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('application/pdf')) {
      throw invalidResponseError(this.#ctx(raw), `expected a PDF, got ${type === '' ? 'no content type' : `content type ${type}`}`);
    }
    if (raw.body.subarray(0, 5).toString('latin1') !== '%PDF-') {
      throw invalidResponseError(this.#ctx(raw), 'the body labelled application/pdf is not a PDF');
    }
    return { pdf: new Uint8Array(raw.body.buffer, raw.body.byteOffset, raw.body.byteLength), requestId: raw.requestId };
  }

  /** POST /shipments/print as `printer`: the service prints on printer_id. Never retried: a repeat prints twice. */
  async printToPrinter(req: PrintToPrinterRequest): Promise<PrintUrlResponse> {
    const json = this.#printBody(req, 'printer');
    return this.#json({ method: 'POST', path: '/shipments/print', json, safe: false }, printUrlResponse);
  }

  // ---- tracking and documents ----

  /** GET /shipments/{id}/tracking: every event since creation (`ID` normalised to `id`). */
  async tracking(shipmentId: string): Promise<TrackingEvent[]> {
    return this.#json({ method: 'GET', path: `${this.#shipmentPath('GET', shipmentId)}/tracking`, safe: true }, trackingEvents);
  }

  /** POST /shipments/{id}/{document_type}: multipart with one `file` part (its name made safe: upload-name.ts). Never retried. */
  async uploadDocument(shipmentId: string, documentType: string, pdf: Uint8Array, filename = `${documentType}.pdf`): Promise<void> {
    const path = `${this.#shipmentPath('POST', shipmentId)}/${this.#segment('POST', '/shipments/{id}/{document_type}', documentType)}`;
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), uploadFileName(filename, documentType));
    await this.#transport.call({ method: 'POST', path, form, safe: false });
  }

  // ---- reference data ----

  /** GET /carriers. */
  async carriers(): Promise<CarriersResponse> {
    return this.#json({ method: 'GET', path: '/carriers', safe: true }, carriersResponse);
  }

  /** GET /printers: the team's connected printers (ids for printToPrinter). */
  async printers(): Promise<PrintersResponse> {
    return this.#json({ method: 'GET', path: '/printers', safe: true }, printersResponse);
  }

  /** POST /locations/servicepoints: tokens for delivery_service_point_token. */
  async servicePoints(body: ServicePointSearch): Promise<ServicePointsResponse> {
    const path = '/locations/servicepoints';
    const json = this.#checkRequest('POST', path, servicePointSearch, body);
    return this.#json({ method: 'POST', path, json, safe: false }, servicePointsResponse);
  }

  /** POST /favorites/addresses: the team's address book entries. */
  async favoriteAddresses(body: FavoriteAddressSearch = {}): Promise<FavoriteAddress[]> {
    const path = '/favorites/addresses';
    const json = this.#checkRequest('POST', path, favoriteAddressSearch, body);
    return this.#json({ method: 'POST', path, json, safe: false }, favoriteAddressesResponse);
  }

  /** GET /favorites/packages. */
  async favoritePackages(): Promise<FavoritePackage[]> {
    return this.#json({ method: 'GET', path: '/favorites/packages', safe: true }, favoritePackagesResponse);
  }

  /** GET /shipping-rules: enabled and disabled rules. */
  async shippingRules(): Promise<ShippingRulesResponse> {
    return this.#json({ method: 'GET', path: '/shipping-rules', safe: true }, shippingRulesResponse);
  }

  /** GET /shipment-defaults. */
  async shipmentDefaults(): Promise<ShipmentDefaults> {
    return this.#json({ method: 'GET', path: '/shipment-defaults', safe: true }, shipmentDefaults);
  }

  /** PATCH /shipment-defaults: each default as `{id}` or null to clear. Returns the defaults when the service sends them, else null. */
  async patchShipmentDefaults(body: ShipmentDefaultsPatch): Promise<ShipmentDefaults | null> {
    const path = '/shipment-defaults';
    const json = this.#checkRequest('PATCH', path, shipmentDefaultsPatch, body);
    return this.#json({ method: 'PATCH', path, json, safe: false }, shipmentDefaults.nullable(), true);
  }

  /** Ends pending calls and retries, and closes the client's own connection pool. Idempotent. */
  close(): Promise<void> {
    if (this.#closing === null) {
      this.#lifetime.abort(new Error('client closed'));
      this.#closing = this.#ownedAgent?.close() ?? Promise.resolve();
    }
    return this.#closing;
  }

  // ---- redaction ----

  toString(): string {
    return `ServiceClient(${this.baseUrl})`;
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, apiKey: '[redacted]', timeoutMs: this.timeoutMs, retries: this.retries };
  }

  [inspect.custom](): string {
    return `ServiceClient { baseUrl: '${this.baseUrl}', apiKey: '[redacted]', timeoutMs: ${this.timeoutMs}, retries: ${this.retries} }`;
  }

  // ---- helpers ----

  async #json<S extends z.ZodType>(spec: CallSpec, schema: S, emptyIsNull = false): Promise<z.output<S>> {
    const raw = await this.#transport.call(spec);
    return this.#parse(raw, schema, emptyIsNull);
  }

  #parse<S extends z.ZodType>(raw: RawResponse, schema: S, emptyIsNull = false): z.output<S> {
    const text = raw.body.toString('utf8');
    let body: unknown;
    if (text.trim() === '' && emptyIsNull) body = null;
    else {
      try {
        body = JSON.parse(text);
      } catch (cause) {
        throw invalidResponseError(this.#ctx(raw), 'the body is not JSON', {}, cause);
      }
    }
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    const first = result.error.issues[0];
    const problem = first ? `${formatPath(first.path)}: ${first.message}` : 'schema mismatch';
    throw invalidResponseError(this.#ctx(raw), problem, issuesToFieldErrors(result.error.issues), result.error);
  }

  #checkRequest<S extends z.ZodType>(method: string, path: string, schema: S, body: unknown): z.output<S> {
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    throw invalidRequestError(this.#localCtx(method, path), issuesToFieldErrors(result.error.issues), result.error);
  }

  #printBody(req: PrintRequest, format: 'url' | 'file' | 'printer'): unknown {
    return this.#checkRequest('POST', '/shipments/print', printRequest, { ...req, output_format: format });
  }

  #shipmentPath(method: string, id: string): string {
    return `/shipments/${this.#segment(method, '/shipments/{id}', id)}`;
  }

  /**
   * A path segment: validated and escaped, so an id can never change the route (escaping
   * alone leaves `..`, which the URL parser then collapses: /shipments/.. is /).
   */
  #segment(method: string, route: string, value: string): string {
    const reason = invalidSegmentReason(value);
    if (reason !== null) throw invalidRequestError(this.#localCtx(method, route), { [route]: [reason] });
    return encodeURIComponent(value);
  }

  #ctx(raw: RawResponse): FailureContext {
    return { method: raw.method, path: raw.path, status: raw.status, requestId: raw.requestId, retryAfterMs: null, secret: this.#apiKey };
  }

  #localCtx(method: string, path: string): FailureContext {
    return { method, path, status: null, requestId: null, retryAfterMs: null, secret: this.#apiKey };
  }
}
