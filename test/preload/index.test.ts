import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AGENT_OPERATIONS,
  IPC_EVENT_CHANNEL,
  UI_LANGUAGE_CHANNEL,
  ipcChannel,
  type AgentEvent,
  type AgentResult,
} from '../../src/shared/agent-api';

// No Electron binary here: contextBridge and ipcRenderer are mocked, the one place a mock is right.
const electron = vi.hoisted(() => {
  const exposed = new Map<string, unknown>();
  return {
    exposed,
    contextBridge: { exposeInMainWorld: vi.fn((key: string, api: unknown) => exposed.set(key, api)) },
    ipcRenderer: null as unknown,
  };
});

class FakeIpcRenderer extends EventEmitter {
  readonly invocations: Array<{ channel: string; input: unknown }> = [];
  readonly sent: Array<[string, unknown]> = [];
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
  reply: (channel: string, input: unknown) => AgentResult<unknown> = (channel) => ({ ok: true, value: { channel } });
  async invoke(channel: string, input: unknown): Promise<AgentResult<unknown>> {
    this.invocations.push({ channel, input });
    return this.reply(channel, input);
  }
}
const ipcRenderer = new FakeIpcRenderer();
electron.ipcRenderer = ipcRenderer;
vi.mock('electron', () => ({ contextBridge: electron.contextBridge, ipcRenderer: electron.ipcRenderer }));

await import('../../src/preload/index');
const api = electron.exposed.get('printStation') as Record<string, (...args: unknown[]) => unknown>;

describe('preload', () => {
  beforeEach(() => {
    ipcRenderer.invocations.length = 0;
    ipcRenderer.reply = (channel) => ({ ok: true, value: { channel } });
  });

  it('exposes exactly one function per AgentOperation plus onEvent and setUiLanguage, under window.printStation only', () => {
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect([...electron.exposed.keys()]).toEqual(['printStation']);
    expect(Object.keys(api).sort()).toEqual([...AGENT_OPERATIONS, 'onEvent', 'setUiLanguage'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
  });

  it('never exposes ipcRenderer, directly or as a property', () => {
    expect(Object.values(api)).not.toContain(ipcRenderer);
    expect(Object.keys(api)).not.toContain('ipcRenderer');
    for (const value of Object.values(api)) {
      expect(Object.values(value as object)).not.toContain(ipcRenderer);
    }
  });

  it.each(AGENT_OPERATIONS)('%s invokes its channel with the input and unwraps the value', async (op) => {
    const input = { probe: op };
    await expect(api[op]!(input)).resolves.toEqual({ channel: ipcChannel(op) });
    expect(ipcRenderer.invocations).toEqual([{ channel: ipcChannel(op), input }]);
  });

  it('setUiLanguage tells main the language one way, on its own channel', () => {
    ipcRenderer.sent.length = 0;
    expect(api.setUiLanguage!('fi')).toBeUndefined();
    expect(ipcRenderer.sent).toEqual([[UI_LANGUAGE_CHANNEL, { language: 'fi' }]]);
    expect(ipcRenderer.invocations).toEqual([]);
  });

  it('sends {} when an operation is called without input', async () => {
    await api.getStatus!();
    expect(ipcRenderer.invocations).toEqual([{ channel: ipcChannel('getStatus'), input: {} }]);
  });

  it('throws an Error carrying code, message and request id when the result is an error', async () => {
    ipcRenderer.reply = () => ({ ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is down.', requestId: 'req-42' } });
    const error = (await (api.reprint!({ shipmentId: 's1' }) as Promise<unknown>).catch((e: unknown) => e)) as Error & {
      code: string;
      requestId: string | null;
    };
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.requestId).toBe('req-42');
    // contextBridge keeps only the message, so the request id must be in it too.
    expect(error.message).toBe('The service is down. (request req-42)');

    ipcRenderer.reply = () => ({
      ok: false,
      error: { code: 'SERVICE_UNAVAILABLE', message: 'Down (request id req-43)', requestId: 'req-43' },
    });
    const again = (await (api.reprint!({ shipmentId: 's1' }) as Promise<unknown>).catch((e: unknown) => e)) as Error;
    expect(again.message).toBe('Down (request id req-43)');
  });

  it('onEvent delivers event payloads (never the IPC event) and unsubscribes', () => {
    const received: unknown[] = [];
    const off = (api.onEvent as (l: (e: AgentEvent) => void) => () => void)((event) => received.push(event));
    const event: AgentEvent = { type: 'alert', shipmentId: 's1', title: 'Delayed', message: 'Parcel delayed' };
    ipcRenderer.emit(IPC_EVENT_CHANNEL, { sender: ipcRenderer }, event);
    expect(received).toEqual([event]);
    off();
    ipcRenderer.emit(IPC_EVENT_CHANNEL, { sender: ipcRenderer }, event);
    expect(received).toHaveLength(1);
    expect(ipcRenderer.listenerCount(IPC_EVENT_CHANNEL)).toBe(0);
  });
});
