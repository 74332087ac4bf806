import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/shared/agent-api';
import { openEventStream } from '../../../src/main/web/event-stream';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

describe('openEventStream', () => {
  it('closes the stream of a client that stops reading instead of buffering without bound', async () => {
    const listeners = new Set<(event: AgentEvent) => void>();
    const subscribe = (listener: (event: AgentEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    server = createServer((_req, res) => openEventStream(res, subscribe, 60_000, 64 * 1024));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    socket.pause(); // a frozen tab: nothing is read from here on

    const big: AgentEvent = { type: 'alert', shipmentId: 's', title: 'x', message: 'y'.repeat(16 * 1024) };
    // Far more than the kernel's socket buffers plus the cap: the stream must give up.
    for (let i = 0; i < 4000 && listeners.size > 0; i++) {
      for (const listener of [...listeners]) listener(big);
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(listeners.size).toBe(0);
    socket.destroy();
  });
});
