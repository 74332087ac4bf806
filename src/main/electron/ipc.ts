/**
 * The one IPC registration helper (electron/fiddle model): one `ipcMain.handle` per
 * AgentOperation, each checking the sender, validating the payload with the shared zod
 * schema, and answering with an AgentResult envelope (errors cross as data).
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { z } from 'zod';
import {
  AGENT_OPERATIONS,
  IPC_EVENT_CHANNEL,
  agentInputs,
  ipcChannel,
  type AgentApi,
  type AgentEvent,
  type AgentOperation,
  type AgentResult,
} from '../../shared/agent-api';
import { toErrorPayload } from '../errors';
import type { Logger } from '../log';
import type { AppUrlPolicy } from './url-policy';

/** What of the invoke event the sender check reads. */
export type IpcSenderEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

export interface RegisterAgentIpcOptions {
  readonly ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  readonly api: AgentApi;
  /** Decides whether an invoke may reach the agent. See trustedSenderCheck(). */
  readonly isTrustedSender: (event: IpcSenderEvent) => boolean;
  readonly logger: Logger;
}

export interface AgentIpcRegistration {
  /** Removes every handler (window teardown, tests). */
  dispose(): void;
}

export function registerAgentIpc(options: RegisterAgentIpcOptions): AgentIpcRegistration {
  const { ipcMain, api, isTrustedSender, logger } = options;
  for (const op of AGENT_OPERATIONS) {
    ipcMain.handle(ipcChannel(op), (event, payload: unknown) => handle(op, event, payload));
  }

  async function handle(op: AgentOperation, event: IpcSenderEvent, payload: unknown): Promise<AgentResult<unknown>> {
    if (!isTrustedSender(event)) {
      logger.warn(`ipc: dropped ${op} from an untrusted sender (webContents ${safeId(event)})`);
      return failure('UNTRUSTED_SENDER', 'This window is not allowed to talk to the agent.');
    }
    const parsed = (agentInputs[op] as z.ZodType).safeParse(payload ?? {});
    if (!parsed.success) {
      const message = describeInvalid(op, parsed.error);
      logger.warn(`ipc: ${message}`);
      return failure('INVALID_INPUT', message);
    }
    try {
      const call = api[op] as (input: unknown) => Promise<unknown>;
      const value = await call.call(api, parsed.data);
      return { ok: true, value };
    } catch (error) {
      const payloadError = toErrorPayload(error);
      if (payloadError.code === 'INTERNAL') logger.error(`ipc: ${op} failed: ${payloadError.message}`);
      return { ok: false, error: payloadError };
    }
  }

  return {
    dispose() {
      for (const op of AGENT_OPERATIONS) ipcMain.removeHandler(ipcChannel(op));
    },
  };
}

export interface TrustedSenderOptions {
  /** The webContents ids of the app's own windows, looked up at call time. */
  readonly knownWebContentsIds: () => Iterable<number>;
  readonly policy: AppUrlPolicy;
}

/**
 * A sender is trusted when it is one of the app's windows AND the calling frame is that
 * window's top frame showing the app's own URL: a window that was navigated elsewhere,
 * or an embedded frame, gets nothing.
 */
export function trustedSenderCheck(options: TrustedSenderOptions): (event: IpcSenderEvent) => boolean {
  return (event) => {
    const id = safeId(event);
    if (id === null || !new Set(options.knownWebContentsIds()).has(id)) return false;
    const frame = event.senderFrame;
    if (!frame) return false;
    if (frame.parent !== null) return false;
    return options.policy.isAppUrl(frame.url);
  };
}

export interface ForwardAgentEventsOptions {
  readonly subscribe: (listener: (event: AgentEvent) => void) => () => void;
  /** The app's windows' webContents, looked up at send time. */
  readonly targets: () => Iterable<Pick<WebContents, 'send' | 'isDestroyed' | 'getURL'>>;
  readonly policy: AppUrlPolicy;
}

/** Pushes agent events to the app's windows on IPC_EVENT_CHANNEL; returns the unsubscribe. */
export function forwardAgentEvents(options: ForwardAgentEventsOptions): () => void {
  return options.subscribe((event) => {
    for (const contents of options.targets()) {
      // A window showing something other than the app (should navigation ever slip) gets no data.
      if (contents.isDestroyed() || !options.policy.isAppUrl(contents.getURL())) continue;
      contents.send(IPC_EVENT_CHANNEL, event);
    }
  });
}

function failure(code: string, message: string): AgentResult<never> {
  return { ok: false, error: { code, message, requestId: null } };
}

function describeInvalid(op: AgentOperation, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid input for ${op}.`;
  const field = issue.path.length > 0 ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? (issue.keys ?? []).join(', ') : '(input)';
  return `Invalid input for ${op}: "${field}" ${issue.message}`;
}

function safeId(event: IpcSenderEvent): number | null {
  try {
    return event.sender.id;
  } catch {
    return null;
  }
}
