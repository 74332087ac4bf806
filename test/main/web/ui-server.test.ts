import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, API_ERROR_CODES } from '../../../src/main/api/errors';
import { startUiServer, type UiServer } from '../../../src/main/web/ui-server';
import { BRIDGE_TOKEN_HEADER, bridgePath, type AgentApi, type AgentEvent } from '../../../src/shared/agent-api';
import type { AgentStatus, JobView, SettingsView } from '../../../src/shared/domain';

const status: AgentStatus = {
  team: 'Demo Team',
  environment: 'sandbox',
  state: 'ok',
  paused: false,
  lastPrintAt: null,
  lastError: null,
  queued: 0,
  failed: 0,
};
const job: JobView = {
  id: 'job-1',
  shipmentId: 's-1',
  reference: 'R-1',
  trackingId: null,
  documentType: 'label',
  layout: 'printer',
  target: 'folder:/tmp/x',
  copies: 1,
  trigger: 'reprint',
  state: 'queued',
  reason: null,
  requestId: null,
  attempts: 0,
  spoolerJobId: null,
  createdAt: '2026-11-22T00:00:00Z',
  updatedAt: '2026-11-22T00:00:00Z',
};
const settings: SettingsView = {
  environment: 'sandbox',
  apiUrl: 'http://127.0.0.1:1/external/v1',
  apiKeySet: true,
  routing: {
    labelPrinter: 'folder:/tmp/x',
    documentPrinter: 'folder:/tmp/x',
    labelPrinterMedia: 'label',
    sheetLayout: 'a4',
    autoPrint: ['label'],
    copies: 1,
  },
  intake: { webhooksEnabled: true, pollIntervalSeconds: 15 },
  stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
  paused: false,
};

const packFailure = { ok: false, problem: { code: 'PACK_NOT_DRAFT', message: 'not a draft', requestId: null, fields: [] } } as const;
const packSettings = { pickup: 'next' as const, pickupTime: '16:00', shippingRuleIds: [] as string[], bookOnStableWeight: false };

/**
 * A fake agent: records the inputs it receives; lookup fails like the service would. An
 * operation this test does not name answers null, so adding one to the contract needs no
 * edit here.
 */
