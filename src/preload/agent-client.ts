/**
 * Builds the AgentClient the preload exposes: one function per AgentOperation, derived
 * from AGENT_OPERATIONS so it cannot drift from the contract, plus onEvent. Only these
 * closures cross the context bridge, never ipcRenderer or an IPC event (whose
 * `sender` is ipcRenderer itself).
 */
import type { IpcRenderer } from 'electron';
import {
  AGENT_OPERATIONS,
  IPC_EVENT_CHANNEL,
  UI_LANGUAGE_CHANNEL,
  ipcChannel,
  type AgentClient,
  type AgentEvent,
  type AgentResult,
} from '../shared/agent-api';
import type { UiLanguage } from '../shared/tray-words';
import type { AgentErrorPayload } from '../shared/domain';

/** The error the renderer sees when an operation fails. */
export interface AgentCallError extends Error {
  readonly code: string;
  readonly requestId: string | null;
}

export function createAgentClient(ipcRenderer: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener' | 'send'>): AgentClient {
  const client: Record<string, unknown> = {};
  for (const op of AGENT_OPERATIONS) {
    client[op] = async (input?: unknown) => {
      const result = (await ipcRenderer.invoke(ipcChannel(op), input ?? {})) as AgentResult<unknown>;
      if (result.ok) return result.value;
      throw agentCallError(result.error);
    };
  }
  client.onEvent = (listener: (event: AgentEvent) => void): (() => void) => {
    const handler = (_event: unknown, payload: AgentEvent): void => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  };
  // One way: the tray follows the window's language; nothing comes back.
  client.setUiLanguage = (language: UiLanguage): void => ipcRenderer.send(UI_LANGUAGE_CHANNEL, { language });
  return Object.freeze(client) as unknown as AgentClient;
}

/**
 * contextBridge copies only an Error's message into the page (custom properties are
 * dropped: https://www.electronjs.org/docs/latest/api/context-bridge#parameter--error--return-type-support),
 * so the request id is also written into the message: it must reach the user either way.
 */
export function agentCallError(payload: AgentErrorPayload): AgentCallError {
  const suffix = payload.requestId && !payload.message.includes(payload.requestId) ? ` (request ${payload.requestId})` : '';
  const error = new Error(`${payload.message}${suffix}`) as Error & { code: string; requestId: string | null };
  error.name = 'AgentCallError';
  error.code = payload.code;
  error.requestId = payload.requestId;
  return error;
}
