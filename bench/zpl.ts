/**
 * Raw ZPL printers: the agent printing to a ZPL printer on the network
 * (`zpl://`), against the printer emulator of the tests (test/support/zpl-printer.ts) on
 * loopback, with the agent in-process (startHeadlessAgent):
 * - rendering: one sandbox label PDF to ZPL (MuPDF render, threshold, Z64) at 203 and 300
 *   dpi, and the bytes a label takes;
 * - webhook received → the label's format complete at the printer, one booking at a time;
 * - a burst of labels delivered as webhooks at once, first webhook → last format at the
 *   printer, against its limit measured in the same run: fetching the same labels (the
 *   agent's calls: the first alone, then up to the batch size a call) plus sending the same
 *   ZPL, rendered beforehand, over one socket.
 */
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startHeadlessAgent } from '../src/main/headless';
import { silentLogger } from '../src/main/log';
import { pdfToZpl, type ZplDpi } from '../src/main/printing/zpl/zpl-raster';
import { summarize } from '../test/support/reliability/stats';
import { until } from '../test/support/reliability/wait';
import { bookedEnvelope, mapConcurrent, WebhookSender } from '../test/support/reliability/webhook-sender';
import { startZplPrinter, type ZplPrinter } from '../test/support/zpl-printer';
import { presetPollMark, waitForStartupPoll } from './agent-child';
import { fetchCalls, fetchLimitBatched, printCalls } from './limit';
import type { SandboxProcess } from './sandbox-process';

const SECRET = 'whsec-bench-zpl-0123';

export interface ZplResult {
  readonly render_p50_ms_203: number;
  readonly render_p95_ms_203: number;
  readonly render_p50_ms_300: number;
  readonly render_p95_ms_300: number;
  readonly render_samples: number;
  /** ZPL bytes of one 4x6 label at 203 dpi (the sandbox's label: text, lines, a Code 128). */
  readonly bytes_per_label_203: number;
  readonly bytes_per_label_300: number;
  readonly webhook_to_printer_p50_ms: number;
  readonly webhook_to_printer_p95_ms: number;
  readonly webhook_to_printer_p99_ms: number;
  readonly webhook_samples: number;
  readonly burst_labels: number;
  /** First webhook sent → last label format complete at the printer. */
  readonly burst_s: number;
  /** First webhook sent → first label format complete at the printer. */
  readonly burst_first_label_s: number;
  /** First webhook sent → last webhook acknowledged: how long the burst took to arrive. */
  readonly burst_webhooks_s: number;
  /** Rendering the burst's labels alone, one after another (render_p50_ms_203 × labels): the CPU the agent spends on it. */
  readonly burst_render_estimate_s: number;
  /**
   * CPU seconds this process spent from the first webhook to the last label (user + system,
   * every thread: the agent, its rendering thread, the webhook sender, the printer
   * emulator; the sandbox is another process): less noisy than the wall time on a shared
   * machine.
   */
  readonly burst_cpu_s: number;
  /** Connections that carried labels (a batch each). */
  readonly burst_connections: number;
  readonly limit_fetch_s: number;
  readonly limit_fetch_concurrency: number;
  readonly limit_send_s: number;
  /** limit_fetch_s + limit_send_s. */
  readonly limit_s: number;
  /** burst_s ÷ limit_s. */
  readonly burst_vs_limit: number;
}

export interface ZplContext {
  readonly sandbox: SandboxProcess;
  readonly workDir: string;
  readonly renderSamples: number;
  readonly latencySamples: number;
  readonly burst: number;
  readonly batchMax: number;
  readonly log: (line: string) => void;
}

async function renderTimes(pdf: Uint8Array, dpi: ZplDpi, samples: number): Promise<{ times: number[]; bytes: number }> {
  for (let i = 0; i < 3; i++) await pdfToZpl(pdf, { dpi });
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    const [label] = await pdfToZpl(pdf, { dpi });
    times.push(performance.now() - t);
    bytes = Buffer.byteLength(label!.zpl, 'latin1');
  }
  return { times, bytes };
}

/** Writes `data` to the printer on one connection; resolves once it holds `formats` more formats. */
async function sendOverOneSocket(printer: ZplPrinter, data: Buffer, formats: number): Promise<number> {
  const before = printer.formats.length;
  const t = performance.now();
  const socket = net.connect({ host: printer.host, port: printer.port, noDelay: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.write(data, () => resolve());
  });
  await until('the pre-rendered labels at the printer', () => printer.formats.length >= before + formats, { intervalMs: 1 });
  const seconds = (performance.now() - t) / 1000;
  socket.destroy();
  return seconds;
}

