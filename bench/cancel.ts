/**
 * What "cancel means no print" costs: a label that waited more than a few seconds
 * since its PDF was fetched asks the service whether its shipment was canceled before it is
 * spooled (one GET /shipments/{id}; one GET /shipments?status=CANCELED for a batch). Counted
 * here, as HTTP requests per minute, with the print queue as the agent builds it (the real
 * client against the sandbox process, a CUPS target on the private cupsd's sink queue,
 * batching at its default):
 * - idle: the queue running with nothing to print;
 * - burst: N bookings at once;
 * - paused burst: the same with the printer paused for a few seconds after it starts, so
 *   every label fetched ahead waits past the threshold and asks.
 */
import path from 'node:path';
import { canceledAmong } from '../src/main/api/cancel-lookup';
import { ServiceClient } from '../src/main/api/client';
import { PrintPipeline } from '../src/main/jobs/pipeline';
import { Ledger } from '../src/main/ledger/ledger';
import { createTarget } from '../src/main/printing/create-target';
import type { PrivateCups } from '../test/support/cups';
import type { SandboxProcess } from './sandbox-process';
import { JOB_FETCH } from '../src/main/retry/policies';

export interface CancelResult {
  /** The threshold the pipeline used (PrintPipelineOptions.recheckAfterMs, its default). */
  readonly recheck_after_ms: number;
  readonly idle_seconds: number;
  readonly burst_labels: number;
  readonly burst_seconds: number;
  readonly paused_burst_seconds: number;
  /** How long the printer was paused in the paused burst. */
  readonly pause_seconds: number;
  /** Requests to the service the checks made (GET /shipments/{id} and the list call). */
  readonly recheck_requests: { readonly idle: number; readonly burst: number; readonly paused_burst: number };
  readonly recheck_requests_per_minute: { readonly idle: number; readonly burst: number; readonly paused_burst: number };
}

export interface CancelContext {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly labels: number;
  readonly idleSeconds: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

const RECHECK_AFTER_MS = 3000;
const PAUSE_SECONDS = 5;

export async function runCancel(ctx: CancelContext): Promise<CancelResult> {
  const { sandbox, cups, queue, labels, log } = ctx;
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  // The job fetch's retries are the pipeline's (JOB_FETCH): its client retries nothing itself.
  const printClient = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: JOB_FETCH.clientRetries });
  const uri = `cups:${queue}`;
  const target = createTarget(uri, { env: cups.env });
  let requests = 0;
  // Each HTTP request the check makes, whichever call it is.
  const counted = {
    getShipment: (id: string) => (requests++, client.getShipment(id)),
    listShipmentsPage: (q: Parameters<ServiceClient['listShipmentsPage']>[0]) => (requests++, client.listShipmentsPage(q)),
  };
  const run = async <T>(
    name: string,
    body: (pipeline: PrintPipeline) => Promise<T>,
  ): Promise<{ value: T; requests: number; seconds: number }> => {
    const ledger = Ledger.open({ path: path.join(ctx.workDir, `cancel-${name}`, 'ledger.sqlite'), pruneIntervalMs: 0 });
    const pipeline = new PrintPipeline({
      ledger,
      fetcher: {
        printFile: (req) => printClient.printFile(req),
        canceledAmong: (ids, since) => canceledAmong(counted, ids, since),
      },
      targetFor: () => target,
      route: () => ({ target: uri, layout: 'printer', media: 'label' }),
      recheckAfterMs: RECHECK_AFTER_MS,
    });
    const before = requests;
    const started = Date.now();
    try {
      await pipeline.start();
      const value = await body(pipeline);
      await pipeline.idle();
      await cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });
      return { value, requests: requests - before, seconds: (Date.now() - started) / 1000 };
    } finally {
      await pipeline.stop();
      ledger.close();
    }
  };
  const submit = async (pipeline: PrintPipeline, prefix: string): Promise<void> => {
    const booked = await sandbox.book(labels, prefix);
    const bookedAt = new Date().toISOString();
    for (const b of booked) {
      pipeline.submitBooking({ shipmentId: b.shipmentId, referenceId: b.referenceId, trackingId: null, bookedAt, trigger: 'webhook' });
    }
  };

  try {
    log(`cancel: idle ${ctx.idleSeconds} s…`);
    const idle = await run('idle', () => new Promise((r) => setTimeout(r, ctx.idleSeconds * 1000)));
    log(`cancel: burst of ${labels}…`);
    const burst = await run('burst', (p) => submit(p, 'CBURST'));
    log(`cancel: burst of ${labels} with the printer paused ${PAUSE_SECONDS} s…`);
    const paused = await run('paused', async (p) => {
      await submit(p, 'CPAUSE');
      await new Promise((r) => setTimeout(r, 300));
      p.pause(uri);
      await new Promise((r) => setTimeout(r, PAUSE_SECONDS * 1000));
      p.resume(uri);
    });
    const perMinute = (n: number, seconds: number): number => Math.round((n / Math.max(seconds, 0.001)) * 60 * 10) / 10;
    const result: CancelResult = {
      recheck_after_ms: RECHECK_AFTER_MS,
      idle_seconds: idle.seconds,
      burst_labels: labels,
      burst_seconds: burst.seconds,
      paused_burst_seconds: paused.seconds,
      pause_seconds: PAUSE_SECONDS,
      recheck_requests: { idle: idle.requests, burst: burst.requests, paused_burst: paused.requests },
      recheck_requests_per_minute: {
        idle: perMinute(idle.requests, idle.seconds),
        burst: perMinute(burst.requests, burst.seconds),
        paused_burst: perMinute(paused.requests, paused.seconds),
      },
    };
    log(
      `cancel: recheck requests idle ${idle.requests}, burst ${burst.requests} in ${burst.seconds.toFixed(1)} s, ` +
        `paused burst ${paused.requests} in ${paused.seconds.toFixed(1)} s`,
    );
    return result;
  } finally {
    await client.close();
    await printClient.close();
  }
}
