/**
 * `npm run bench -- [--quick] [--json FILE] [--only burst,sheets,latency,idle,scale,poll,windows,cancel,zpl,ipp,site,site_200,weighing]`
 *
 * Everything runs on loopback: the embedded sandbox in its own process, a private CUPS
 * scheduler with two sink queues, 4x6 stock and A4 sheets (test/support/cups.ts, needs root), the agent as a station
 * runs it. Prints a table with each issue-14 target next to the measured figure and, with
 * --json, writes the fields docs/INTERFACES.md lists (and more). A benchmark, not a test: it
 * asserts nothing about speed.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startPrivateCups } from '../test/support/cups';
import { bundleAgentCli } from '../scripts/bundle-agent';
import { BATCH_MAX, runBurst, type BurstResult } from './burst';
import { runCancel, type CancelResult } from './cancel';
import { measureIdle, type IdleResult } from './idle';
import { runLatency, type LatencyResult, type ScanResult } from './latency';
import { machineInfo } from './machine';
import { SandboxProcess } from './sandbox-process';
import { runPoll, type PollResult } from './poll';
import { runScale, type ScaleResult } from './scale';
import { runWeighing, type WeighingResult } from './weighing';
import { runSheets, type SheetPages } from './sheets';
import { runSite, type SiteResult } from './site';
import { runSiteMany, type SiteManyResult } from './site-many';
import { renderTable } from './table';
import { runWindows, type WindowsResult } from './windows';
import { runZpl, type ZplResult } from './zpl';
import { runIppFollow, type IppFollowResult } from './ipp-follow';

const QUEUE = 'bench_sink';
/** A sink queue standing for a label printer loaded with A4 sheets (the sheets section). */
const A4_QUEUE = 'bench_a4_sink';
const SECTIONS = 'burst,sheets,latency,idle,scale,poll,windows,cancel,zpl,ipp,site,site_200,weighing';

interface Plan {
  readonly burst: number;
  readonly latency: number;
  readonly scans: number;
  readonly idleSeconds: number;
  readonly scaleRounds: number;
  readonly scaleIdleSeconds: number;
  readonly pollSamples: number;
  readonly windowsLabels: number;
  /** Labels a sheet layout in the sheets section. */
  readonly sheetLabels: number;
  /** Labels per burst and idle seconds in the cancel section. */
  readonly cancelLabels: number;
  readonly cancelIdleSeconds: number;
  /** zpl section: renders timed per resolution, webhooks one at a time, labels in the burst. */
  readonly zplRenders: number;
  readonly zplLatency: number;
  readonly zplBurst: number;
  /** Labels, and seconds following nothing, in the ipp section. */
  readonly ippLabels: number;
  readonly ippIdleSeconds: number;
  /** Stations in the site section, and bookings measured there per intake (polling, webhooks). */
  readonly siteStations: number;
  readonly siteSamples: number;
}

const FULL: Plan = {
  burst: 1_000,
  latency: 200,
  scans: 100,
  idleSeconds: 60,
  scaleRounds: 5,
  scaleIdleSeconds: 20,
  pollSamples: 30,
  windowsLabels: 100,
  sheetLabels: 100,
  cancelLabels: 500,
  cancelIdleSeconds: 60,
  zplRenders: 100,
  zplLatency: 100,
  zplBurst: 200,
  ippLabels: 300,
  ippIdleSeconds: 60,
  siteStations: 20,
  siteSamples: 60,
};
const QUICK: Plan = {
  burst: 200,
  latency: 50,
  scans: 30,
  idleSeconds: 10,
  scaleRounds: 3,
  scaleIdleSeconds: 5,
  pollSamples: 8,
  windowsLabels: 50,
  sheetLabels: 40,
  cancelLabels: 100,
  cancelIdleSeconds: 10,
  zplRenders: 40,
  zplLatency: 30,
  zplBurst: 200,
  ippLabels: 100,
  ippIdleSeconds: 10,
  siteStations: 20,
  siteSamples: 20,
};

