import { agentMessage } from '../../shared/agent-messages';
import { CodedError } from '../errors';

/**
 * Stable codes for everything that can go wrong talking to the service.
 * `retryable` codes are the ones a caller may retry when the operation is idempotent.
 */
export const API_ERROR_CODES = {
  UNAUTHORIZED: 'SERVICE_UNAUTHORIZED', // 401/403: wrong or missing API key
  BAD_REQUEST: 'SERVICE_BAD_REQUEST', // 400
  NOT_FOUND: 'SERVICE_NOT_FOUND', // 404
  CONFLICT: 'SERVICE_CONFLICT', // 409
  UNPROCESSABLE: 'SERVICE_UNPROCESSABLE', // 422 (validation, booking rules)
  RATE_LIMITED: 'SERVICE_RATE_LIMITED', // 429
  UNAVAILABLE: 'SERVICE_UNAVAILABLE', // 5xx
  REJECTED: 'SERVICE_REJECTED', // any other non-2xx
  TIMEOUT: 'SERVICE_TIMEOUT', // no answer within the call's timeout
  NETWORK: 'SERVICE_UNREACHABLE', // connection refused, reset, DNS
  INVALID_RESPONSE: 'SERVICE_INVALID_RESPONSE', // a 2xx whose body breaks the schema
  INVALID_REQUEST: 'SERVICE_INVALID_REQUEST', // the client refused to send a body that breaks the schema
} as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[keyof typeof API_ERROR_CODES];

const RETRYABLE: ReadonlySet<string> = new Set([
  API_ERROR_CODES.RATE_LIMITED,
  API_ERROR_CODES.UNAVAILABLE,
  API_ERROR_CODES.TIMEOUT,
  API_ERROR_CODES.NETWORK,
]);

export interface ApiErrorDetails {
  readonly status: number | null;
  /** X-Service-Request-ID of the failing response, quoted to support. */
  readonly requestId: string | null;
  /** The service's own message, when it sent one. */
  readonly serviceMessage: string | null;
  /** `{ "packages[0].weight_kg": ["is required"] }` from validation failures. */
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
  /** From Retry-After on 429/503, in milliseconds. */
  readonly retryAfterMs: number | null;
  readonly method: string;
  readonly path: string;
  readonly cause?: unknown;
}

export class ApiError extends CodedError {
  override readonly code: ApiErrorCode;
  readonly status: number | null;
  readonly requestId: string | null;
  readonly serviceMessage: string | null;
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
  readonly retryAfterMs: number | null;
  readonly method: string;
  readonly path: string;

  constructor(code: ApiErrorCode, message: string, details: ApiErrorDetails) {
    // The service's own words cannot be translated: the UI frames them in its language (service.error).
    const text = withRequestId(message, details.requestId);
    const { status, serviceMessage, requestId } = details;
    super(code, agentMessage('service.error', { apiCode: code, status, serviceMessage, requestId, text }), { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.requestId = details.requestId;
    this.serviceMessage = details.serviceMessage;
    this.fieldErrors = details.fieldErrors;
    this.retryAfterMs = details.retryAfterMs;
    this.method = details.method;
    this.path = details.path;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }
}

/** What is known of the size of an answer the client stopped reading. */
export interface ResponseSize {
  /** The answer's Content-Length, when it sent one. */
  readonly declaredBytes: number | null;
  /** The most the client reads of an answer (ServiceClientOptions.maxResponseBytes); null when its dispatcher is the caller's. */
  readonly limitBytes: number | null;
}

/**
 * A 2xx answer larger than the client reads (SERVICE_INVALID_RESPONSE, not retried), with
 * what is known of its size: a caller that fetched a document refuses it in its own words
 * (a PDF too large: printing/pdf-limits-fetcher.ts), the answer's request id kept.
 */
export class ResponseTooLargeError extends ApiError {
  readonly size: ResponseSize;

  constructor(message: string, details: ApiErrorDetails, size: ResponseSize) {
    super(API_ERROR_CODES.INVALID_RESPONSE, message, details);
    this.size = size;
  }
}

function withRequestId(message: string, requestId: string | null): string {
  return requestId ? `${message} (request id ${requestId})` : message;
}
