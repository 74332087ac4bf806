import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverOptions, type ServerLimits } from '../../../src/main/intake/server-limits';
import { startWebhookServer } from '../../../src/main/intake/sources/webhooks/webhook-server';
import { startUiServer } from '../../../src/main/web/ui-server';
import { BRIDGE_EVENTS_PATH, BRIDGE_TOKEN_HEADER, type AgentApi } from '../../../src/shared/agent-api';
import { RecordingSink, tempLedger } from '../../support/intake/fixtures';

/**
 * Slow and half-open clients against both HTTP servers, through raw sockets: each timeout
 * closes the socket within 1.5 s of its configured value (Node's own check every 30 s cut
 * them after about 34 s), and connections beyond the cap are closed as they arrive.
 */

const SLACK_MS = 1500;
const LONG = 60_000;

interface Opened {
  readonly socket: net.Socket;
  /** Resolves with ms from connect to close, and everything the server sent. */
  readonly closed: Promise<{ afterMs: number; received: string }>;
}

function open(port: number, send = ''): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let connectedAt = 0;
    socket.on('data', (d) => {
      received += d.toString('latin1');
    });
    const closed = new Promise<{ afterMs: number; received: string }>((done) =>
      socket.on('close', () => done({ afterMs: performance.now() - connectedAt, received })),
    );
    socket.once('error', () => {});
    socket.once('connect', () => {
      connectedAt = performance.now();
      if (send) socket.write(send);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

type Start = (limits: Partial<ServerLimits>) => Promise<{ port: number; host: string; close: () => Promise<void> }>;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const webhook: Start = async (limits) => {
  const { ledger, dispose } = await tempLedger();
  const server = await startWebhookServer({
    secrets: ['s'],
    ledger,
    sink: new RecordingSink(),
    stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
    limits,
  });
  cleanups.push(dispose, () => server.close());
  return { port: server.port, host: `127.0.0.1:${server.port}`, close: () => server.close() };
};

let statusDelayMs = 0;
const ui: Start = async (limits) => {
  const staticDir = await mkdtemp(join(tmpdir(), 'ui-limits-'));
  const api = {
    getStatus: async () => {
      await new Promise((r) => setTimeout(r, statusDelayMs));
      return { state: 'ok' };
    },
  } as unknown as AgentApi;
  const server = await startUiServer({ api, subscribe: () => () => {}, staticDir, token: 'tok', heartbeatMs: LONG, limits });
  cleanups.push(
    () => rm(staticDir, { recursive: true, force: true }),
    () => server.close(),
  );
  return { port: server.port, host: `127.0.0.1:${server.port}`, close: () => server.close() };
};

describe.each([
  ['webhook', webhook, 'POST /webhooks HTTP/1.1'],
  ['UI', ui, `POST /api/getStatus HTTP/1.1`],
] as const)('%s server connection limits', (_name, start, requestLine) => {
  it('closes a connection whose headers stop half way within headersTimeout + 1.5 s', async () => {
    const server = await start({ headersTimeoutMs: 1000, requestTimeoutMs: LONG, idleTimeoutMs: LONG });
    const { closed } = await open(server.port, `${requestLine}\r\nHost: ${server.host}\r\nX-Half: `);
    const { afterMs, received } = await closed;
    expect(afterMs).toBeGreaterThanOrEqual(900);
    expect(afterMs).toBeLessThan(1000 + SLACK_MS);
    expect(received).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('closes a connection whose body stops half way within requestTimeout + 1.5 s', async () => {
    const server = await start({ headersTimeoutMs: 1000, requestTimeoutMs: 2000, idleTimeoutMs: LONG });
    const head = `${requestLine}\r\nHost: ${server.host}\r\n${BRIDGE_TOKEN_HEADER}: tok\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`;
    const { closed } = await open(server.port, head);
    const { afterMs } = await closed;
    expect(afterMs).toBeGreaterThanOrEqual(1900);
    expect(afterMs).toBeLessThan(2000 + SLACK_MS);
  });

  it('closes a connection that sends nothing within idleTimeout + 1.5 s', async () => {
    const server = await start({ headersTimeoutMs: LONG, requestTimeoutMs: LONG, idleTimeoutMs: 800 });
    const { closed } = await open(server.port);
    const { afterMs } = await closed;
    expect(afterMs).toBeGreaterThanOrEqual(700);
    expect(afterMs).toBeLessThan(800 + SLACK_MS);
  });

  it('at maxConnections closes the connection idle the longest to take a new one', async () => {
    const server = await start({ maxConnections: 3, headersTimeoutMs: LONG, requestTimeoutMs: LONG, idleTimeoutMs: LONG });
    const held: Opened[] = [];
    for (let i = 0; i < 3; i++) {
      held.push(await open(server.port, `${requestLine}\r\nHost: ${server.host}\r\n`));
      await new Promise((r) => setTimeout(r, 30));
    }
    const next = await open(server.port, `GET /nowhere HTTP/1.1\r\nHost: ${server.host}\r\nConnection: close\r\n\r\n`);
    expect((await next.closed).received).toMatch(/^HTTP\/1\.1 (404|403|401)/);
    // The first (idle the longest) made room; the other two are still open.
    const { afterMs } = await held[0]!.closed;
    expect(afterMs).toBeLessThan(1000);
    expect(held.slice(1).every((h) => !h.socket.destroyed)).toBe(true);
    for (const h of held) h.socket.destroy();
  });

  it('at maxConnections refuses a new connection when every one has a request in progress', async () => {
    const server = await start({ maxConnections: 3, headersTimeoutMs: LONG, requestTimeoutMs: LONG, idleTimeoutMs: LONG });
    // Whole headers, half a body: a request in progress on each.
    const head = `${requestLine}\r\nHost: ${server.host}\r\n${BRIDGE_TOKEN_HEADER}: tok\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`;
    const held = await Promise.all([1, 2, 3].map(() => open(server.port, head)));
    await new Promise((r) => setTimeout(r, 100));
    const extra = await open(server.port, `GET / HTTP/1.1\r\nHost: ${server.host}\r\n\r\n`);
    const { afterMs, received } = await extra.closed;
    expect(afterMs).toBeLessThan(1000);
    expect(received).toBe('');
    expect(held.every((h) => !h.socket.destroyed)).toBe(true);

    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((r) => setTimeout(r, 100));
    const next = await open(server.port, `GET /nowhere HTTP/1.1\r\nHost: ${server.host}\r\nConnection: close\r\n\r\n`);
    expect((await next.closed).received).toMatch(/^HTTP\/1\.1 (404|403|401)/);
    for (const h of held) h.socket.destroy();
  });
});

describe('UI server limits that must not cut legitimate work', () => {
  it('answers an operation that takes longer than the idle timeout', async () => {
    const server = await ui({ idleTimeoutMs: 300, headersTimeoutMs: 1000, requestTimeoutMs: 1000 });
    statusDelayMs = 1200;
    try {
      const { closed } = await open(
        server.port,
        `POST /api/getStatus HTTP/1.1\r\nHost: ${server.host}\r\n${BRIDGE_TOKEN_HEADER}: tok\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      const { received } = await closed;
      expect(received).toMatch(/^HTTP\/1\.1 200/);
      expect(received).toContain('"ok":true');
    } finally {
      statusDelayMs = 0;
    }
  });

  it('keeps an event stream open past the idle timeout', async () => {
    const server = await ui({ idleTimeoutMs: 300, headersTimeoutMs: 1000, requestTimeoutMs: 1000 });
    const stream = await open(server.port, `GET ${BRIDGE_EVENTS_PATH}?token=tok HTTP/1.1\r\nHost: ${server.host}\r\n\r\n`);
    const outcome = await Promise.race([stream.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 1500))]);
    expect(outcome).toBe('open');
    stream.socket.destroy();
  });
});

describe('serverOptions', () => {
  it('checks timeouts at least every 500 ms and refuses limits that cannot work', () => {
    expect(serverOptions({ headersTimeoutMs: 10_000, requestTimeoutMs: 15_000, idleTimeoutMs: 1, maxConnections: 1 }, 'x')).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 15_000,
      connectionsCheckingInterval: 500,
    });
    expect(() => serverOptions({ headersTimeoutMs: 2000, requestTimeoutMs: 1000, idleTimeoutMs: 1, maxConnections: 1 }, 'webhook')).toThrow(
      expect.objectContaining({
        code: 'INTAKE_INVALID_OPTION',
        message: expect.stringContaining("webhook server's headersTimeoutMs (2000) must not exceed"),
      }),
    );
    expect(() => serverOptions({ headersTimeoutMs: 1, requestTimeoutMs: 1, idleTimeoutMs: 1, maxConnections: 0 }, 'UI')).toThrow(
      /maxConnections must be/,
    );
  });
});
