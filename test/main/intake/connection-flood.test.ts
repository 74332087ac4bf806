/**
 * A connection flood cannot shut out the service: 1,000 idle sockets held open against the
 * webhook port (default limits: 256 connections), and a signed delivery still gets its 2xx
 * within the service's 3 s window, from the flood's own address (a proxy, loopback) or from
 * another. A request in progress is never closed to make room, and where addresses differ the
 * flood keeps to its budget.
 */
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookServer, WEBHOOK_SERVER_LIMITS, type WebhookServer } from '../../../src/main/intake/sources/webhooks/webhook-server';
import { RecordingSink, tempLedger, until } from '../../support/intake/fixtures';
import { bookedEnvelope, deliver } from '../../support/intake/loopback-sender';

const SECRET = 'whsec-flood';
const SERVICE_WINDOW_MS = 3000;
const FLOOD = 1000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function webhookServer(): Promise<WebhookServer> {
  const { ledger, dispose } = await tempLedger();
  const server = await startWebhookServer({
    secrets: [SECRET],
    ledger,
    sink: new RecordingSink(),
    stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
  });
  cleanups.push(dispose, () => server.close());
  return server;
}

/** Opens `count` sockets from `localAddress` that send nothing; resolves once all are connected. */
async function flood(port: number, count: number, localAddress = '127.0.0.1'): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  cleanups.push(() => sockets.forEach((s) => s.destroy()));
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from(
      { length: Math.min(100, count - i) },
      () =>
        new Promise<void>((resolve) => {
          const socket = net.connect({ port, host: '127.0.0.1', localAddress });
          sockets.push(socket);
          socket.on('error', () => resolve());
          socket.once('connect', () => resolve());
        }),
    );
    await Promise.all(batch);
  }
  // Let the server see every one of them.
  await new Promise((r) => setTimeout(r, 200));
  return sockets;
}

const open = (sockets: readonly net.Socket[]): number => sockets.filter((s) => !s.destroyed).length;

async function timedDelivery(server: WebhookServer, localAddress?: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const body = bookedEnvelope(randomUUID());
  const delivery = localAddress ? await deliverFrom(server.url, body, localAddress) : await deliver(server.url, body, { secret: SECRET });
  return { status: delivery.status, ms: performance.now() - started };
}

/** A signed delivery over a socket bound to `localAddress` (undici picks the address by `localAddress` on its Agent). */
async function deliverFrom(url: string, body: string, localAddress: string): Promise<{ status: number }> {
  const { Agent, request } = await import('undici');
  const { signPayload } = await import('../../../src/sandbox/webhooks/signature');
  const agent = new Agent({ localAddress });
  try {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'service-signature': signPayload(SECRET, body, Math.floor(Date.now() / 1000)) },
      body,
    });
    await res.body.text();
    return { status: res.statusCode };
  } finally {
    await agent.close();
  }
}

// A thousand connects on a busy two-core machine can take seconds; the 3 s bound is on the delivery alone.
describe('the webhook port under a connection flood', { timeout: 30_000 }, () => {
  it(`answers a signed delivery within ${SERVICE_WINDOW_MS} ms while ${FLOOD} idle connections are held from the same address`, async () => {
    const server = await webhookServer();
    const sockets = await flood(server.port, FLOOD);
    // The cap holds: no more than 256 of them stay open (their closes reach us as the machine allows).
    await until(() => open(sockets) <= WEBHOOK_SERVER_LIMITS.maxConnections, 10_000);
    const { status, ms } = await timedDelivery(server);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(300);
    expect(ms).toBeLessThan(SERVICE_WINDOW_MS);
    expect(server.counters.accepted).toBe(1);
  });

  it('keeps the flood from another address to its budget, and the delivery gets in', async () => {
    const server = await webhookServer();
    // One connection of ours first, so the server sees two addresses.
    const ours = await flood(server.port, 1, '127.0.0.1');
    const sockets = await flood(server.port, FLOOD, '127.0.0.2');
    await until(() => open(sockets) <= WEBHOOK_SERVER_LIMITS.maxConnections / 2, 10_000);
    expect(open(ours)).toBe(1);
    const { status, ms } = await timedDelivery(server, '127.0.0.1');
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(300);
    expect(ms).toBeLessThan(SERVICE_WINDOW_MS);
  });

  it('never closes a connection with a request in progress to make room', async () => {
    const server = await webhookServer();
    const body = bookedEnvelope(randomUUID());
    const { signPayload } = await import('../../../src/sandbox/webhooks/signature');
    const signature = signPayload(SECRET, body, Math.floor(Date.now() / 1000));
    const slow = net.connect(server.port, '127.0.0.1');
    cleanups.push(() => void slow.destroy());
    let received = '';
    slow.on('data', (d) => (received += d.toString('latin1')));
    const closed = new Promise<void>((r) => slow.on('close', () => r()));
    await new Promise<void>((r) => slow.once('connect', () => r()));
    const head = `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nService-Signature: ${signature}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    // Headers and half the body: the request is in progress while the flood comes.
    slow.write(head + body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 100));
    await flood(server.port, FLOOD);
    expect(slow.destroyed).toBe(false);
    slow.end(body.slice(10));
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 2\d\d/);
  });
});
