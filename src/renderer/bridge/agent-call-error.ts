import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import type { AgentErrorPayload } from '../../shared/domain';
import { isAgentMessage, type AgentMessage } from '../../shared/agent-messages';
import { errorWords } from '../agent-words';

/** An operation failure as the UI sees it: the agent's code, message and request id. */
export class AgentCallError extends Error implements AgentErrorPayload {
  readonly code: string;
  readonly requestId: string | null;
  readonly agentMessage: AgentMessage | null;

  constructor(payload: AgentErrorPayload) {
    super(payload.message);
    this.name = 'AgentCallError';
    this.code = payload.code;
    this.requestId = payload.requestId;
    this.agentMessage = isAgentMessage(payload.agentMessage) ? payload.agentMessage : null;
  }
}

/** Whatever was thrown (preload, fetch, bridge), as the payload the UI shows. */
export function toPayload(error: unknown): AgentErrorPayload {
  if (error instanceof AgentCallError) {
    const payload = { code: error.code, message: error.message, requestId: error.requestId };
    return error.agentMessage ? { ...payload, agentMessage: error.agentMessage } : payload;
  }
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

/** The message to show, in the UI's language: always with the request id, so support can find the call. */
export function describeError(error: unknown): string {
  return errorWords(toPayload(error));
}
