import { AGENT_ERROR_CODES } from '../shared/agent-error-codes';
import { englishOf, isAgentMessage, textMessage, type AgentMessage } from '../shared/agent-messages';
import type { AgentErrorPayload } from '../shared/domain';

/**
 * Coded errors (modelled on undici's lib/core/errors.js): every error the agent raises
 * carries a stable `code` that tests, logs and the UI switch on, and a message that says
 * what to do about it.
 */
export class CodedError extends Error {
  readonly code: string;
  /** The message as a code with parameters (src/shared/agent-messages.ts), for the UI's languages; null when it has none. */
  readonly agentMessage: AgentMessage | null;

  /** A message given as an AgentMessage becomes the error's English `message` (composed in one place). */
  constructor(code: string, message: string | AgentMessage, options?: { cause?: unknown }) {
    super(typeof message === 'string' ? message : englishOf(message), options);
    this.name = new.target.name;
    this.code = code;
    this.agentMessage = typeof message === 'string' ? null : message;
  }
}

/** The shape errors take when they cross to the UI (IPC, web bridge). */
export function toErrorPayload(error: unknown): AgentErrorPayload {
  if (error instanceof CodedError) {
    const requestId = 'requestId' in error && typeof error.requestId === 'string' ? error.requestId : null;
    return error.agentMessage
      ? { code: error.code, message: error.message, requestId, agentMessage: error.agentMessage }
      : { code: error.code, message: error.message, requestId };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: AGENT_ERROR_CODES.INTERNAL, message, requestId: null };
}

/** Anything thrown as a message code: its own (CodedError.agentMessage), else its words as text without a code. */
export function messageOf(error: unknown): AgentMessage {
  const carried = (error as { agentMessage?: unknown } | null)?.agentMessage;
  if (isAgentMessage(carried)) return carried;
  return textMessage(error instanceof Error ? error.message : String(error));
}
