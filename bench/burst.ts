/**
 * Burst: N bookings arrive at once as webhooks; how long until every label is spooled
 * (the scheduler accepted it: the agent's IPP Print-Job, or lp for the baseline). Side by side, on the same sandbox, the same shipments and the same
 * CUPS queue:
 * - the agent (its CLI, a child process, as a station runs it);
 * - the DIY baseline (bench/diy-baseline.sh: a sequential curl + lp loop);
 * - the limit: max(fetch every PDF alone at the best concurrency, spool every pre-fetched
 *   PDF alone in booking order with IPP Print-Job on one keep-alive connection, the way the
 *   agent spools), both measured in the same run. lp in order is measured for reference.
 * Pages used: the pages of every job each side put on the queue (pdf-lib page counts).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { Pool } from 'undici';
import { closeIppConnections } from '../src/main/printing/ipp-connection';
import { ippPrintJob } from '../src/main/printing/ipp-print';
import type { PrivateCups } from '../test/support/cups';
import { agentArgs, startAgentProcess } from '../test/support/reliability/agent-process';
import { freePort } from '../test/support/net';
import { until } from '../test/support/reliability/wait';
import { bookedEnvelope, mapConcurrent, WebhookSender } from '../test/support/reliability/webhook-sender';
import { loggedAt, presetPollMark, waitForStartupPoll } from './agent-child';
import type { Booked, SandboxProcess } from './sandbox-process';

const execFileAsync = promisify(execFile);
const BASELINE = path.join(path.dirname(new URL(import.meta.url).pathname), 'diy-baseline.sh');
const SECRET = 'whsec-bench';
const BATCH_MAX = 25;
const LP_LABEL_ARGS = ['-o', 'media=Custom.4x6in', '-o', 'print-scaling=none'];

export interface BurstResult {
  readonly shipments: number;
  readonly agent_s: number;
  readonly baseline_s: number;
  readonly limit_s: number;
  /** baseline_s / agent_s */
  readonly vs_baseline: number;
  /** agent_s / limit_s (1.0 = at the limit) */
  readonly vs_limit: number;
  readonly agent_labels_per_s: number;
  readonly baseline_labels_per_s: number;
  readonly limit_fetch_s: number;
  readonly limit_fetch_concurrency: number;
  /** IPP Print-Job one after another, in booking order (what a FIFO printer line allows). */
  readonly limit_spool_s: number;
  /** lp one after another, in booking order: the spool limit before IPP, for reference. */
  readonly limit_spool_lp_s: number;
  /** lp four at a time, order not kept: for reference, not the limit. */
  readonly limit_spool_unordered_s: number;
  /** Time to the first label spooled, from the first webhook sent. */
  readonly agent_first_label_s: number;
  /** Pages the agent's jobs put on the queue (label layout `printer`: one a label). */
  readonly agent_pages: number;
  readonly baseline_pages: number;
  /** Spooler jobs the agent made (one a label without batching). */
  readonly agent_jobs: number;
  /** The same burst with --batch-max agent_batch_max (src/main/jobs/batching.ts). */
  readonly agent_batched_s: number;
  readonly agent_batched_first_label_s: number;
  readonly agent_batched_pages: number;
  readonly agent_batched_jobs: number;
  readonly agent_batch_max: number;
  readonly vs_baseline_batched: number;
}

