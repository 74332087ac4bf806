/**
 * One HTTP exchange with the service, with the per-attempt deadline, the retry loop for
 * safe calls, and the mapping of every failure to ApiError.
 *
 * Why not undici's RetryAgent: it decides retries per method (our print calls are POSTs
 * that are safe to repeat, book is a POST that is not), resumes broken bodies with Range
 * requests the service does not promise, and its timeouts are inactivity timers, while a
 * station needs a deadline for the whole attempt (headers and body).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher, type FormData } from 'undici';
import { closedError, errorFromResponse, networkError, responseTooLargeError, timeoutError, type FailureContext } from './error-mapping';
import { ApiError } from './errors';
import { nextDelay, parseRetryAfter } from './retry-policy';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallSpec {
  readonly method: HttpMethod;
  /** Path under the base URL, starting with `/`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly json?: unknown;
  readonly form?: FormData;
  /** @default 'application/json' */
  readonly accept?: string;
  /** True only for calls that may be repeated without effect (reads, print as file/url). */
  readonly safe: boolean;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
  readonly requestId: string | null;
  readonly method: string;
  readonly path: string;
}

export interface TransportConfig {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly userAgent: string;
  readonly dispatcher: Dispatcher;
  /** The most `dispatcher` reads of an answer, when it is the client's own (said in the error of an answer over it). */
  readonly maxResponseBytes: number | null;
  /** Aborted by close(): ends in-flight attempts and pending backoff waits. */
  readonly lifetime: AbortSignal;
  /** Told of every answer's X-Service-Request-ID (diagnostics keeps the last few). @default none */
  readonly onRequestId?: ResponseListener;
  /** Told of every answer's Date header and when it arrived (the service's clock). @default none */
  readonly onServiceDate?: ServiceDateListener;
}

/** An answer that carried an X-Service-Request-ID, success or error. */
export interface ResponseSeen {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
}
export type ResponseListener = (response: ResponseSeen) => void;
export type ServiceDateListener = (dateHeader: string | null, arrivedAtMs: number) => void;

const TIMED_OUT = Symbol('timed out');

export class Transport {
  readonly #config: TransportConfig;
  readonly #origin: string;

  constructor(config: TransportConfig) {
    this.#config = config;
    const url = new URL(config.baseUrl);
    this.#origin = url.origin;
  }

  /** Resolves with a 2xx response; rejects with ApiError after the allowed retries. */
  async call(spec: CallSpec): Promise<RawResponse> {
    const { retries, retryBaseMs, retryMaxMs, lifetime } = this.#config;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(spec);
      } catch (error) {
        if (!(error instanceof ApiError) || !spec.safe || !error.retryable || attempt >= retries || lifetime.aborted) throw error;
        const delay = nextDelay(attempt, error.retryAfterMs, retryBaseMs, retryMaxMs);
        if (delay === null) throw error;
        try {
          await sleep(delay, undefined, { signal: lifetime });
        } catch {
          throw closedError(this.#context(spec, null, null));
        }
      }
    }
  }

  #context(spec: CallSpec, status: number | null, requestId: string | null, retryAfterMs: number | null = null): FailureContext {
    return { method: spec.method, path: spec.path, status, requestId, retryAfterMs, secret: this.#config.apiKey };
  }

  #url(spec: CallSpec): string {
    let url = this.#config.baseUrl.replace(/\/+$/, '') + spec.path;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(spec.query ?? {})) if (value !== undefined) params.set(key, String(value));
    const query = params.toString();
    if (query !== '') url += `?${query}`;
    return url;
  }

  async #attempt(spec: CallSpec): Promise<RawResponse> {
    const { apiKey, timeoutMs, userAgent, dispatcher, lifetime } = this.#config;
    if (lifetime.aborted) throw closedError(this.#context(spec, null, null));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    const onClose = () => controller.abort(lifetime.reason);
    lifetime.addEventListener('abort', onClose, { once: true });

    const headers: Record<string, string> = {
      'x-api-key': apiKey,
      accept: spec.accept ?? 'application/json',
      'user-agent': userAgent,
    };
    let body: string | FormData | undefined;
    if (spec.form !== undefined)
      body = spec.form; // undici sets the multipart boundary
    else if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    }

    let status: number | null = null;
    let requestId: string | null = null;
    let declaredBytes: number | null = null;
    try {
      const res = await request(this.#url(spec), { method: spec.method, headers, body, dispatcher, signal: controller.signal });
      status = res.statusCode;
      requestId = headerValue(res.headers['x-service-request-id']);
      declaredBytes = contentLength(res.headers['content-length']);
      if (requestId !== null) this.#config.onRequestId?.({ requestId, method: spec.method, path: spec.path, status });
      this.#config.onServiceDate?.(headerValue(res.headers.date), Date.now());
      const buffer = Buffer.from(await res.body.arrayBuffer());
      if (status >= 200 && status < 300) {
        return { status, headers: res.headers, body: buffer, requestId, method: spec.method, path: spec.path };
      }
      const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      throw errorFromResponse({ ...this.#context(spec, status, requestId, retryAfterMs), status }, parseErrorBody(buffer));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const ctx = this.#context(spec, status, requestId);
      if (controller.signal.aborted && controller.signal.reason === TIMED_OUT) throw timeoutError(ctx, timeoutMs, error);
      if (lifetime.aborted) throw closedError(ctx);
      if (isUndiciTimeout(error)) throw timeoutError(ctx, timeoutMs, error);
      if ((error as { code?: string } | null)?.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
        throw responseTooLargeError(ctx, { declaredBytes, limitBytes: this.#config.maxResponseBytes }, error);
      }
      throw networkError(ctx, this.#origin, error);
    } finally {
      clearTimeout(timer);
      lifetime.removeEventListener('abort', onClose);
    }
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v === '' ? null : v;
}

/** Content-Length as a number of bytes; null when absent or not one. */
function contentLength(value: string | string[] | undefined): number | null {
  const text = headerValue(value);
  return text !== null && /^\d{1,15}$/.test(text) ? Number(text) : null;
}

function parseErrorBody(buffer: Buffer): unknown {
  const text = buffer.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isUndiciTimeout(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}