export async function runZpl(ctx: ZplContext): Promise<ZplResult> {
  const { sandbox, log } = ctx;
  const [sample] = await sandbox.book(1, 'ZPLR');
  const pdf = (await fetchCalls(sandbox, [[sample!.shipmentId]], 1)).pdfs[0]!;
  log(`zpl: rendering one label ${ctx.renderSamples} times at 203 and at 300 dpi…`);
  const at203 = await renderTimes(pdf, 203, ctx.renderSamples);
  const at300 = await renderTimes(pdf, 300, ctx.renderSamples);
  const r203 = summarize(at203.times);
  const r300 = summarize(at300.times);

  const printer = await startZplPrinter({ msPerLabel: 0 });
  const dataDir = path.join(ctx.workDir, 'zpl-agent');
  presetPollMark(dataDir, sandbox.baseUrl);
  await sandbox.clearLog();
  const headless = await startHeadlessAgent({
    apiUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    dataDir,
    log: silentLogger,
    environment: 'custom',
    printer: `zpl://${printer.host}:${printer.port}?dpi=203`,
    webhookPort: 0,
    webhookSecrets: [SECRET],
    pollIntervalSeconds: 0,
    tuning: { pipeline: { batchMax: ctx.batchMax } },
  });
  try {
    await waitForStartupPoll(sandbox);
    const warmup = 5;
    const bookings = await sandbox.book(warmup + ctx.latencySamples, 'ZPLL');
    const sender = new WebhookSender(headless.webhookUrl!, SECRET, 1);
    log(`zpl: ${ctx.latencySamples} webhooks one at a time (after ${warmup} warm-up) to the label at the printer…`);
    const latencies: number[] = [];
    for (let i = 0; i < bookings.length; i++) {
      const before = printer.formats.length;
      const sent = performance.now();
      const { status } = await sender.deliver(bookedEnvelope(bookings[i]!));
      if (status !== 200) throw new Error(`webhook for ${bookings[i]!.shipmentId} answered ${status}`);
      await until('the label at the printer', () => printer.formats.length > before, { timeoutMs: 60_000, intervalMs: 1 });
      if (i >= warmup) latencies.push(printer.receivedAt[before]! - sent);
    }
    await sender.close();
    await headless.agent.pipeline.idle();
    const latency = summarize(latencies);

    const burst = await sandbox.book(ctx.burst, 'ZPLB');
    const connectionsBefore = printer.labelConnections();
    const formatsBefore = printer.formats.length;
    // Dated now, after the agent's first start: a fresh station holds back what was booked before it.
    const sentFrom = Date.now();
    const envelopes = burst.map((b, i) => bookedEnvelope(b, { bookedAt: new Date(sentFrom + i) }));
    const burstSender = new WebhookSender(headless.webhookUrl!, SECRET, 32);
    log(`zpl: ${ctx.burst} webhooks at once (--batch-max ${ctx.batchMax})…`);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await mapConcurrent(envelopes, 32, (e) => burstSender.deliver(e));
    const deliveredS = (performance.now() - t0) / 1000;
    await burstSender.close();
    await until(`${ctx.burst} labels at the printer`, () => printer.formats.length >= formatsBefore + ctx.burst, {
      timeoutMs: 30 * 60_000,
      intervalMs: 5,
    });
    const burstS = (printer.receivedAt[formatsBefore + ctx.burst - 1]! - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const burstCpuS = (cpu.user + cpu.system) / 1e6;
    const burstConnections = printer.labelConnections() - connectionsBefore;
    await headless.agent.pipeline.idle();

    log('zpl: the limit: fetching the same labels, then sending them pre-rendered over one socket…');
    const calls = printCalls(
      burst.map((b) => b.shipmentId),
      ctx.batchMax,
    );
    const fetched = await fetchLimitBatched(sandbox, calls, [1, 2, 4]);
    const rendered: Buffer[] = [];
    for (const batchPdf of fetched.pdfs) {
      for (const label of await pdfToZpl(batchPdf, { dpi: 203 })) rendered.push(Buffer.from(label.zpl, 'latin1'));
    }
    const sendS = await sendOverOneSocket(printer, Buffer.concat(rendered), rendered.length);
    const limitS = fetched.seconds + sendS;
    return {
      render_p50_ms_203: r203.p50,
      render_p95_ms_203: r203.p95,
      render_p50_ms_300: r300.p50,
      render_p95_ms_300: r300.p95,
      render_samples: ctx.renderSamples,
      bytes_per_label_203: at203.bytes,
      bytes_per_label_300: at300.bytes,
      webhook_to_printer_p50_ms: latency.p50,
      webhook_to_printer_p95_ms: latency.p95,
      webhook_to_printer_p99_ms: latency.p99,
      webhook_samples: latency.n,
      burst_labels: ctx.burst,
      burst_s: burstS,
      burst_first_label_s: (printer.receivedAt[formatsBefore]! - t0) / 1000,
      burst_webhooks_s: deliveredS,
      burst_render_estimate_s: (r203.p50 * ctx.burst) / 1000,
      burst_cpu_s: burstCpuS,
      burst_connections: burstConnections,
      limit_fetch_s: fetched.seconds,
      limit_fetch_concurrency: fetched.concurrency,
      limit_send_s: sendS,
      limit_s: limitS,
      burst_vs_limit: burstS / limitS,
    };
  } finally {
    await headless.stop();
    await printer.close();
  }
}
