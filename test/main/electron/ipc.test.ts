import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forwardAgentEvents, registerAgentIpc, trustedSenderCheck, type IpcSenderEvent } from '../../../src/main/electron/ipc';
import { createAppUrlPolicy } from '../../../src/main/electron/url-policy';
import { ApiError } from '../../../src/main/api/errors';
import { CodedError } from '../../../src/main/errors';
import type { Logger } from '../../../src/main/log';
import { MemoryApiKeyStore } from '../../../src/main/settings/api-key-store';
import { createConfSettingsStore } from '../../../src/main/settings/conf-settings-store';
import { createSettingsOperations } from '../../../src/main/settings/settings-operations';
import {
  AGENT_OPERATIONS,
  IPC_EVENT_CHANNEL,
  ipcChannel,
  type AgentApi,
  type AgentEvent,
  type AgentResult,
} from '../../../src/shared/agent-api';
import type { AgentStatus } from '../../../src/shared/domain';

// ipc.ts takes ipcMain as an option, so no electron mock is needed: this is the part of
// ipcMain it uses, with invoke() doing what Electron does with a renderer's invoke.
class FakeIpcMain {
  readonly handlers = new Map<string, (event: IpcSenderEvent, payload: unknown) => unknown>();
  handle(channel: string, listener: (event: never, ...args: never[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener as never);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  async invoke(channel: string, event: IpcSenderEvent, payload: unknown): Promise<AgentResult<unknown>> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return (await handler(event, payload)) as AgentResult<unknown>;
  }
}

const RENDERER_DIR = join(tmpdir(), 'print-station-app', 'out', 'renderer');
const APP_URL = `file://${RENDERER_DIR}/index.html`;
const WINDOW_ID = 7;
const STATUS: AgentStatus = {
  team: 'Team A',
  environment: 'sandbox',
  state: 'ok',
  paused: false,
  lastPrintAt: null,
  lastError: null,
  queued: 0,
  failed: 0,
};

function senderEvent(id: number, url: string | null, parent: unknown = null): IpcSenderEvent {
  return { sender: { id }, senderFrame: url === null ? null : { url, parent } } as unknown as IpcSenderEvent;
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m), redact() {} };
}

const PACK_FAILURE = { ok: false, problem: { code: 'PACK_NOT_DRAFT', message: 'not a draft', requestId: null, fields: [] } } as const;
const PACK_SETTINGS = { pickup: 'next', pickupTime: '16:00', shippingRuleIds: [] as string[], bookOnStableWeight: false } as const;

