/**
 * Latency, with the agent in-process (startHeadlessAgent) so every job event is seen the
 * moment the pipeline emits it:
 * - webhook received → spooler accepted (the job's `spooled` event), one booking at a time;
 * - the agent's own overhead: the same minus the time inside the service's print call,
 *   which is the `fetching` → `spooling` interval (with one job at a time nothing else
 *   sits between the fetch returning and the spool starting);
 * - scan → label spooled through the UI bridge: HTTP lookup, then HTTP reprint, until the
 *   reprint job is spooled.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { JobState } from '../src/shared/domain';
import { startHeadlessAgent } from '../src/main/headless';
import { silentLogger } from '../src/main/log';
import { closeIppConnections } from '../src/main/printing/ipp/ipp-connection';
import { ippPrintJob } from '../src/main/printing/ipp/ipp-print';
import type { PrivateCups } from '../test/support/cups';
import { bridgeCall } from '../test/support/reliability/bridge';
import { summarize } from '../test/support/reliability/stats';
import { until } from '../test/support/reliability/wait';
import { bookedEnvelope, WebhookSender } from '../test/support/reliability/webhook-sender';
import { presetPollMark, waitForStartupPoll } from './agent-child';
import type { SandboxProcess } from './sandbox-process';

const SECRET = 'whsec-bench-latency';
const execFileAsync = promisify(execFile);

export interface LatencyResult {
  readonly webhook_to_spooled_p50_ms: number;
  readonly webhook_to_spooled_p95_ms: number;
  readonly webhook_to_spooled_p99_ms: number;
  readonly overhead_p50_ms: number;
  readonly overhead_p95_ms: number;
  readonly overhead_p99_ms: number;
  readonly samples: number;
  /** The overhead without the spool stage either (readiness + Print-Job): the agent's own code and I/O. */
  readonly overhead_excl_spooler_p50_ms: number;
  readonly overhead_excl_spooler_p95_ms: number;
  readonly overhead_excl_spooler_p99_ms: number;
  /** p50 of each stage, ms: where the time goes. */
  readonly stages_p50_ms: {
    readonly ack: number;
    readonly ack_to_queued: number;
    readonly queued_to_fetching: number;
    readonly fetch_service: number;
    readonly spool_lp: number;
  };
  readonly stages_p95_ms: LatencyResult['stages_p50_ms'];
  /**
   * The spooler alone, one at a time on an idle queue: an IPP Print-Job on a keep-alive
   * connection (what the agent's spool stage sends), and the `lpstat` and `lp` commands.
   */
  readonly spooler_alone_p50_ms: { readonly ipp_print_job: number; readonly lpstat: number; readonly lp: number };
}

export interface ScanResult {
  readonly p50_ms: number;
  readonly p95_ms: number;
  readonly samples: number;
  readonly lookup_p50_ms: number;
}

