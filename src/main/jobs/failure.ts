/**
 * Classifying a failure without importing the error classes of other modules: ApiError
 * (service) and PrintError (printer) both carry `retryable`, and ApiError carries
 * `retryAfterMs` and `requestId`.
 */
export interface FailureInfo {
  /** Worth retrying by itself (network, 5xx, 429, label not ready, printer busy). */
  readonly transient: boolean;
  /** What the packer reads. */
  readonly message: string;
  /** The service's X-Service-Request-ID, when the service failed. */
  readonly requestId: string | null;
  /** The service's Retry-After, which wins over our own backoff. */
  readonly retryAfterMs: number | null;
}

export function classifyFailure(error: unknown): FailureInfo {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const message = error instanceof Error ? error.message : String(error);
  // Errors that do not say (a bug, a socket error from a fake) are retried a bounded number
  // of times: giving up at once would lose labels to a blip.
  const transient = typeof e.retryable === 'boolean' ? e.retryable : true;
  const requestId = typeof e.requestId === 'string' ? e.requestId : null;
  const retryAfterMs = typeof e.retryAfterMs === 'number' && e.retryAfterMs >= 0 ? e.retryAfterMs : null;
  return { transient, message: transient ? waitingReason(e, message) : message, requestId, retryAfterMs };
}

function waitingReason(e: Record<string, unknown>, message: string): string {
  switch (e.code) {
    case 'SERVICE_UNAVAILABLE':
      if (e.status !== 503) return 'the service is unavailable';
      // A 503 is also an overloaded or restarting service: "not ready" only when it says so.
      return saysNotReady(e.serviceMessage) ? 'label not ready yet' : 'the service is unavailable (HTTP 503)';
    case 'SERVICE_RATE_LIMITED':
      return 'the service asked us to slow down';
    case 'SERVICE_TIMEOUT':
      return 'the service did not answer in time';
    case 'SERVICE_UNREACHABLE':
      return 'the service is unreachable';
    default:
      return message;
  }
}

/** The service's message says the label or document is not ready (yet). */
function saysNotReady(serviceMessage: unknown): boolean {
  if (typeof serviceMessage !== 'string') return false;
  return /\b(label|document|waybill|pdf|file)s?\b/i.test(serviceMessage) && /\bnot\s+(yet\s+)?ready\b|\bnot_ready\b/i.test(serviceMessage);
}

/** Exponential backoff with full jitter (AWS architecture blog), capped. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(random() * ceiling);
}

export function formatDelay(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  return `${Math.round(ms / 1000)} s`;
}
