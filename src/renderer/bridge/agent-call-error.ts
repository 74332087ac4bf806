import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import type { AgentErrorPayload } from '../../shared/domain';
import { t } from '../i18n';

/** An operation failure as the UI sees it: the agent's code, message and request id. */
export class AgentCallError extends Error implements AgentErrorPayload {
  readonly code: string;
  readonly requestId: string | null;

  constructor(payload: AgentErrorPayload) {
    super(payload.message);
    this.name = 'AgentCallError';
    this.code = payload.code;
    this.requestId = payload.requestId;
  }
}

/** Whatever was thrown (preload, fetch, bridge), as the payload the UI shows. */
export function toPayload(error: unknown): AgentErrorPayload {
  if (error instanceof AgentCallError) return { code: error.code, message: error.message, requestId: error.requestId };
  if (error && typeof error === 'object') {
    const e = error as { code?: unknown; message?: unknown; requestId?: unknown };
    return {
      code: typeof e.code === 'string' ? e.code : AGENT_ERROR_CODES.UI_ERROR,
      message: typeof e.message === 'string' ? e.message : String(error),
      requestId: typeof e.requestId === 'string' ? e.requestId : null,
    };
  }
  return { code: AGENT_ERROR_CODES.UI_ERROR, message: String(error), requestId: null };
}

/** The message to show: always with the request id, so support can find the call. */
export function describeError(error: unknown): string {
  const payload = toPayload(error);
  const idShown = payload.requestId !== null && payload.message.includes(payload.requestId);
  return payload.requestId && !idShown ? t('common.withRequestId', { message: payload.message, id: payload.requestId }) : payload.message;
}
