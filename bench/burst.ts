/**
 * Burst: N bookings arrive at once as webhooks; how long until every label is spooled
 * (the scheduler accepted it: the agent's IPP Print-Job, or lp for the baseline). Side by
 * side, on the same sandbox, the same shipments and the same CUPS queue:
 * - the agent as a station runs it by default: batching on, --batch-max BATCH_MAX (passed
 *   explicitly, so the figure is the same whichever default the CLI has);
 * - the same agent with --batch-max 1 (every label alone, the agent before batching);
 * - the DIY baseline (bench/diy-baseline.sh: a sequential curl + lp loop);
 * - the limit with batching: max(fetch-only, the first shipment alone then BATCH_MAX a call
 *   at the best of concurrency 1, 2, 4, 8; spool-only, those batched PDFs handed over with
 *   IPP Print-Job in order on one keep-alive connection);
 * - the limit without batching, as measured before (every PDF alone), for comparison with
 *   earlier runs; lp in order and four at a time for reference.
 * Pages used: the pages of every job each side put on the queue (pdf-lib page counts).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PrivateCups } from '../test/support/cups';
import { runAgentBurst, type AgentBurstRun } from './agent-burst';
import { runBaseline } from './baseline';
import { burstResult, type AgentRun, type BurstResult } from './burst-result';
import { fetchCalls, fetchLimitAlone, fetchLimitBatched, printCalls, spoolIpp, spoolLp, writePdfs } from './limit';
import { pagesOf } from './pages';
import type { SandboxProcess } from './sandbox-process';

export type { BurstResult } from './burst-result';

/** The agent's batch size when batching is on (the CLI's maximum, and the default being switched to). */
export const BATCH_MAX = 25;
const BATCHED_CONCURRENCIES = [1, 2, 4, 8];
const ALONE_CONCURRENCIES = [1, 2, 4, 8, 16];

export interface BurstContext {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly count: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

const WARM_UP_SHIPMENTS = 5;

export async function runBurst(ctx: BurstContext): Promise<BurstResult> {
  const { sandbox, cups, queue, count, workDir, log } = ctx;
  const settle = (): Promise<void> => cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });

  // ---- the agent: the default (batched) run, then each label alone --------------------------
  const shipments = await sandbox.book(count, 'BURST');
  const ids = shipments.map((s) => s.shipmentId);
  const run = { sandbox, cups, queue, workDir, log };
  // The service a station talks to is warm; the sandbox's first print calls are not (fonts,
  // barcode encoder, JIT). Without this the first run's first label carried that cold start.
  await warmSandbox(sandbox);
  const agent = await runAgentBurst({ ...run, name: 'burst-agent', batchMax: BATCH_MAX }, shipments);
  log(`burst: agent (--batch-max ${BATCH_MAX}) ${agent.seconds.toFixed(1)} s in ${agent.outputs.length} jobs`);
  // The same shipments again with a fresh ledger, so they print again.
  const alone = await runAgentBurst({ ...run, name: 'burst-agent-alone', batchMax: 1 }, shipments);
  log(`burst: agent alone (--batch-max 1) ${alone.seconds.toFixed(1)} s in ${alone.outputs.length} jobs`);

  // ---- the DIY baseline -----------------------------------------------------------------
  log(`burst: DIY baseline (curl + lp, one after another)…`);
  const baseline = await runBaseline({ sandbox, cups, queue, ids, workDir, layout: 'printer' });
  log(`burst: baseline ${baseline.seconds.toFixed(1)} s`);

  // ---- the limit with batching ------------------------------------------------------------
  const calls = printCalls(ids, BATCH_MAX);
  log(`burst: fetch-only with batching (${calls.length} calls) at concurrency ${BATCHED_CONCURRENCIES.join(', ')}…`);
  const fetch = await fetchLimitBatched(sandbox, calls, BATCHED_CONCURRENCIES);
  const spool = await spoolIpp(
    cups,
    queue,
    fetch.pdfs,
    calls.map((c) => `limit ${c[0]} +${c.length - 1}`),
  );
  await settle();
  log(
    `burst: limit ${Math.max(fetch.seconds, spool).toFixed(2)} s (fetch ${fetch.seconds.toFixed(2)} s at ${fetch.concurrency}, IPP ${spool.toFixed(2)} s)`,
  );

  // ---- the limit without batching (as measured before batching) -----------------------------
  const fetchAlone = await fetchLimitAlone(sandbox, ids, ALONE_CONCURRENCIES);
  const spoolAlone = await spoolIpp(
    cups,
    queue,
    fetchAlone.pdfs,
    ids.map((id) => `limit ${id}`),
  );
  await settle();
  const files = await writePdfs(path.join(workDir, 'prefetched'), fetchAlone.pdfs, ids);
  const spoolLpInOrder = await spoolLp(cups, queue, files, 1);
  await settle();
  const unordered = await spoolLp(cups, queue, files, 4);
  await settle();
  await fs.rm(path.join(workDir, 'prefetched'), { recursive: true, force: true });
  log(
    `burst: limit alone ${Math.max(fetchAlone.seconds, spoolAlone).toFixed(2)} s (fetch ${fetchAlone.seconds.toFixed(2)} s ` +
      `at ${fetchAlone.concurrency}, IPP ${spoolAlone.toFixed(2)} s; lp ${spoolLpInOrder.toFixed(1)} s)`,
  );

  return burstResult({
    shipments: count,
    agent: await agentRun(agent),
    batchMax: BATCH_MAX,
    agentAlone: await agentRun(alone),
    baseline: { seconds: baseline.seconds, pages: await pagesOf(baseline.outputs) },
    limit: {
      fetchSeconds: fetch.seconds,
      fetchConcurrency: fetch.concurrency,
      fetchByConcurrency: fetch.byConcurrency,
      spoolSeconds: spool,
      calls: calls.length,
    },
    limitAlone: {
      fetchSeconds: fetchAlone.seconds,
      fetchConcurrency: fetchAlone.concurrency,
      fetchByConcurrency: fetchAlone.byConcurrency,
      spoolSeconds: spoolAlone,
      spoolLpSeconds: spoolLpInOrder,
      spoolLpUnorderedSeconds: unordered,
    },
  });
}

async function agentRun(run: AgentBurstRun): Promise<AgentRun> {
  return { seconds: run.seconds, first: run.first, delivered: run.delivered, pages: await pagesOf(run.outputs), jobs: run.outputs.length };
}

/** A few print calls, alone and batched, on shipments of their own, before anything is timed. */
async function warmSandbox(sandbox: SandboxProcess): Promise<void> {
  const warm = (await sandbox.book(WARM_UP_SHIPMENTS, 'WARM')).map((s) => s.shipmentId);
  await fetchCalls(sandbox, [...warm.map((id) => [id]), warm], 2);
}
