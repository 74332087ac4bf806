/**
 * One AgentApi operation asked of a running agent through its loopback UI bridge (the same
 * POST /api/<op> and token header the renderer uses), for command-line tools that cannot
 * open the ledger the agent holds.
 */
import {
  BRIDGE_TOKEN_HEADER,
  bridgePath,
  type AgentApi,
  type AgentInput,
  type AgentOperation,
  type AgentResult,
} from '../../shared/agent-api';
import { CodedError } from '../errors';
import type { BridgeInfo } from './bridge-file';

/** The agent answered with an error of its own (its code, message and the service's request id). */
export class AgentBridgeError extends CodedError {
  constructor(
    code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(code, message);
  }
}

export const AGENT_UNREACHABLE = 'AGENT_UNREACHABLE';

type AgentOutput<O extends AgentOperation> = Awaited<ReturnType<AgentApi[O]>>;

export interface BridgeCallOptions {
  /** @default 60000 (the end-of-day report reads the service's list) */
  readonly timeoutMs?: number;
}

/**
 * @throws CodedError AGENT_UNREACHABLE when nothing answers or the answer is not the bridge's
 * @throws AgentBridgeError with the agent's own code when the operation failed
 */
export async function callAgentBridge<O extends AgentOperation>(
  bridge: BridgeInfo,
  op: O,
  input: AgentInput<O>,
  options: BridgeCallOptions = {},
): Promise<AgentOutput<O>> {
  let result: AgentResult<AgentOutput<O>>;
  try {
    const response = await fetch(`${bridge.origin}${bridgePath(op)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: bridge.token },
      body: JSON.stringify(input ?? {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    result = (await response.json()) as AgentResult<AgentOutput<O>>;
  } catch (error) {
    throw new CodedError(AGENT_UNREACHABLE, `the agent's UI at ${bridge.origin} did not answer (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (typeof result !== 'object' || result === null || typeof result.ok !== 'boolean') {
    throw new CodedError(AGENT_UNREACHABLE, `the agent's UI at ${bridge.origin} answered something else than the agent's bridge`);
  }
  if (!result.ok) throw new AgentBridgeError(result.error.code, result.error.message, result.error.requestId);
  return result.value;
}
