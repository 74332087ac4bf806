/**
 * Turns what went wrong on the wire into one ApiError: a stable code from the status, the
 * service's own words (wherever in the body it put them), the field-error map, and a
 * message that tells the packer or team lead what to do.
 */
import { maskSecret } from '../secret-mask';
import { API_ERROR_CODES, ApiError, ResponseTooLargeError, type ApiErrorCode, type ResponseSize } from './errors';

export interface FailureContext {
  readonly method: string;
  /** Path under the base URL, e.g. `/shipments/abc`. */
  readonly path: string;
  readonly status: number | null;
  readonly requestId: string | null;
  readonly retryAfterMs: number | null;
  /** Removed from every text that ends up in an error. */
  readonly secret: string;
}

/** Where a person fixes a rejected key in the desktop app; the headless CLI swaps it for its own (cli/lifecycle.ts). */
export const KEY_ADVICE = 'check it in Settings → Connection';

export function codeForStatus(status: number): ApiErrorCode {
  if (status === 401 || status === 403) return API_ERROR_CODES.UNAUTHORIZED;
  if (status === 400) return API_ERROR_CODES.BAD_REQUEST;
  if (status === 404) return API_ERROR_CODES.NOT_FOUND;
  if (status === 409) return API_ERROR_CODES.CONFLICT;
  if (status === 422) return API_ERROR_CODES.UNPROCESSABLE;
  if (status === 429) return API_ERROR_CODES.RATE_LIMITED;
  if (status >= 500) return API_ERROR_CODES.UNAVAILABLE;
  return API_ERROR_CODES.REJECTED;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The spec does not name the error message field: accept the usual spellings
 * (`message`, `error` as a string, `error.message`, `detail`).
 */
export function extractServiceMessage(body: unknown): string | null {
  if (typeof body === 'string') return body.trim() === '' ? null : body.trim().slice(0, 500);
  if (!isRecord(body)) return null;
  if (typeof body.message === 'string' && body.message !== '') return body.message;
  if (typeof body.error === 'string' && body.error !== '') return body.error;
  if (isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
  if (typeof body.detail === 'string' && body.detail !== '') return body.detail;
  return null;
}

/** `{errors: {"packages[0].weight_kg": ["is required"]}}`; a lone string counts as one message. */
export function extractFieldErrors(body: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!isRecord(body) || !isRecord(body.errors)) return out;
  for (const [path, messages] of Object.entries(body.errors)) {
    if (typeof messages === 'string') out[path] = [messages];
    else if (Array.isArray(messages)) out[path] = messages.filter((m): m is string => typeof m === 'string');
  }
  return out;
}

export function summariseFieldErrors(fieldErrors: Readonly<Record<string, readonly string[]>>, max = 5): string {
  const entries = Object.entries(fieldErrors);
  const parts = entries.slice(0, max).map(([path, messages]) => `${path}: ${messages.join(', ') || 'invalid'}`);
  if (entries.length > max) parts.push(`and ${entries.length - max} more`);
  return parts.join('; ');
}

/** Never let the API key reach a message, even if the service echoes it back. */
export function redact(text: string, secret: string): string {
  return maskSecret(text, secret, '[redacted]');
}

/**
 * What to check after a 404 depends on what was asked for: an id in the path may be wrong,
 * but a 404 on a route without one (GET /status, /carriers) means the address is wrong.
 */
export function notFoundAdvice(path: string): string {
  const route = path.split('?')[0] ?? path;
  if (/^\/shipments\/[^/]+/.test(route)) return 'Check the shipment id';
  if (/^\/[^/]+\/[^/]+/.test(route)) return 'Check the id in the request';
  return 'Check the service address: it ends in /external/v1 (Settings → Connection, or --api-url)';
}

function describeWait(ms: number | null): string {
  if (ms === null) return 'wait a moment';
  return `wait ${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/** Builds the ApiError for a non-2xx response. */
export function errorFromResponse(ctx: FailureContext & { readonly status: number }, body: unknown): ApiError {
  const code = codeForStatus(ctx.status);
  const rawMessage = extractServiceMessage(body);
  const serviceMessage = rawMessage === null ? null : redact(rawMessage, ctx.secret);
  const fieldErrors = extractFieldErrors(body);
  const detail = serviceMessage ?? (Object.keys(fieldErrors).length > 0 ? summariseFieldErrors(fieldErrors) : null);
  const call = `${ctx.method} ${ctx.path}`;
  // The service's own sentence usually ends in a period; ours follows after ". ".
  const said = detail === null ? '' : `: ${detail.replace(/[.\s]+$/, '')}`;
  let message: string;
  switch (code) {
    case API_ERROR_CODES.UNAUTHORIZED:
      message = `The service rejected the API key (HTTP ${ctx.status}): ${KEY_ADVICE}`;
      break;
    case API_ERROR_CODES.BAD_REQUEST:
      message = `The service refused ${call} as invalid${said}. Correct the request and try again`;
      break;
    case API_ERROR_CODES.NOT_FOUND:
      message = `The service does not know ${call}${said}. ${notFoundAdvice(ctx.path)}`;
      break;
    case API_ERROR_CODES.CONFLICT:
      message = `The service refused ${call} because of the shipment's current state${said}. Reload the shipment and try again`;
      break;
    case API_ERROR_CODES.UNPROCESSABLE:
      message = `The service could not process ${call}${said}. Correct the shipment data and try again`;
      break;
    case API_ERROR_CODES.RATE_LIMITED:
      message = `The service is limiting the request rate (${call}): ${describeWait(ctx.retryAfterMs)} and try again`;
      break;
    case API_ERROR_CODES.UNAVAILABLE:
      message = `The service is unavailable (HTTP ${ctx.status} on ${call})${said}: ${describeWait(ctx.retryAfterMs)} and try again`;
      break;
    default:
      message = `The service answered HTTP ${ctx.status} to ${call}${said}`;
  }
  return new ApiError(code, redact(message, ctx.secret), {
    status: ctx.status,
    requestId: ctx.requestId,
    serviceMessage,
    fieldErrors,
    retryAfterMs: ctx.retryAfterMs,
    method: ctx.method,
    path: ctx.path,
  });
}

