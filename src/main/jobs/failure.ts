/**
 * Classifying a failure by what it carries, not by its class: ApiError (service) and
 * PrintError (printer) both carry `retryable`, and ApiError carries `retryAfterMs` and
 * `requestId`. Codes are matched by their registries (API_ERROR_CODES, PRINT_ERROR_CODES).
 */
import { englishOf, plainMessage, textMessage, type AgentMessage } from '../../shared/agent-messages';
import { API_ERROR_CODES } from '../api/errors';
import { messageOf } from '../errors';

export interface FailureInfo {
  /** Worth retrying by itself (network, 5xx, 429, label not ready, printer busy). */
  readonly transient: boolean;
  /** What the packer reads: the English of `agentMessage`. */
  readonly message: string;
  /** The same as a message code, for the UI's languages. */
  readonly agentMessage: AgentMessage;
  /** The service's X-Service-Request-ID, when the service failed. */
  readonly requestId: string | null;
  /** The service's Retry-After, which wins over our own backoff. */
  readonly retryAfterMs: number | null;
}

export function classifyFailure(error: unknown): FailureInfo {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  // Errors that do not say (a bug, a socket error from a fake) are retried a bounded number
  // of times: giving up at once would lose labels to a blip.
  const transient = typeof e.retryable === 'boolean' ? e.retryable : true;
  const requestId = typeof e.requestId === 'string' ? e.requestId : null;
  const retryAfterMs = typeof e.retryAfterMs === 'number' && e.retryAfterMs >= 0 ? e.retryAfterMs : null;
  const agentMessage = transient ? waitingReason(e, error) : messageOf(error);
  return { transient, message: englishOf(agentMessage), agentMessage, requestId, retryAfterMs };
}

export { messageOf } from '../errors';

/** What a printer that is down said: its readiness (with its code, when it has one), else the error that stopped the job. */
export function adviceOf(
  readiness: { readonly detail: string | null; readonly message?: AgentMessage | null },
  error: unknown,
): AgentMessage {
  if (readiness.message) return readiness.message;
  return readiness.detail !== null ? textMessage(readiness.detail) : messageOf(error);
}

function waitingReason(e: Record<string, unknown>, error: unknown): AgentMessage {
  switch (e.code) {
    case API_ERROR_CODES.UNAVAILABLE:
      if (e.status !== 503) return plainMessage('service.unavailable');
      // A 503 is also an overloaded or restarting service: "not ready" only when it says so.
      return plainMessage(saysNotReady(e.serviceMessage) ? 'service.labelNotReady' : 'service.unavailable503');
    case API_ERROR_CODES.RATE_LIMITED:
      return plainMessage('service.slowDown');
    case API_ERROR_CODES.TIMEOUT:
      return plainMessage('service.noAnswer');
    case API_ERROR_CODES.NETWORK:
      return plainMessage('service.unreachable');
    default:
      return messageOf(error);
  }
}

/** The service's message says the label or document is not ready (yet). */
function saysNotReady(serviceMessage: unknown): boolean {
  if (typeof serviceMessage !== 'string') return false;
  return /\b(label|document|waybill|pdf|file)s?\b/i.test(serviceMessage) && /\bnot\s+(yet\s+)?ready\b|\bnot_ready\b/i.test(serviceMessage);
}

/** "2 s", "500 ms" (src/shared/agent-messages.ts composes reasons with it). */
export { formatDelay } from '../../shared/agent-messages';
