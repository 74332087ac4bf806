/**
 * The one IPC registration helper (electron/fiddle model): one `ipcMain.handle` per
 * AgentOperation, each checking the sender and handing the payload to the operation
 * dispatcher (src/main/agent/operation-dispatcher.ts), which validates it, calls the
 * operation and answers with an AgentResult envelope (errors cross as data).
 */
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import {
  AGENT_OPERATIONS,
  IPC_EVENT_CHANNEL,
  UI_LANGUAGE_CHANNEL,
  ipcChannel,
  uiLanguageInput,
  type AgentApi,
  type AgentEvent,
  type AgentResult,
} from '../../shared/agent-api';
import type { UiLanguage } from '../../shared/tray-words';
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import { agentFailure, createOperationDispatcher } from '../agent/operation-dispatcher';
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
  const { ipcMain, isTrustedSender, logger } = options;
  const dispatch = createOperationDispatcher({ api: options.api, logger, logPrefix: 'ipc' });
  for (const op of AGENT_OPERATIONS) {
    ipcMain.handle(ipcChannel(op), async (event, payload: unknown): Promise<AgentResult<unknown>> => {
      if (!isTrustedSender(event)) {
        logger.warn(`ipc: dropped ${op} from an untrusted sender (webContents ${safeId(event)})`);
        return agentFailure(AGENT_ERROR_CODES.UNTRUSTED_SENDER, 'This window is not allowed to talk to the agent.');
      }
      return (await dispatch(op, payload)).result;
    });
  }

  return {
    dispose() {
      for (const op of AGENT_OPERATIONS) ipcMain.removeHandler(ipcChannel(op));
    },
  };
}

export interface RegisterUiLanguageOptions {
  readonly ipcMain: Pick<IpcMain, 'on' | 'removeListener'>;
  readonly isTrustedSender: (event: IpcSenderEvent) => boolean;
  /** Called with each language a trusted window says it shows. */
  readonly onLanguage: (language: UiLanguage) => void;
  readonly logger: Logger;
}

/** The window's language (UI_LANGUAGE_CHANNEL), checked like an operation: a trusted sender, a valid payload. */
export function registerUiLanguage(options: RegisterUiLanguageOptions): AgentIpcRegistration {
  const { ipcMain, isTrustedSender, logger } = options;
  const listener = (event: IpcMainEvent, payload: unknown): void => {
    if (!isTrustedSender(event)) {
      logger.warn(`ipc: dropped the UI language from an untrusted sender (webContents ${safeId(event)})`);
      return;
    }
    const parsed = uiLanguageInput.safeParse(payload);
    if (!parsed.success) {
      logger.warn(`ipc: ignored a UI language that is none of the five: ${JSON.stringify(payload)?.slice(0, 80)}`);
      return;
    }
    options.onLanguage(parsed.data.language);
  };
  ipcMain.on(UI_LANGUAGE_CHANNEL, listener);
  return { dispose: () => void ipcMain.removeListener(UI_LANGUAGE_CHANNEL, listener) };
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

function safeId(event: IpcSenderEvent): number | null {
  try {
    return event.sender.id;
  } catch {
    return null;
  }
}