export function timeoutError(ctx: FailureContext, timeoutMs: number, cause?: unknown): ApiError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new ApiError(
    API_ERROR_CODES.TIMEOUT,
    `The service did not answer ${ctx.method} ${ctx.path} within ${seconds} s: check the network and try again`,
    { ...emptyDetails(ctx), cause },
  );
}

export function networkError(ctx: FailureContext, origin: string, cause: unknown): ApiError {
  const reason =
    cause instanceof Error
      ? redact('code' in cause && typeof cause.code === 'string' ? cause.code : cause.message, ctx.secret)
      : 'unknown error';
  return new ApiError(
    API_ERROR_CODES.NETWORK,
    `Could not reach the service at ${origin} (${reason}): check the network connection and the service address in Settings → Connection`,
    { ...emptyDetails(ctx), cause },
  );
}

export function closedError(ctx: FailureContext): ApiError {
  return new ApiError(
    API_ERROR_CODES.NETWORK,
    `The service client was closed during ${ctx.method} ${ctx.path}: the agent is shutting down`,
    emptyDetails(ctx),
  );
}

export function invalidResponseError(
  ctx: FailureContext,
  problem: string,
  fieldErrors: Record<string, string[]> = {},
  cause?: unknown,
): ApiError {
  return new ApiError(API_ERROR_CODES.INVALID_RESPONSE, unexpectedAnswer(ctx, problem), { ...emptyDetails(ctx), fieldErrors, cause });
}

/** A 2xx answer the client stopped reading at its cap: worded as any unexpected answer, its size kept. */
export function responseTooLargeError(ctx: FailureContext, size: ResponseSize, cause?: unknown): ResponseTooLargeError {
  const limit = size.limitBytes === null ? '' : ` (${size.limitBytes} bytes)`;
  const problem = `the response body is larger than the client accepts${limit}`;
  return new ResponseTooLargeError(unexpectedAnswer(ctx, problem), { ...emptyDetails(ctx), cause }, size);
}

function unexpectedAnswer(ctx: FailureContext, problem: string): string {
  return redact(
    `The service sent an unexpected answer to ${ctx.method} ${ctx.path}: ${problem}. Report this to support with the request id`,
    ctx.secret,
  );
}

export function invalidRequestError(ctx: FailureContext, fieldErrors: Record<string, string[]>, cause?: unknown): ApiError {
  return new ApiError(
    API_ERROR_CODES.INVALID_REQUEST,
    redact(
      `Not sent: the request for ${ctx.method} ${ctx.path} is malformed (${summariseFieldErrors(fieldErrors)}). Correct it and try again`,
      ctx.secret,
    ),
    { ...emptyDetails(ctx), fieldErrors, cause },
  );
}

function emptyDetails(ctx: FailureContext) {
  return {
    status: ctx.status,
    requestId: ctx.requestId,
    serviceMessage: null,
    fieldErrors: {},
    retryAfterMs: ctx.retryAfterMs,
    method: ctx.method,
    path: ctx.path,
  };
}
