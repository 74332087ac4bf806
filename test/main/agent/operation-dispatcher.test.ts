import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperationDispatcher } from '../../../src/main/agent/operation-dispatcher';
import { registerAgentIpc, type IpcSenderEvent } from '../../../src/main/electron/ipc';
import { CodedError } from '../../../src/main/errors';
import type { Logger } from '../../../src/main/log';
import { startUiServer, type UiServer } from '../../../src/main/web/ui-server';
import { useTempDir } from '../../support/testbed';
import {
  BRIDGE_TOKEN_HEADER,
  bridgePath,
  ipcChannel,
  type AgentApi,
  type AgentOperation,
  type AgentResult,
} from '../../../src/shared/agent-api';
import { AGENT_ERROR_CODES } from '../../../src/shared/agent-error-codes';
import type { AgentStatus } from '../../../src/shared/domain';

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

/** Every operation records its input; retryJob fails coded, cancelJob uncoded. */
function recordingApi(calls: Array<[string, unknown]>): AgentApi {
  return new Proxy({} as AgentApi, {
    get: (_target, op: string) => async (input: unknown) => {
      calls.push([op, input]);
      if (op === 'retryJob') throw new CodedError('JOB_NOT_FOUND', 'No job j1.');
      if (op === 'cancelJob') throw new TypeError('boom');
      return STATUS;
    },
  });
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
    redact() {},
  };
}

describe('createOperationDispatcher', () => {
  it('validates, calls the operation with the parsed input and wraps its value', async () => {
    const calls: Array<[string, unknown]> = [];
    const dispatch = createOperationDispatcher({ api: recordingApi(calls) });
    expect(await dispatch('setPaused', { paused: true })).toEqual({ result: { ok: true, value: STATUS }, rejected: false });
    expect(await dispatch('getStatus', undefined)).toEqual({ result: { ok: true, value: STATUS }, rejected: false });
    expect(calls).toEqual([
      ['setPaused', { paused: true }],
      ['getStatus', {}],
    ]);
  });

  it('rejects invalid input before the operation, naming every offending field', async () => {
    const calls: Array<[string, unknown]> = [];
    const logger = recordingLogger();
    const dispatch = createOperationDispatcher({ api: recordingApi(calls), logger, logPrefix: 'test' });
    const { result, rejected } = await dispatch('reprint', { shipmentId: '', copies: 11, sneaky: 1 });
    expect(rejected).toBe(true);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(AGENT_ERROR_CODES.INVALID_INPUT);
    expect(result.error.requestId).toBeNull();
    expect(result.error.message).toMatch(/^Invalid input for reprint: /);
    for (const field of ['"shipmentId"', '"copies"', '"sneaky"']) expect(result.error.message).toContain(field);
    expect(calls).toEqual([]);
    expect(logger.lines).toEqual([`warn test: ${result.error.message}`]);
  });

  it('turns an operation failure into data, logging only the uncoded ones', async () => {
    const logger = recordingLogger();
    const dispatch = createOperationDispatcher({ api: recordingApi([]), logger, logPrefix: 'test' });
    expect(await dispatch('retryJob', { id: 'j1' })).toEqual({
      result: { ok: false, error: { code: 'JOB_NOT_FOUND', message: 'No job j1.', requestId: null } },
      rejected: false,
    });
    expect(logger.lines).toEqual([]);
    expect(await dispatch('cancelJob', { id: 'j1' })).toEqual({
      result: { ok: false, error: { code: AGENT_ERROR_CODES.INTERNAL, message: 'boom', requestId: null } },
      rejected: false,
    });
    expect(logger.lines).toEqual(['error test: cancelJob failed: boom']);
  });
});

// The same call over both transports must come back the same: one dispatcher behind both.
describe('IPC and the web bridge answer alike', () => {
  const handlers = new Map<string, (event: IpcSenderEvent, payload: unknown) => Promise<AgentResult<unknown>>>();
  const trusted = { sender: { id: 1 }, senderFrame: { url: 'app://index.html', parent: null } } as unknown as IpcSenderEvent;
  let server: UiServer;
  const dir = useTempDir('ps-dispatch-');

  beforeAll(async () => {
    const ipcMain = { handle: (channel: string, listener: never) => handlers.set(channel, listener), removeHandler: () => {} };
    registerAgentIpc({ ipcMain: ipcMain as never, api: recordingApi([]), isTrustedSender: () => true, logger: recordingLogger() });
    server = await startUiServer({ api: recordingApi([]), subscribe: () => () => {}, staticDir: dir.path });
  });
  afterAll(async () => {
    await server.close();
  });

  const overBridge = (op: AgentOperation, input: unknown): Promise<AgentResult<unknown>> =>
    new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path: bridgePath(op), method: 'POST', headers: { [BRIDGE_TOKEN_HEADER]: server.token } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as AgentResult<unknown>));
        },
      );
      req.on('error', reject);
      req.end(input === undefined ? undefined : JSON.stringify(input));
    });
  const overIpc = (op: AgentOperation, input: unknown): Promise<AgentResult<unknown>> => handlers.get(ipcChannel(op))!(trusted, input);

  it.each([
    ['lookup', { scan: 42 }],
    ['retryJob', { id: 'j', sneaky: true }],
    ['reprint', { shipmentId: '', copies: 11 }],
    ['saveSettings', { apiUrl: 'not a url' }],
    ['retryJob', { id: 'j1' }],
    ['cancelJob', { id: 'j1' }],
    ['setPaused', { paused: false }],
    ['getStatus', undefined],
  ] as const)('%s %j', async (op, input) => {
    const [ipc, bridge] = await Promise.all([overIpc(op, input), overBridge(op, input)]);
    expect(bridge).toEqual(ipc);
  });

  it('gives the invalid-input code and wording on both', async () => {
    const ipc = await overIpc('lookup', { scan: 42 });
    expect(ipc).toEqual({
      ok: false,
      error: {
        code: AGENT_ERROR_CODES.INVALID_INPUT,
        message: 'Invalid input for lookup: field "scan": expected string, received number',
        requestId: null,
      },
    });
    expect(await overBridge('lookup', { scan: 42 })).toEqual(ipc);
  });
});
