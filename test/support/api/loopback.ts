/** A tiny real HTTP server on 127.0.0.1:0 that records every request it receives. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  readonly at: number;
  /** The client side's port: equal ports mean one reused connection. */
  readonly remotePort: number | undefined;
}

export type Handler = (req: Recorded, res: ServerResponse, index: number) => void | Promise<void>;

export interface Loopback {
  readonly baseUrl: string;
  readonly requests: Recorded[];
  /** Replace the handler between tests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startLoopback(handler: Handler = (_req, res) => json(res, 200, {})): Promise<Loopback> {
  let current = handler;
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
        remotePort: req.socket.remotePort,
      };
      requests.push(rec);
      void Promise.resolve(current(rec, res, requests.length - 1)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/external/v1`,
    requests,
    handle(h) {
      current = h;
      requests.length = 0;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One loopback server for the whole test file: started before its first test, closed after
 * its last. The handle can be taken at module level and used inside the tests.
 */
export function useLoopback(): Loopback {
  let started: Loopback | undefined;
  beforeAll(async () => {
    started = await startLoopback();
  });
  afterAll(async () => {
    await started?.close();
  });
  const server = (): Loopback => {
    if (!started) throw new Error('the loopback server is started in beforeAll: use it inside a test or hook');
    return started;
  };
  return {
    get baseUrl() {
      return server().baseUrl;
    },
    get requests() {
      return server().requests;
    },
    handle: (h) => server().handle(h),
    close: () => server().close(),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const base: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-request-id': `req-${status}-${Math.random().toString(36).slice(2, 8)}`,
  };
  // Overrides may use any letter case; the last spelling wins, like on the wire.
  for (const [name, value] of Object.entries(headers)) {
    delete base[name.toLowerCase()];
    base[name] = value;
  }
  res.writeHead(status, base);
  res.end(JSON.stringify(body));
}

/** A minimal valid PDF header is all the client checks. */
export const PDF_BYTES = Buffer.from('%PDF-1.7\n%test\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');
