/**
 * Chaos: the agent, run through its CLI against the sandbox and a real CUPS
 * sink queue with webhooks and polling both on, is killed with SIGKILL during a burst of
 * bookings and restarted on the same data directory each time. Kills are scheduled by
 * progress (after n labels are out, plus a random fraction of a second), so every one lands
 * while labels are still being fetched and spooled, spread over the whole burst. Then
 * the spooled outputs are counted per shipment: none missing, none duplicated, every one
 * a whole PDF.
 *
 * Batching is on by default (up to 25 labels a spooler job), so the default run is
 * batched: one output holds several labels, counted per shipment from the PDFs' own text
 * (`Shipment: <id>` on every label, read with pdftotext). An explicit `--batch-max 1` run
 * beside it keeps one job per label proven (counted by file name too).
 *
 * Order across kills: the ledger keeps every job and a restarted agent rebuilds each line in
 * booking order (booked_at), so the labels of one output, and labels waiting together, come
 * out in booking order; that is asserted per output. A notice that reaches the agent after
 * labels booked later were printed (a webhook cut by the kill and delivered again, or found
 * by the next poll) prints when it arrives: a label is never held back for a notice that
 * may never come. So across a kill the order of the whole run is not booking order; without
 * kills, with every notice in before printing starts, it is (test/reliability/outage.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { agentArgs, parseJobLines, startAgentProcess, type AgentProcess } from '../support/reliability/agent-process';
import { useRig } from '../support/reliability/rig';
import { suiteRandom } from '../support/reliability/random';
import { SIZES } from '../support/reliability/sizes';
import { killThresholds } from '../support/reliability/kill-schedule';
import { checkPdfs, countByShipment, countPrinted, describeCount } from '../support/reliability/spool-count';
import { PrintedShipments } from '../support/reliability/pdf-shipments';
import { sleep, until } from '../support/reliability/wait';

const SECRET = 'whsec-chaos-0123456789';
/** The batched run's bookings come in clumps (a wave of orders), this many at a time, this far apart. */
const CLUMP = 10;
const CLUMP_GAP_MS = 1_000;

/** The shipments' booked_at as the service reports it (GET /shipments/{id}): what a line is ordered by. */
async function bookedAt(baseUrl: string, apiKey: string, ids: readonly string[]): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const id of ids) {
    const response = await fetch(`${baseUrl}/shipments/${id}`, { headers: { 'x-api-key': apiKey } });
    const body = (await response.json()) as { booked_at?: string };
    times.set(id, Date.parse(body.booked_at ?? ''));
  }
  return times;
}

