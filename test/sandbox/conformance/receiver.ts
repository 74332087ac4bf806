/** A loopback webhook receiver that keeps the raw body bytes of every delivery. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  readonly raw: Buffer;
  readonly headers: IncomingMessage['headers'];
  readonly json: any;
  readonly at: number;
}

export interface Receiver {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** Decides the answer per delivery; return a status, or 'hang' to never answer. */
  answer: (d: Delivery, index: number) => number | 'hang';
  waitFor(pred: (all: Delivery[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function receiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const hung: ServerResponse[] = [];
  const r: Receiver = {
    url: '',
    deliveries,
    answer: () => 200,
    async waitFor(pred, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (!pred(deliveries)) {
        if (Date.now() > end)
          throw new Error(`timed out; ${deliveries.length} deliveries: ${deliveries.map((d) => d.raw.toString()).join('\n')}`);
        await new Promise((res) => setTimeout(res, 25));
      }
    },
    close: () =>
      new Promise((res) => {
        for (const h of hung) h.destroy();
        server.close(() => res());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown = null;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        /* kept raw */
      }
      const d: Delivery = { raw, headers: req.headers, json, at: Date.now() };
      deliveries.push(d);
      const a = r.answer(d, deliveries.length - 1);
      if (a === 'hang') {
        hung.push(res);
        return;
      }
      res.statusCode = a;
      res.end();
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  (r as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}
