/**
 * The one way an AgentApi operation is run for a UI, whichever transport carried it (IPC
 * in the desktop app, the loopback web bridge for a browser): validate the input with the
 * operation's schema from src/shared/agent-api.ts, call the operation, and answer with an
 * AgentResult. Errors cross as data with the same code and wording on both transports.
 * The transports only check who is calling and carry the result.
 */
import type { z } from 'zod';
import { agentInputs, type AgentApi, type AgentOperation, type AgentResult } from '../../shared/agent-api';
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import { toErrorPayload } from '../errors';
import type { Logger } from '../log';

export interface OperationDispatcherOptions {
  readonly api: AgentApi;
  /**
   * Where invalid input (warn) and uncoded failures (error) are logged.
   * @default none (nothing is logged)
   */
  readonly logger?: Logger;
  /**
   * Prefix of the log lines, naming the transport.
   * @default 'agent'
   */
  readonly logPrefix?: string;
}

/**
 * What came of one call. `rejected` is true when the input never reached the operation
 * (the bridge answers those with HTTP 400); an operation's own failure is `ok: false`
 * with `rejected: false`.
 */
export interface Dispatched {
  readonly result: AgentResult<unknown>;
  readonly rejected: boolean;
}

export type OperationDispatcher = (op: AgentOperation, input: unknown) => Promise<Dispatched>;

export function createOperationDispatcher(options: OperationDispatcherOptions): OperationDispatcher {
  const { api, logger } = options;
  const prefix = options.logPrefix ?? 'agent';
  return async (op, input) => {
    // No input (an empty bridge body, an invoke without a payload) means `{}`.
    const parsed = (agentInputs[op] as z.ZodType).safeParse(input ?? {});
    if (!parsed.success) {
      const message = describeInvalidInput(op, parsed.error);
      logger?.warn(`${prefix}: ${message}`);
      return { result: agentFailure(AGENT_ERROR_CODES.INVALID_INPUT, message), rejected: true };
    }
    try {
      const call = api[op] as (input: unknown) => Promise<unknown>;
      return { result: { ok: true, value: await call.call(api, parsed.data) }, rejected: false };
    } catch (error) {
      const payload = toErrorPayload(error);
      if (payload.code === AGENT_ERROR_CODES.INTERNAL) logger?.error(`${prefix}: ${op} failed: ${payload.message}`);
      return { result: { ok: false, error: payload }, rejected: false };
    }
  };
}

/** A failure raised by a transport or the dispatcher itself: no service call, so no request id. */
export function agentFailure(code: string, message: string): AgentResult<never> {
  return { ok: false, error: { code, message, requestId: null } };
}

/** `Invalid input for lookup: field "scan": expected string, received number; …`, naming every offending field (up to 5). */
export function describeInvalidInput(op: AgentOperation, error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    const message = issue.message.replace(/^Invalid input: /, '');
    return path ? `field "${path}": ${message}` : message;
  });
  return parts.length > 0 ? `Invalid input for ${op}: ${parts.join('; ')}` : `Invalid input for ${op}.`;
}