describe.each([
  { name: 'batched (the default, up to 25 labels a job)', queue: 'chaos_batch_sink', batchMax: undefined, perJob: 25 },
  // Beside it, one spooler job per label stays proven (the file names count too).
  { name: 'one job per label (--batch-max 1)', queue: 'chaos_sink', batchMax: 1, perJob: 1 },
])('chaos: SIGKILL during a burst, $name', ({ queue, batchMax, perJob }) => {
  const batched = batchMax !== 1;
  let agent: AgentProcess | null = null;
  const rig = useRig({ name: 'chaos', queue, secret: SECRET, stopAgent: async () => agent?.kill('SIGKILL') });
  const printed = new PrintedShipments();

  const start = (): Promise<AgentProcess> => {
    const { sandbox, dataDir, webhookPort, cups } = rig();
    return startAgentProcess({
      args: agentArgs({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        printer: `cups:${queue}`,
        dataDir,
        webhookPort,
        webhookSecret: SECRET,
        pollIntervalSeconds: 1,
        batchMax,
      }),
      env: cups.env,
    });
  };

  /** Labels out so far: files without batching, labels read from the PDFs with it. */
  const labelsOut = async (): Promise<number> => {
    const files = await rig().cups.outputs(queue);
    return batched ? (await printed.update(files)).length : files.length;
  };

  it(`prints each of ${SIZES.chaosLabels} labels exactly once through ${SIZES.chaosKills} SIGKILLs`, async () => {
    const { between } = suiteRandom(batched ? 'chaos-batched' : 'chaos');
    const { sandbox, cups } = rig();
    agent = await start();

    // The last kill at no more than 80% out: with IPP spooling a burst's tail of 10% prints
    // within the ~150 ms a kill takes to land, which put a kill after the burst now and then.
    const thresholds = killThresholds(SIZES.chaosLabels, SIZES.chaosKills, between, 0.8);
    /** Batched: the booking count at which each kill comes (a clump's end). */
    const clumpEnds = thresholds.map((t) => Math.ceil(t / CLUMP) * CLUMP);
    let killsDone = 0;

    const shipments: string[] = [];
    const book = async (clump: number, gapMs: number): Promise<void> => {
      for (let i = 0; i < SIZES.chaosLabels; i++) {
        // Batched, no clump is booked past the next kill's point before that kill came: 20
        // kills and restarts take longer than 50 clumps a second apart on a loaded machine,
        // and the later kills landed after the burst. Bookings go on while the agent restarts.
        if (gapMs > 0 && i % clump === 0) {
          await until(`kill ${killsDone + 1} before booking ${i + 1}`, () => killsDone >= clumpEnds.length || i < clumpEnds[killsDone]!, {
            timeoutMs: 300_000,
            intervalMs: 5,
          });
        }
        const booked = await sandbox.bookShipment({ source: i % 3 === 0 ? 'APP' : 'API', reference_id: `CHAOS-${i}` });
        shipments.push(booked.shipmentId);
        if (gapMs > 0 && i % clump === clump - 1) await sleep(gapMs);
      }
    };
    // Batched, a burst booked all at once is out before the first kill: the bookings arrive
    // in clumps instead, while the kills happen; each clump (and each restart's backlog)
    // makes batches, and a kill soon after a clump lands mid-batch.
    if (!batched) await book(1, 0);
    const booking = batched ? book(CLUMP, CLUMP_GAP_MS) : Promise.resolve();

    const killedAt: number[] = [];
    /** Jobs between fetch and spooled at each kill (from the agent's job lines). */
    const inFlightAtKill: number[] = [];
    const spooledBefore: string[] = [];
    for (let k = 0; k < SIZES.chaosKills; k++) {
      const threshold = thresholds[k]!;
      if (!batched) {
        await until(`${threshold} labels on ${queue} before kill ${k + 1}`, async () => (await labelsOut()) >= threshold, {
          timeoutMs: 120_000,
          intervalMs: 20,
          detail: async () => `${await labelsOut()} out; agent:\n${agent!.lines.slice(-20).join('\n')}`,
        });
        // A random moment within the next label or two: mid-fetch, mid-spool or between jobs.
        await sleep(between(0, 150));
      } else {
        // Batches print a clump in one go, so progress jumps from clump to clump: the kill is
        // timed from the clump's booking instead, to land while its batch is on its way.
        const clumpEnd = clumpEnds[k]!;
        // A restarted agent may still be working off its backlog: first it prints up to the
        // clump before (or the kills hit the same backlog again and again and spanned only
        // half the burst), then the kill lands once half the clump is booked, while its
        // first labels (alone, then batched) are on their way.
        await until(`${clumpEnd - CLUMP} labels out before kill ${k + 1}`, async () => (await labelsOut()) >= clumpEnd - CLUMP, {
          timeoutMs: 120_000,
          intervalMs: 20,
          detail: async () => `${await labelsOut()} out; agent:\n${agent!.lines.slice(-20).join('\n')}`,
        });
        await until(`${clumpEnd - CLUMP / 2} bookings before kill ${k + 1}`, async () => shipments.length >= clumpEnd - CLUMP / 2, {
          timeoutMs: 120_000,
          intervalMs: 2,
        });
        await sleep(between(0, 150));
      }
      killedAt.push(await labelsOut());
      const last = new Map<string, string>();
      for (const job of parseJobLines(agent.lines)) last.set(job.jobId, job.state);
      inFlightAtKill.push([...last.values()].filter((state) => state === 'fetching' || state === 'spooling').length);
      spooledBefore.push(...agent.lines);
      expect(agent.running, `the agent exited by itself before kill ${k + 1}:\n${agent.lines.slice(-30).join('\n')}`).toBe(true);
      const exit = await agent.kill('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      killsDone += 1;
      agent = await start();
    }

    await booking;
    await until(`${shipments.length} labels on ${queue}`, async () => (await labelsOut()) >= shipments.length, {
      timeoutMs: 300_000,
      intervalMs: 250,
      detail: async () => `${await labelsOut()} labels out; agent:\n${agent!.lines.slice(-20).join('\n')}`,
    });
    // Anything still on its way would be a duplicate: let the spooler and the agent settle.
    await cups.waitForJobs({ queue, timeoutMs: 60_000 });
    await sleep(3_000);
    await cups.waitForJobs({ queue, timeoutMs: 60_000 });

    const files = await cups.outputs(queue);
    const pdfs = await checkPdfs(files);
    const labels = await printed.update(files);
    // Every label says which shipment it is, and so does the file name of an unbatched job: both must agree.
    const count = batched ? countPrinted(labels, shipments, files.length) : countByShipment(files, shipments);
    const byText = countPrinted(labels, shipments, files.length);
    console.log(
      `[chaos${batched ? ' batched' : ' --batch-max 1'}] ${shipments.length} labels in ${files.length} outputs, ${SIZES.chaosKills} SIGKILLs ` +
        `(labels out at each kill: ${killedAt.join(', ')}; jobs in flight: ${inFlightAtKill.join(', ')}): ${describeCount(count)}; ${pdfs.broken.length} broken PDFs`,
    );
    expect(count.missing).toEqual([]);
    expect(count.duplicated).toEqual([]);
    expect(count.unexpected).toEqual([]);
    expect(byText.missing).toEqual([]);
    expect(byText.duplicated).toEqual([]);
    expect(pdfs.broken).toEqual([]);
    // One label per job without batching; with it, fewer outputs than labels, none over 25.
    if (batched) expect(files.length).toBeLessThan(shipments.length);
    else expect(files.length).toBe(shipments.length);
    // Whether a kill caught a batch on its way depends on timing this run cannot hold (the
    // job lines it counts from reach it late under load): the line above reports it. A kill
    // mid-batch is proven deterministically in test/main/jobs/pipeline-crash.test.ts.
    const times = await bookedAt(sandbox.baseUrl, sandbox.apiKey, shipments);
    const outOfOrder: string[] = [];
    for (const file of files) {
      const inFile = await printed.update([file]);
      expect(inFile.length).toBeLessThanOrEqual(perJob);
      // Within one output, labels in booking order, across kills too (see the top of the file).
      for (let i = 1; i < inFile.length; i++) if (times.get(inFile[i]!)! < times.get(inFile[i - 1]!)!) outOfOrder.push(file);
    }
    expect(outOfOrder).toEqual([]);
    expect([...times.values()].every(Number.isFinite)).toBe(true);
    // The kills really hit the burst, not an idle agent: every one came while labels were
    // still to print, and they span it (the last one in its final third).
    expect(
      killedAt.filter((n) => n >= shipments.length),
      `kills after the burst was out: ${killedAt.join(', ')}`,
    ).toEqual([]);
    expect(killedAt.every((n) => n > 0)).toBe(true);
    expect(Math.max(...killedAt)).toBeGreaterThan(shipments.length * 0.66);
    const spooledLines = parseJobLines(spooledBefore).filter((j) => j.state === 'spooled');
    expect(spooledLines.length).toBeGreaterThan(0);
    expect(agent.running).toBe(true);
  });
});