export interface BenchReport {
  machine: string;
  date: string;
  quick: boolean;
  machine_detail: ReturnType<typeof machineInfo>;
  burst?: BurstResult;
  /** Pages used on A4 sheet layouts, agent (batching) vs the DIY loop: one entry a layout. */
  sheet_pages?: SheetPages[];
  latency?: LatencyResult;
  scan?: ScanResult;
  idle?: IdleResult;
  scale?: ScaleResult;
  poll?: PollResult;
  windows?: WindowsResult;
  /** The check before spooling that keeps a canceled shipment's label off the printer. */
  cancel?: CancelResult;
  zpl?: ZplResult;
  /** Following jobs at CUPS: job requests a minute, idle and during a burst. */
  ipp?: IppFollowResult;
  site?: SiteResult;
  /** A weight change to the UI, a stable weight to the label (bench/weighing.ts). */
  weighing?: WeighingResult;
  site_200?: SiteManyResult;
  duration_s: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`Usage: npm run bench -- [--quick] [--json FILE] [--only ${SECTIONS}]\n`);
    return;
  }
  const plan = values.quick ? QUICK : FULL;
  const only = new Set((values.only ?? SECTIONS).split(',').map((s) => s.trim()));
  const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);
  const machine = machineInfo();
  const started = Date.now();
  const report: BenchReport = {
    machine: machine.summary,
    date: new Date().toISOString(),
    quick: values.quick ?? false,
    machine_detail: machine,
    duration_s: 0,
  };
  log(`${machine.summary}; load average ${machine.loadAverage}; ${values.quick ? 'quick' : 'full'} run`);

  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'psbench-'));
  const cups = await startPrivateCups({
    queues: [
      { name: QUEUE, kind: 'sink' },
      { name: A4_QUEUE, kind: 'sink' },
    ],
  });
  const sandbox = await SandboxProcess.start();
  try {
    const bundled = only.has('idle') || only.has('scale') || only.has('poll') ? await bundleAgentCli() : undefined;
    if (only.has('idle')) {
      // `npm run agent` runs the CLI bundled to plain JavaScript; the tsx figure is for
      // the same agent through the TypeScript loader (tests, `npm run demo`).
      log(`idle: ${plan.idleSeconds} s with polling on, as npm run agent runs it (bundled)…`);
      const idle = await measureIdle({
        sandbox,
        cups,
        queue: QUEUE,
        seconds: plan.idleSeconds,
        dataDir: path.join(workDir, 'idle-agent'),
        bundledScript: bundled,
      });
      log(`idle: the same through tsx…`);
      const viaTsx = await measureIdle({
        sandbox,
        cups,
        queue: QUEUE,
        seconds: plan.idleSeconds,
        dataDir: path.join(workDir, 'idle-agent-tsx'),
      });
      report.idle = { ...idle, rss_mb_tsx: viaTsx.rss_mb, cpu_percent_tsx: viaTsx.cpu_percent };
    }
    if (only.has('burst')) report.burst = await runBurst({ sandbox, cups, queue: QUEUE, count: plan.burst, workDir, log });
    if (only.has('sheets'))
      report.sheet_pages = await runSheets({ sandbox, cups, queue: A4_QUEUE, labels: plan.sheetLabels, workDir, log });
    if (only.has('latency')) {
      const { latency, scan } = await runLatency({
        sandbox,
        cups,
        queue: QUEUE,
        samples: plan.latency,
        scanSamples: plan.scans,
        workDir,
        log,
      });
      report.latency = latency;
      report.scan = scan;
    }
    if (only.has('poll'))
      report.poll = await runPoll({ sandbox, cups, queue: QUEUE, samples: plan.pollSamples, workDir, log, bundledScript: bundled });
    if (only.has('zpl'))
      report.zpl = await runZpl({
        sandbox,
        workDir,
        renderSamples: plan.zplRenders,
        latencySamples: plan.zplLatency,
        burst: plan.zplBurst,
        batchMax: BATCH_MAX,
        log,
      });
    if (only.has('ipp'))
      report.ipp = await runIppFollow({ cups, queue: QUEUE, labels: plan.ippLabels, idleSeconds: plan.ippIdleSeconds, log });
    if (only.has('weighing'))
      report.weighing = (await runWeighing({ readings: values.quick ? 50 : 200, labels: values.quick ? 5 : 20, log })) ?? undefined;
    if (only.has('site')) report.site = await runSite({ sandbox, stations: plan.siteStations, samples: plan.siteSamples, workDir, log });
    if (only.has('site_200'))
      report.site_200 = await runSiteMany({ sandbox, stations: 200, samples: plan.siteSamples, decisions: 100_000, workDir, log });
    if (only.has('windows')) report.windows = await runWindows({ labels: plan.windowsLabels, batchMax: BATCH_MAX, workDir, log });
    if (only.has('cancel'))
      report.cancel = await runCancel({
        sandbox,
        cups,
        queue: QUEUE,
        labels: plan.cancelLabels,
        idleSeconds: plan.cancelIdleSeconds,
        workDir,
        log,
      });
    if (only.has('scale'))
      report.scale = await runScale({
        sandbox,
        cups,
        queue: QUEUE,
        workDir,
        rounds: plan.scaleRounds,
        idleSeconds: plan.scaleIdleSeconds,
        log,
        bundledScript: bundled,
      });
  } finally {
    await sandbox.close();
    await cups.stop();
    await fs.rm(workDir, { recursive: true, force: true });
  }
  report.duration_s = (Date.now() - started) / 1000;

  process.stdout.write(`${renderTable(report)}\n`);
  if (values.json) {
    await fs.writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${values.json}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
