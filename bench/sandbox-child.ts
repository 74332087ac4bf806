/**
 * The embedded sandbox in its own process for the benchmarks, driven over IPC by
 * sandbox-process.ts: the agent, the DIY loop and the limit all talk to it over loopback
 * HTTP, and its PDF rendering does not share an event loop with what is being measured.
 */
import { startSandbox, type Sandbox } from '../src/sandbox/server';

export type SandboxCommand =
  | { readonly op: 'book'; readonly count: number; readonly prefix: string }
  | { readonly op: 'seed'; readonly count: number }
  | { readonly op: 'faults'; readonly faults: Record<string, number> }
  | { readonly op: 'clearLog' }
  | { readonly op: 'webhooks'; readonly endpoints: ReadonlyArray<{ readonly url: string; readonly secret: string }> }
  | { readonly op: 'log' }
  | { readonly op: 'rss' }
  | { readonly op: 'close' };

export interface Booked {
  readonly shipmentId: string;
  readonly trackingId: string;
  readonly referenceId: string;
}

async function main(): Promise<void> {
  const sandbox: Sandbox = await startSandbox({ apiKey: process.env.BENCH_API_KEY ?? 'bench-key', seed: 1 });
  const reply = (id: number, value: unknown, error?: string): void => {
    process.send?.({ id, value, error });
  };
  process.on('message', (message: { id: number; command: SandboxCommand }) => {
    const { id, command } = message;
    const run = async (): Promise<unknown> => {
      switch (command.op) {
        case 'book': {
          const out: Booked[] = [];
          for (let i = 0; i < command.count; i++) {
            const b = await sandbox.bookShipment({ source: i % 2 ? 'APP' : 'API', reference_id: `${command.prefix}-${i}` });
            out.push({ shipmentId: b.shipmentId, trackingId: b.trackingId, referenceId: b.referenceId });
          }
          return out;
        }
        case 'seed':
          sandbox.seedBooked(command.count);
          return null;
        case 'faults':
          sandbox.setFaults(command.faults);
          return null;
        case 'clearLog':
          sandbox.clearRequestLog();
          return null;
        case 'webhooks':
          sandbox.setWebhooks(command.endpoints);
          return null;
        case 'log':
          return sandbox.requestLog();
        case 'rss':
          return process.memoryUsage().rss;
        case 'close':
          await sandbox.close();
          setImmediate(() => process.exit(0));
          return null;
      }
    };
    run().then(
      (value) => reply(id, value),
      (error: unknown) => reply(id, null, error instanceof Error ? error.message : String(error)),
    );
  });
  process.send?.({ id: 0, value: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey } });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