export interface LatencyContext {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly samples: number;
  readonly scanSamples: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

export async function runLatency(ctx: LatencyContext): Promise<{ latency: LatencyResult; scan: ScanResult }> {
  const { sandbox, cups, queue, workDir, log } = ctx;
  const dataDir = path.join(workDir, 'latency-agent');
  presetPollMark(dataDir, sandbox.baseUrl);
  await sandbox.clearLog();
  const headless = await startHeadlessAgent({
    apiUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    dataDir,
    log: silentLogger,
    environment: 'custom',
    printer: `cups:${queue}`,
    webhookPort: 0,
    webhookSecrets: [SECRET],
    pollIntervalSeconds: 0,
    uiPort: 0,
    tuning: { targets: { env: cups.env } },
  });
  // When each job reached each state (performance.now()), by job id; shipment → job ids.
  const seen = new Map<string, Partial<Record<JobState, number>>>();
  const jobsOf = new Map<string, string[]>();
  const unsubscribe = headless.agent.subscribe((event) => {
    if (event.type !== 'job') return;
    const now = performance.now();
    const { id, shipmentId, state } = event.job;
    let times = seen.get(id);
    if (!times) {
      times = {};
      seen.set(id, times);
      jobsOf.set(shipmentId, [...(jobsOf.get(shipmentId) ?? []), id]);
    }
    times[state] ??= now;
  });

  try {
    await waitForStartupPoll(sandbox);
    const warmup = 5;
    const bookings = await sandbox.book(warmup + ctx.samples + ctx.scanSamples, 'LAT');
    const sender = new WebhookSender(headless.webhookUrl!, SECRET, 1);
    const rows: Array<{
      total: number;
      overhead: number;
      ack: number;
      ackToQueued: number;
      queuedToFetching: number;
      fetch: number;
      spool: number;
    }> = [];
    log(`latency: ${ctx.samples} webhooks one at a time (after ${warmup} warm-up)…`);
    for (let i = 0; i < warmup + ctx.samples; i++) {
      const b = bookings[i]!;
      const sent = performance.now();
      const { status } = await sender.deliver(bookedEnvelope(b));
      const acked = performance.now();
      if (status !== 200) throw new Error(`webhook for ${b.shipmentId} answered ${status}`);
      let times: Partial<Record<JobState, number>> | undefined;
      await until(
        `the label of ${b.shipmentId} spooled`,
        () => {
          const id = jobsOf.get(b.shipmentId)?.[0];
          times = id ? seen.get(id) : undefined;
          return times?.spooled !== undefined;
        },
        { timeoutMs: 60_000, intervalMs: 1 },
      );
      if (i < warmup) continue;
      const t = times!;
      const fetch = t.spooling! - t.fetching!;
      rows.push({
        total: t.spooled! - sent,
        overhead: t.spooled! - sent - fetch,
        ack: acked - sent,
        ackToQueued: t.queued! - acked,
        queuedToFetching: t.fetching! - t.queued!,
        fetch,
        spool: t.spooled! - t.spooling!,
      });
    }
    await sender.close();

    log(`latency: ${ctx.scanSamples} scans through the UI bridge (lookup, reprint)…`);
    const scans: number[] = [];
    const lookups: number[] = [];
    for (let i = 0; i < ctx.scanSamples; i++) {
      // Alternate what the packer scans: the reference of a shipment the agent has not
      // seen (looked up at the service), or the tracking number of one it printed above
      // (found in its own index: the spec offers no tracking-number filter).
      const b = i % 2 === 0 ? bookings[warmup + ctx.samples + i]! : bookings[warmup + (i % ctx.samples)]!;
      const scan = i % 2 === 0 ? b.referenceId.toLowerCase() : b.trackingId;
      const started = performance.now();
      const found = await bridgeCall(headless.uiUrl!, 'lookup', { scan });
      lookups.push(performance.now() - started);
      if (found.kind !== 'found') throw new Error(`scan ${scan} found nothing: ${found.message}`);
      const [job] = await bridgeCall(headless.uiUrl!, 'reprint', { shipmentId: found.shipment.id });
      await until(`the reprint of ${b.shipmentId} spooled`, () => seen.get(job!.id)?.spooled !== undefined, {
        timeoutMs: 60_000,
        intervalMs: 1,
      });
      scans.push(seen.get(job!.id)!.spooled! - started);
    }

    const spooler = await spoolerAlone(ctx, bookings[0]!.shipmentId);

    const s = (pick: (r: (typeof rows)[number]) => number) => summarize(rows.map(pick));
    const total = s((r) => r.total);
    const overhead = s((r) => r.overhead);
    const own = s((r) => r.overhead - r.spool);
    const stages = {
      ack: s((r) => r.ack),
      ack_to_queued: s((r) => r.ackToQueued),
      queued_to_fetching: s((r) => r.queuedToFetching),
      fetch_service: s((r) => r.fetch),
      spool_lp: s((r) => r.spool),
    };
    const pick = (p: 'p50' | 'p95') =>
      Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, v[p]])) as unknown as LatencyResult['stages_p50_ms'];
    const scan = summarize(scans);
    return {
      latency: {
        webhook_to_spooled_p50_ms: total.p50,
        webhook_to_spooled_p95_ms: total.p95,
        webhook_to_spooled_p99_ms: total.p99,
        overhead_p50_ms: overhead.p50,
        overhead_p95_ms: overhead.p95,
        overhead_p99_ms: overhead.p99,
        samples: rows.length,
        overhead_excl_spooler_p50_ms: own.p50,
        overhead_excl_spooler_p95_ms: own.p95,
        overhead_excl_spooler_p99_ms: own.p99,
        stages_p50_ms: pick('p50'),
        stages_p95_ms: pick('p95'),
        spooler_alone_p50_ms: spooler,
      },
      scan: { p50_ms: scan.p50, p95_ms: scan.p95, samples: scans.length, lookup_p50_ms: summarize(lookups).p50 },
    };
  } finally {
    unsubscribe();
    await headless.stop();
    await cups.waitForJobs({ queue, timeoutMs: 120_000 });
  }
}

/**
 * The spooler alone: an IPP Print-Job on a keep-alive connection (what the CUPS target
 * sends per label), and for reference `lpstat -p Q -a Q` and `lp` with the label's options.
 */
async function spoolerAlone(ctx: LatencyContext, shipmentId: string): Promise<LatencyResult['spooler_alone_p50_ms']> {
  const { cups, queue, sandbox, workDir } = ctx;
  await cups.waitForJobs({ queue, timeoutMs: 120_000 });
  const res = await fetch(`${sandbox.baseUrl}/shipments/print`, {
    method: 'POST',
    headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json', accept: 'application/pdf' },
    body: JSON.stringify({ shipment_ids: [shipmentId], document_type: 'label', label_layout: 'printer', output_format: 'file' }),
  });
  const file = path.join(workDir, 'spooler-alone.pdf');
  await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
  const time = async (cmd: string, args: string[]): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await execFileAsync(cmd, args, { env: cups.env });
      times.push(performance.now() - t);
    }
    return summarize(times).p50;
  };
  const pdf = await fs.readFile(file);
  const ippTimes: number[] = [];
  try {
    for (let i = 0; i < 21; i++) {
      const t = performance.now();
      await ippPrintJob({ server: cups.server }, queue, {
        name: 'spooler alone',
        pdf,
        copies: 1,
        media: 'oe_4x6-label_4x6in',
        printScaling: 'none',
      });
      // The first opens the connection: the agent keeps it open between labels.
      if (i > 0) ippTimes.push(performance.now() - t);
    }
  } finally {
    await closeIppConnections();
  }
  const lpstat = await time('lpstat', ['-p', queue, '-a', queue]);
  const lp = await time('lp', ['-d', queue, '-t', 'spooler alone', '-o', 'media=Custom.4x6in', '-o', 'print-scaling=none', file]);
  return { ipp_print_job: summarize(ippTimes).p50, lpstat, lp };
}