describe('registerAgentIpc', () => {
  let dir: string;
  let ipcMain: FakeIpcMain;
  let calls: Array<{ op: string; input: unknown }>;
  let logger: ReturnType<typeof recordingLogger>;
  let dispose: () => void;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-ipc-'));
    ipcMain = new FakeIpcMain();
    calls = [];
    logger = recordingLogger();
    const settings = createConfSettingsStore({ dataDir: dir, apiUrl: 'http://127.0.0.1:9/external/v1', logger });
    const settingsOps = createSettingsOperations({ settings, apiKeys: new MemoryApiKeyStore(null, logger) });
    const record = (op: string, input: unknown): void => {
      calls.push({ op, input });
    };
    // An operation this test does not name answers null, so adding one to the contract needs no edit here.
    const named: Partial<AgentApi> = {
      getStatus: async (input) => (record('getStatus', input), STATUS),
      lookup: async (input) => (
        record('lookup', input),
        { kind: 'not_found', scanned: input.scan, normalized: input.scan.trim(), message: 'nothing' }
      ),
      reprint: async (input) => {
        record('reprint', input);
        throw new ApiError('SERVICE_UNAVAILABLE', 'The label is not ready yet; try again in a few seconds.', {
          status: 503,
          requestId: 'req-503',
          serviceMessage: null,
          fieldErrors: {},
          retryAfterMs: 2000,
          method: 'POST',
          path: '/shipments/print',
        });
      },
      listJobs: async (input) => (record('listJobs', input), []),
      retryJob: async (input) => {
        record('retryJob', input);
        throw new CodedError('JOB_NOT_FOUND', `No job ${input.id}.`);
      },
      cancelJob: async (input) => {
        record('cancelJob', input);
        throw new TypeError('boom');
      },
      listPrinters: async (input) => (record('listPrinters', input), []),
      testPrint: async (input) => {
        record('testPrint', input);
        throw new Error('not used');
      },
      getSettings: async (input) => (record('getSettings', input), settingsOps.getSettings()),
      saveSettings: async (input) => (record('saveSettings', input), settingsOps.saveSettings(input)),
      testConnection: async (input) => (record('testConnection', input), { team: 'Team A', status: 'ok' }),
      setPaused: async (input) => (record('setPaused', input), { ...STATUS, paused: input.paused, state: input.paused ? 'paused' : 'ok' }),
      startDemo: async (input) => (record('startDemo', input), STATUS),
      saveDiagnostics: async (input) => (record('saveDiagnostics', input), { path: '/d/x.json', fileName: 'x.json', content: '{}' }),
      endOfDay: async (input) => {
        record('endOfDay', input);
        throw new CodedError('NOT_USED', 'not used here');
      },
      printMissing: async (input) => {
        record('printMissing', input);
        throw new CodedError('NOT_USED', 'not used here');
      },
      printManifests: async (input) => {
        record('printManifests', input);
        throw new CodedError('NOT_USED', 'not used here');
      },
      listConfiguredPrinters: async (input) => (record('listConfiguredPrinters', input), []),
      shipmentJobs: async (input) => (record('shipmentJobs', input), []),
      shipmentDocuments: async (input) => (record('shipmentDocuments', input), []),
      printShipmentDocuments: async (input) => {
        record('printShipmentDocuments', input);
        return { queued: 0, retried: 0, waiting: 0, documents: [] };
      },
      packDraft: async (input) => (record('packDraft', input), PACK_FAILURE),
      packPresets: async (input) => (record('packPresets', input), []),
      packUpdate: async (input) => (record('packUpdate', input), PACK_FAILURE),
      packRates: async (input) => (record('packRates', input), PACK_FAILURE),
      packServicePoints: async (input) => (record('packServicePoints', input), { ok: true, value: [] }),
      packUpload: async (input) => (record('packUpload', input), { ok: true, value: { documentType: input.documentType, bytes: 5 } }),
      packBook: async (input) => (record('packBook', input), PACK_FAILURE),
      packCancel: async (input) => (record('packCancel', input), PACK_FAILURE),
      getPackSettings: async (input) => (record('getPackSettings', input), PACK_SETTINGS),
      savePackSettings: async (input) => (record('savePackSettings', input), PACK_SETTINGS),
      listShippingRules: async (input) => (record('listShippingRules', input), []),
    };
    const api = new Proxy(named as AgentApi, {
      get: (target, op: string) => target[op as keyof AgentApi] ?? (async (input: unknown) => (record(op, input), null)),
    });
    const policy = createAppUrlPolicy({ rendererDir: RENDERER_DIR });
    dispose = registerAgentIpc({
      ipcMain: ipcMain as never,
      api,
      isTrustedSender: trustedSenderCheck({ knownWebContentsIds: () => [WINDOW_ID], policy }),
      logger,
    }).dispose;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('registers exactly one handler per AgentOperation and removes them on dispose', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual(AGENT_OPERATIONS.map(ipcChannel).sort());
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('passes a valid payload from the app window to the api and returns its value', async () => {
    const result = await ipcMain.invoke(ipcChannel('lookup'), senderEvent(WINDOW_ID, `${APP_URL}#scan`), {
      scan: ' 00340434161234567890 ',
    });
    expect(result).toEqual({
      ok: true,
      value: { kind: 'not_found', scanned: ' 00340434161234567890 ', normalized: '00340434161234567890', message: 'nothing' },
    });
    expect(calls).toEqual([{ op: 'lookup', input: { scan: ' 00340434161234567890 ' } }]);
    expect(await ipcMain.invoke(ipcChannel('setPaused'), senderEvent(WINDOW_ID, APP_URL), { paused: true })).toEqual({
      ok: true,
      value: { ...STATUS, paused: true, state: 'paused' },
    });
  });

  it.each([
    ['an unknown webContents', senderEvent(99, APP_URL)],
    ['the app window showing another page', senderEvent(WINDOW_ID, 'https://evil.example/index.html')],
    ['a file outside the renderer folder', senderEvent(WINDOW_ID, `file://${RENDERER_DIR}/../../secrets.html`)],
    ['a subframe of the app window', senderEvent(WINDOW_ID, APP_URL, { url: APP_URL })],
    ['a destroyed frame', senderEvent(WINDOW_ID, null)],
  ])('drops calls from %s without reaching the api', async (_name, event) => {
    const result = await ipcMain.invoke(ipcChannel('getSettings'), event, {});
    expect(result).toEqual({ ok: false, error: { code: 'UNTRUSTED_SENDER', message: expect.any(String), requestId: null } });
    expect(calls).toEqual([]);
    expect(logger.lines.some((l) => l.includes('untrusted sender'))).toBe(true);
  });

  it('accepts the dev server origin only when one is configured', async () => {
    const devPolicy = createAppUrlPolicy({ rendererDir: RENDERER_DIR, devServerUrl: 'http://localhost:5173/' });
    const check = trustedSenderCheck({ knownWebContentsIds: () => [WINDOW_ID], policy: devPolicy });
    expect(check(senderEvent(WINDOW_ID, 'http://localhost:5173/index.html'))).toBe(true);
    expect(check(senderEvent(WINDOW_ID, 'http://localhost:5174/index.html'))).toBe(false);
    const prodCheck = trustedSenderCheck({
      knownWebContentsIds: () => [WINDOW_ID],
      policy: createAppUrlPolicy({ rendererDir: RENDERER_DIR }),
    });
    expect(prodCheck(senderEvent(WINDOW_ID, 'http://localhost:5173/index.html'))).toBe(false);
  });

  it.each([
    ['lookup', { scan: 42 }, 'scan'],
    ['lookup', { scan: 'x', extra: true }, 'extra'],
    ['reprint', { shipmentId: '' }, 'shipmentId'],
    ['reprint', { shipmentId: 'a', copies: 11 }, 'copies'],
    ['setPaused', { paused: 'yes' }, 'paused'],
    ['saveSettings', { apiUrl: 'not a url' }, 'apiUrl'],
    ['listJobs', { state: 'exploded' }, 'state'],
  ] as const)('rejects an invalid %s payload naming the field (%j)', async (op, payload, field) => {
    const result = await ipcMain.invoke(ipcChannel(op), senderEvent(WINDOW_ID, APP_URL), payload);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(result.error.requestId).toBeNull();
    expect(result.error.message).toContain(`"${field}"`);
    expect(calls).toEqual([]);
  });

  it('turns api errors into {code, message, requestId}, keeping the service request id (and the message code for the UI)', async () => {
    const event = senderEvent(WINDOW_ID, APP_URL);
    const reprint = await ipcMain.invoke(ipcChannel('reprint'), event, { shipmentId: 'f0e1' });
    const message = 'The label is not ready yet; try again in a few seconds. (request id req-503)';
    expect(reprint).toEqual({
      ok: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message,
        requestId: 'req-503',
        agentMessage: {
          code: 'service.error',
          params: { apiCode: 'SERVICE_UNAVAILABLE', status: 503, serviceMessage: null, requestId: 'req-503', text: message },
        },
      },
    });
    const retry = await ipcMain.invoke(ipcChannel('retryJob'), event, { id: 'j1' });
    expect(retry).toEqual({ ok: false, error: { code: 'JOB_NOT_FOUND', message: 'No job j1.', requestId: null } });
    const cancel = await ipcMain.invoke(ipcChannel('cancelJob'), event, { id: 'j1' });
    expect(cancel).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'boom', requestId: null } });
  });

  it('accepts the API key through saveSettings but never sends it back', async () => {
    const event = senderEvent(WINDOW_ID, APP_URL);
    const saved = await ipcMain.invoke(ipcChannel('saveSettings'), event, { apiKey: 'sk_secret_key_123456' });
    const read = await ipcMain.invoke(ipcChannel('getSettings'), event, {});
    for (const result of [saved, read]) {
      expect(result.ok).toBe(true);
      expect(JSON.stringify(result)).not.toContain('sk_secret_key_123456');
      if (result.ok) expect((result.value as { apiKeySet: boolean }).apiKeySet).toBe(true);
    }
  });
});

describe('forwardAgentEvents', () => {
  it('sends agent events to app windows only, and stops on unsubscribe', () => {
    const listeners = new Set<(event: AgentEvent) => void>();
    const subscribe = (listener: (event: AgentEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    const sent: Array<{ to: string; channel: string; event: unknown }> = [];
    const contents = (name: string, url: string, destroyed = false) => ({
      isDestroyed: () => destroyed,
      getURL: () => url,
      send: (channel: string, event: unknown) => sent.push({ to: name, channel, event }),
    });
    const windows = [contents('app', APP_URL), contents('elsewhere', 'https://evil.example/'), contents('gone', APP_URL, true)];
    const stop = forwardAgentEvents({ subscribe, targets: () => windows, policy: createAppUrlPolicy({ rendererDir: RENDERER_DIR }) });
    const event: AgentEvent = { type: 'status', status: STATUS };
    for (const listener of listeners) listener(event);
    expect(sent).toEqual([{ to: 'app', channel: IPC_EVENT_CHANNEL, event }]);
    stop();
    expect(listeners.size).toBe(0);
  });
});