export interface BurstContext {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly count: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

export async function runBurst(ctx: BurstContext): Promise<BurstResult> {
  const { sandbox, cups, queue, count, workDir, log } = ctx;

  // ---- the agent --------------------------------------------------------------------------
  const shipments = await sandbox.book(count, 'BURST');
  const alone = await runAgent(ctx, shipments, 'burst-agent');
  log(`burst: agent ${alone.seconds.toFixed(1)} s`);
  // The same shipments again, batching on (a fresh ledger, so they print again).
  const batched = await runAgent(ctx, shipments, 'burst-agent-batched', BATCH_MAX);
  log(`burst: agent batched (--batch-max ${BATCH_MAX}) ${batched.seconds.toFixed(1)} s in ${batched.outputs.length} jobs`);
  const agentSeconds = alone.seconds;
  const firstSeconds = alone.first;
  const agentOutputs = alone.outputs;
  const outputsBefore = alone.outputsBefore + alone.outputs.length + batched.outputs.length;

  // ---- the DIY baseline -----------------------------------------------------------------
  const idsFile = path.join(workDir, 'burst-ids.txt');
  await fs.writeFile(idsFile, `${shipments.map((s) => s.shipmentId).join('\n')}\n`);
  log(`burst: DIY baseline (curl + lp, one after another)…`);
  const b0 = performance.now();
  await execFileAsync('bash', [BASELINE, sandbox.baseUrl, sandbox.apiKey, queue, idsFile], { env: cups.env, maxBuffer: 16 * 2 ** 20 });
  const baselineSeconds = (performance.now() - b0) / 1000;
  await cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });
  const baselineOutputs = (await cups.outputs(queue)).slice(outputsBefore);
  log(`burst: baseline ${baselineSeconds.toFixed(1)} s`);

  // ---- the limit ----------------------------------------------------------------------------
  const fetch = await fetchAll(sandbox, shipments, workDir, log);
  const spool = await spoolAllIpp(cups, queue, fetch.files);
  await cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });
  const spoolLp = await spoolAll(cups, queue, fetch.files, 1);
  await cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });
  const unordered = await spoolAll(cups, queue, fetch.files, 4);
  await cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });
  const limitSeconds = Math.max(fetch.seconds, spool);
  log(
    `burst: limit ${limitSeconds.toFixed(1)} s (fetch ${fetch.seconds.toFixed(1)} s at ${fetch.concurrency}, ` +
      `IPP ${spool.toFixed(1)} s in order; lp ${spoolLp.toFixed(1)} s)`,
  );

  return {
    shipments: count,
    agent_s: agentSeconds,
    baseline_s: baselineSeconds,
    limit_s: limitSeconds,
    vs_baseline: baselineSeconds / agentSeconds,
    vs_limit: agentSeconds / limitSeconds,
    agent_labels_per_s: count / agentSeconds,
    baseline_labels_per_s: count / baselineSeconds,
    limit_fetch_s: fetch.seconds,
    limit_fetch_concurrency: fetch.concurrency,
    limit_spool_s: spool,
    limit_spool_lp_s: spoolLp,
    limit_spool_unordered_s: unordered,
    agent_first_label_s: firstSeconds,
    agent_pages: await pagesOf(agentOutputs),
    agent_jobs: agentOutputs.length,
    agent_batched_s: batched.seconds,
    agent_batched_first_label_s: batched.first,
    agent_batched_pages: await pagesOf(batched.outputs),
    agent_batched_jobs: batched.outputs.length,
    agent_batch_max: BATCH_MAX,
    vs_baseline_batched: baselineSeconds / batched.seconds,
    baseline_pages: await pagesOf(baselineOutputs),
  };
}

