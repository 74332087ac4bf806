import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  readonly at: number;
}

/** What the receiver does with the n-th request (0-based): answer a status or never answer. */
export type Answer = (index: number) => number | 'hang';

/** A real loopback webhook receiver on port 0 that records every request's raw bytes. */
export class Receiver {
  readonly received: Received[] = [];
  private readonly server: Server;
  private readonly hanging: ServerResponse[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  private constructor(answer: Answer) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const index = this.received.length;
        this.received.push({ headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() });
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
        const outcome = answer(index);
        if (outcome === 'hang') {
          this.hanging.push(res);
          return;
        }
        res.writeHead(outcome).end();
      });
    });
  }

  static async start(answer: Answer = () => 200): Promise<Receiver> {
    const receiver = new Receiver(answer);
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  bodies(): Array<Record<string, unknown>> {
    return this.received.map((r) => JSON.parse(r.raw.toString('utf8')) as Record<string, unknown>);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