function fakeApi(calls: Array<[string, unknown]>): AgentApi {
  const record =
    <T>(op: string, value: T) =>
    async (input: unknown): Promise<T> => {
      calls.push([op, input]);
      return value;
    };
  const named: Partial<AgentApi> = {
    getStatus: record('getStatus', status),
    lookup: async (input) => {
      calls.push(['lookup', input]);
      if (input.scan === 'boom') {
        throw new ApiError(API_ERROR_CODES.UNAVAILABLE, 'The service is unavailable', {
          status: 503,
          requestId: 'req-503',
          serviceMessage: null,
          fieldErrors: {},
          retryAfterMs: null,
          method: 'GET',
          path: '/shipments',
        });
      }
      return { kind: 'not_found', scanned: input.scan, normalized: input.scan.toUpperCase(), message: 'Nothing found' };
    },
    reprint: record('reprint', [job]),
    listJobs: record('listJobs', [job]),
    retryJob: record('retryJob', job),
    cancelJob: record('cancelJob', job),
    listPrinters: record('listPrinters', []),
    testPrint: record('testPrint', job),
    getSettings: record('getSettings', settings),
    saveSettings: record('saveSettings', settings),
    testConnection: record('testConnection', { team: 'Demo Team', status: 'ok' }),
    setPaused: record('setPaused', status),
    startDemo: record('startDemo', status),
    saveDiagnostics: record('saveDiagnostics', { path: '/data/diagnostics/d.json', fileName: 'd.json', content: '{}' }),
    endOfDay: async () => {
      throw new Error('not used here');
    },
    printMissing: async () => {
      throw new Error('not used here');
    },
    printManifests: async () => {
      throw new Error('not used here');
    },
    listConfiguredPrinters: record('listConfiguredPrinters', []),
    shipmentJobs: record('shipmentJobs', [job]),
    shipmentDocuments: record('shipmentDocuments', []),
    printShipmentDocuments: record('printShipmentDocuments', { queued: 0, retried: 0, waiting: 0, documents: [] }),
    packDraft: record('packDraft', packFailure),
    packPresets: record('packPresets', []),
    packUpdate: record('packUpdate', packFailure),
    packRates: record('packRates', packFailure),
    packServicePoints: record('packServicePoints', { ok: true, value: [] }),
    packUpload: record('packUpload', { ok: true, value: { documentType: 'customsinvoice', bytes: 5 } }),
    packBook: record('packBook', packFailure),
    packCancel: record('packCancel', packFailure),
    getPackSettings: record('getPackSettings', packSettings),
    savePackSettings: record('savePackSettings', packSettings),
    listShippingRules: record('listShippingRules', []),
  };
  return new Proxy(named as AgentApi, { get: (target, op: string) => target[op as keyof AgentApi] ?? record(op, null) });
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

let root: string;
let staticDir: string;
let server: UiServer;
let calls: Array<[string, unknown]>;
const listeners = new Set<(e: AgentEvent) => void>();

const call = (op: Parameters<typeof bridgePath>[0], body: unknown, headers: Record<string, string> = {}) =>
  send(server.port, bridgePath(op), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: server.token, ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ui-server-'));
  staticDir = join(root, 'renderer');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Print Station</title>');
  await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(staticDir, 'assets', 'app.css'), 'body{}');
  await writeFile(join(root, 'secret.txt'), 'do not serve');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function start(extra: { maxBodyBytes?: number; heartbeatMs?: number } = {}): Promise<void> {
  calls = [];
  server = await startUiServer({
    api: fakeApi(calls),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    staticDir,
    ...extra,
  });
}

afterEach(async () => {
  await server?.close();
});

describe('startUiServer', () => {
  it('listens on 127.0.0.1 and gives the full URL with a fresh random token', async () => {
    await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const first = server.token;
    await server.close();
    await start();
    expect(server.token).not.toBe(first);
  });

  it('refuses to listen on anything but loopback', async () => {
    await start();
    await expect(startUiServer({ api: fakeApi([]), subscribe: () => () => {}, host: '0.0.0.0', staticDir })).rejects.toMatchObject({
      code: 'UI_HOST_NOT_LOOPBACK',
    });
  });

  it('calls the operation with the validated input and returns the AgentResult', async () => {
    await start();
    const res = await call('reprint', { shipmentId: 's-1', layout: 'a4' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, value: [job] });
    expect(calls).toEqual([['reprint', { shipmentId: 's-1', layout: 'a4' }]]);
  });

  it('treats an empty body as {} for operations without input', async () => {
    await start();
    const res = await send(server.port, bridgePath('getStatus'), { method: 'POST', headers: { [BRIDGE_TOKEN_HEADER]: server.token } });
    expect(JSON.parse(res.body)).toEqual({ ok: true, value: status });
  });

  it('returns operation errors as data with their code and request id', async () => {
    await start();
    const res = await call('lookup', { scan: 'boom' });
    const result = JSON.parse(res.body);
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', requestId: 'req-503' });
    expect(result.error.message).toContain('req-503');
  });

  it('requires the token: missing or wrong gives 401 and the operation is not called', async () => {
    await start();
    const missing = await send(server.port, bridgePath('getStatus'), { method: 'POST', body: '{}' });
    expect(missing.status).toBe(401);
    // One character off; never the same character (a random token may end in "x" itself).
    const last = server.token.slice(-1);
    const wrong = await call('getStatus', {}, { [BRIDGE_TOKEN_HEADER]: `${server.token.slice(0, -1)}${last === 'x' ? 'y' : 'x'}` });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).error.code).toBe('UI_UNAUTHORIZED');
    expect(calls).toEqual([]);
  });

  it('refuses a foreign Host header (DNS rebinding) with 403, even with the token', async () => {
    await start();
    const rebound = await call('getStatus', {}, { host: `evil.example:${server.port}` });
    expect(rebound.status).toBe(403);
    const otherPort = await call('getStatus', {}, { host: `127.0.0.1:${server.port + 1}` });
    expect(otherPort.status).toBe(403);
    const page = await send(server.port, '/', { headers: { host: 'evil.example' } });
    expect(page.status).toBe(403);
    expect(calls).toEqual([]);
    const local = await call('getStatus', {}, { host: `localhost:${server.port}` });
    expect(local.status).toBe(200);
  });

  it('rejects an invalid payload with 400 naming the field', async () => {
    await start();
    const wrongType = await call('lookup', { scan: 42 });
    expect(wrongType.status).toBe(400);
    expect(JSON.parse(wrongType.body).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.parse(wrongType.body).error.message).toContain('scan');
    const extra = await call('retryJob', { id: 'j', sneaky: true });
    expect(extra.status).toBe(400);
    expect(JSON.parse(extra.body).error.message).toContain('sneaky');
    const badJson = await send(server.port, bridgePath('lookup'), {
      method: 'POST',
      headers: { [BRIDGE_TOKEN_HEADER]: server.token },
      body: '{nope',
    });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body).error).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Invalid input for lookup: the request body is not JSON.',
    });
    expect(calls).toEqual([]);
  });

  it('rejects bodies over the size limit with 413', async () => {
    await start({ maxBodyBytes: 1024 });
    const res = await call('lookup', { scan: 'x'.repeat(2000) });
    expect(res.status).toBe(413);
    expect(calls).toEqual([]);
  });

  it('takes a document upload larger than the usual limit, and only that operation', async () => {
    await start({ maxBodyBytes: 1024 });
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200_000, 0x20)]).toString('base64');
    const upload = await call('packUpload', { shipmentId: 's-1', documentType: 'customsinvoice', fileName: 'ci.pdf', contentBase64: pdf });
    expect(upload.status).toBe(200);
    expect(calls.map(([op]) => op)).toEqual(['packUpload']);
    const other = await call('packDraft', { shipmentId: 'x'.repeat(2000) });
    expect(other.status).toBe(413);
  });

  it('answers 404 for an unknown operation and 405 for GET on an operation', async () => {
    await start();
    const unknown = await send(server.port, '/api/deleteEverything', {
      method: 'POST',
      headers: { [BRIDGE_TOKEN_HEADER]: server.token },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe('UI_UNKNOWN_OPERATION');
    const proto = await send(server.port, '/api/constructor', {
      method: 'POST',
      headers: { [BRIDGE_TOKEN_HEADER]: server.token },
      body: '{}',
    });
    expect(proto.status).toBe(404);
    const get = await send(server.port, bridgePath('getStatus'), { headers: { [BRIDGE_TOKEN_HEADER]: server.token } });
    expect(get.status).toBe(405);
  });

  it('serves the renderer with content types, CSP and an index.html fallback', async () => {
    await start();
    const index = await send(server.port, '/?token=abc');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    expect(index.body).toContain('Print Station');
    const js = await send(server.port, '/assets/app.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toBe('console.log(1)');
    expect((await send(server.port, '/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    const route = await send(server.port, '/settings');
    expect(route.status).toBe(200);
    expect(route.body).toContain('Print Station');
    expect((await send(server.port, '/assets/missing.js')).status).toBe(404);
  });

  it('never serves files outside the static root', async () => {
    await start();
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00index.html',
      '/%E0%A4%A',
    ]) {
      const res = await send(server.port, path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('do not serve');
    }
  });

  it('sends no Access-Control-* headers, even to a preflight', async () => {
    await start();
    const origin = { origin: 'http://evil.example' };
    const replies = [
      await call('getStatus', {}, origin),
      await send(server.port, '/', { headers: origin }),
      await send(server.port, bridgePath('getStatus'), {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'POST' },
      }),
    ];
    for (const reply of replies) {
      expect(Object.keys(reply.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('streams events over SSE with the token, and unsubscribes when the client leaves', async () => {
    await start({ heartbeatMs: 50 });
    expect((await send(server.port, `/api/events?token=wrong`)).status).toBe(401);

    const received: string[] = [];
    const event: AgentEvent = { type: 'job', job: { ...job, state: 'spooled' } };
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: `/api/events?token=${server.token}` }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('text/event-stream');
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          received.push(chunk);
          const text = received.join('');
          if (text.includes(': ping') && !text.includes('data:')) for (const l of listeners) l(event);
          if (text.includes('data:')) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    const text = received.join('');
    const data = text.split('\n').find((l) => l.startsWith('data: '));
    expect(JSON.parse(data!.slice('data: '.length))).toEqual(event);
    await expect.poll(() => listeners.size).toBe(0);
  });
});
