import { AGENT_ERROR_CODES } from '../shared/agent-error-codes';

/**
 * Coded errors (modelled on undici's lib/core/errors.js): every error the agent raises
 * carries a stable `code` that tests, logs and the UI switch on, and a message that says
 * what to do about it.
 */
export class CodedError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The shape errors take when they cross to the UI (IPC, web bridge). */
export function toErrorPayload(error: unknown): { code: string; message: string; requestId: string | null } {
  if (error instanceof CodedError) {
    const requestId = 'requestId' in error && typeof error.requestId === 'string' ? error.requestId : null;
    return { code: error.code, message: error.message, requestId };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: AGENT_ERROR_CODES.INTERNAL, message, requestId: null };
}