/** POST /shipments/print (file) for every shipment; the best concurrency is picked on a sample first. */
async function fetchAll(
  sandbox: SandboxProcess,
  shipments: readonly Booked[],
  workDir: string,
  log: (l: string) => void,
): Promise<{ seconds: number; concurrency: number; files: string[] }> {
  const url = new URL(sandbox.baseUrl);
  const pool = new Pool(url.origin, { connections: 32 });
  const fetchOne = async (id: string): Promise<Buffer> => {
    const res = await pool.request({
      method: 'POST',
      path: `${url.pathname}/shipments/print`,
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json', accept: 'application/pdf' },
      body: JSON.stringify({ shipment_ids: [id], document_type: 'label', label_layout: 'printer', output_format: 'file' }),
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) throw new Error(`print ${id}: ${res.statusCode} ${body.toString('utf8').slice(0, 200)}`);
    return body;
  };
  try {
    const sample = shipments.slice(0, Math.min(100, shipments.length)).map((s) => s.shipmentId);
    let best = { concurrency: 1, seconds: Infinity };
    for (const concurrency of [1, 2, 4, 8, 16]) {
      const t = performance.now();
      await mapConcurrent(sample, concurrency, fetchOne);
      const seconds = (performance.now() - t) / 1000;
      if (seconds < best.seconds) best = { concurrency, seconds };
    }
    log(`burst: fetching every PDF alone at concurrency ${best.concurrency}…`);
    const dir = path.join(workDir, 'prefetched');
    await fs.mkdir(dir, { recursive: true });
    const t = performance.now();
    const pdfs = await mapConcurrent(shipments, best.concurrency, (s) => fetchOne(s.shipmentId));
    const seconds = (performance.now() - t) / 1000;
    const files: string[] = [];
    for (let i = 0; i < pdfs.length; i++) {
      const file = path.join(dir, `${shipments[i]!.shipmentId}.pdf`);
      await fs.writeFile(file, pdfs[i]!);
      files.push(file);
    }
    return { seconds, concurrency: best.concurrency, files };
  } finally {
    await pool.close();
  }
}

/** lp for every pre-fetched file, `concurrency` at a time; seconds until the last lp returned. */
async function spoolAll(cups: PrivateCups, queue: string, files: readonly string[], concurrency: number): Promise<number> {
  const env = cups.env;
  const t = performance.now();
  await mapConcurrent(files, concurrency, (file) =>
    execFileAsync('lp', ['-d', queue, '-t', `limit ${path.basename(file, '.pdf')}`, ...LP_LABEL_ARGS, file], { env }),
  );
  return (performance.now() - t) / 1000;
}

/** IPP Print-Job for every pre-fetched file, one after another on one keep-alive connection. */
async function spoolAllIpp(cups: PrivateCups, queue: string, files: readonly string[]): Promise<number> {
  const pdfs = await Promise.all(files.map((file) => fs.readFile(file)));
  const t = performance.now();
  try {
    for (let i = 0; i < pdfs.length; i++) {
      const name = `limit ${path.basename(files[i]!, '.pdf')}`;
      const answer = await ippPrintJob({ server: cups.server }, queue, {
        name,
        pdf: pdfs[i]!,
        copies: 1,
        media: 'oe_4x6-label_4x6in',
        printScaling: 'none',
      });
      if (answer.jobId === null) throw new Error(`Print-Job for ${name} refused: IPP status 0x${answer.status.toString(16)}`);
    }
    return (performance.now() - t) / 1000;
  } finally {
    await closeIppConnections();
  }
}

/** Pages in the jobs a queue received (the sink writes each job's PDF byte-exact). */
async function pagesOf(files: readonly string[]): Promise<number> {
  let pages = 0;
  for (const file of files) pages += (await PDFDocument.load(await fs.readFile(file))).getPageCount();
  return pages;
}

/** One agent run over the burst: webhooks for every shipment at once, until each is spooled. */
async function runAgent(
  ctx: BurstContext,
  shipments: readonly Booked[],
  name: string,
  batchMax?: number,
): Promise<{ seconds: number; first: number; outputs: string[]; outputsBefore: number }> {
  const { sandbox, cups, queue, count, workDir, log } = ctx;
  const webhookPort = await freePort();
  const dataDir = path.join(workDir, name);
  presetPollMark(dataDir, sandbox.baseUrl);
  await sandbox.clearLog();
  const agent = await startAgentProcess({
    args: agentArgs({
      apiUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      printer: `cups:${queue}`,
      dataDir,
      webhookPort,
      webhookSecret: SECRET,
      pollIntervalSeconds: 0,
      batchMax,
    }),
    env: cups.env,
  });
  await waitForStartupPoll(sandbox);
  const outputsBefore = (await cups.outputs(queue)).length;
  const envelopes = shipments.map((b, i) => bookedEnvelope(b, { bookedAt: new Date(Date.now() - 60_000 + i) }));
  const sender = new WebhookSender(agent.webhookUrl!, SECRET, 32);
  log(`burst: ${count} webhooks at once to the agent${batchMax ? ` (--batch-max ${batchMax})` : ''}…`);
  const t0 = Date.now();
  await mapConcurrent(envelopes, 32, (e) => sender.deliver(e));
  await sender.close();
  await until(`${count} labels spooled by the agent`, () => loggedAt(agent, 'spooled').size >= count, {
    timeoutMs: 30 * 60_000,
    intervalMs: 200,
  });
  const spooledAt = [...loggedAt(agent, 'spooled').values()];
  await agent.stop();
  await cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });
  return {
    seconds: (Math.max(...spooledAt) - t0) / 1000,
    first: (Math.min(...spooledAt) - t0) / 1000,
    outputs: (await cups.outputs(queue)).slice(outputsBefore),
    outputsBefore,
  };
}
