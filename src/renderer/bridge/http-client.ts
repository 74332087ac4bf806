/**
 * The AgentClient over the headless agent's loopback web bridge (src/main/web): one POST
 * per operation, AgentResult unwrapped, events over EventSource.
 */
import {
  AGENT_OPERATIONS,
  BRIDGE_EVENTS_PATH,
  BRIDGE_TOKEN_HEADER,
  bridgePath,
  type AgentClient,
  type AgentEvent,
  type AgentOperation,
  type AgentResult,
} from '../../shared/agent-api';
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import { AgentCallError } from './agent-call-error';
import { t } from '../i18n';

export interface HttpClientOptions {
  readonly token: string | null;
  /** @default 3000 ms, doubling up to 30 s */
  readonly reconnectMs?: number;
}

export function createHttpAgentClient(options: HttpClientOptions): AgentClient {
  const token = options.token ?? '';
  const call = async (op: AgentOperation, input: unknown): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(bridgePath(op), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: token },
        body: JSON.stringify(input ?? {}),
        cache: 'no-store',
      });
    } catch {
      throw new AgentCallError({ code: AGENT_ERROR_CODES.AGENT_OFFLINE, message: t('agent.offline'), requestId: null });
    }
    let result: AgentResult<unknown>;
    try {
      result = (await response.json()) as AgentResult<unknown>;
    } catch {
      throw new AgentCallError({
        code: AGENT_ERROR_CODES.AGENT_BAD_RESPONSE,
        message: t('agent.badResponse', { status: String(response.status) }),
        requestId: null,
      });
    }
    if (!result.ok) throw new AgentCallError(result.error);
    return result.value;
  };

  const client = Object.fromEntries(AGENT_OPERATIONS.map((op) => [op, (input: unknown) => call(op, input)])) as unknown as AgentClient;
  const events = createEventFeed(token, options.reconnectMs ?? 3000);
  return { ...client, onEvent: events.subscribe };
}

/** One EventSource shared by every listener, opened on the first subscription. */
function createEventFeed(token: string, reconnectMs: number) {
  const listeners = new Set<(event: AgentEvent) => void>();
  let source: EventSource | null = null;
  let delay = reconnectMs;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const open = (): void => {
    source = new EventSource(`${BRIDGE_EVENTS_PATH}?token=${encodeURIComponent(token)}`);
    source.onopen = () => {
      delay = reconnectMs;
    };
    source.onmessage = (message: MessageEvent<string>) => {
      let event: AgentEvent;
      try {
        event = JSON.parse(message.data) as AgentEvent;
      } catch {
        return;
      }
      for (const listener of listeners) listener(event);
    };
    source.onerror = () => {
      // EventSource retries by itself while CONNECTING; once CLOSED (agent restarted
      // with an HTTP error, or gone) it never does, so reopen with backoff.
      if (source?.readyState !== EventSource.CLOSED) return;
      source = null;
      timer = setTimeout(() => {
        timer = null;
        if (listeners.size > 0) open();
      }, delay);
      delay = Math.min(delay * 2, 30_000);
    };
  };

  return {
    subscribe(listener: (event: AgentEvent) => void): () => void {
      listeners.add(listener);
      if (!source && !timer) open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          source?.close();
          source = null;
          if (timer) clearTimeout(timer);
          timer = null;
        }
      };
    },
  };
}
