/**
 * Printer faults: the CUPS queue is disabled in the middle of a
 * burst. Jobs wait or fail visibly, saying the queue is disabled; once it is enabled (and
 * the jobs that gave up are retried through the AgentApi, as a packer would from the UI),
 * every label prints exactly once.
 *
 * The agent runs in-process (startHeadlessAgent) so the test can follow every job event
 * and call api.retryJob directly.
 */
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../src/shared/domain';
import { startHeadlessAgent, type HeadlessAgent } from '../../src/main/headless';
import { silentLogger } from '../../src/main/log';
import { useRig } from '../support/reliability/rig';
import { SIZES } from '../support/reliability/sizes';
import { PrintedShipments } from '../support/reliability/pdf-shipments';
import { checkPdfs, countPrinted, describeCount } from '../support/reliability/spool-count';
import { sleep, until } from '../support/reliability/wait';

const QUEUE = 'printer_faults_sink';
const SECRET = 'whsec-printer-0123456789';

describe('printer faults: a queue disabled mid-burst', () => {
  let agent: HeadlessAgent | null = null;
  const rig = useRig({ name: 'printer', queue: QUEUE, secret: SECRET, stopAgent: async () => agent?.stop() });

  it(`lets ${SIZES.printerFaultLabels} labels wait or fail visibly, then prints each once after the queue is enabled`, async () => {
    const { sandbox, cups, dataDir, webhookPort } = rig();
    agent = await startHeadlessAgent({
      apiUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      dataDir,
      log: silentLogger,
      environment: 'custom',
      printer: `cups:${QUEUE}`,
      webhookPort,
      webhookSecrets: [SECRET],
      pollIntervalSeconds: 1,
      tuning: { targets: { env: cups.env }, pipeline: { retryBaseMs: 100, retryMaxMs: 1_000, followIntervalMs: 200 } },
    });
    const latest = new Map<string, JobView>();
    const history: JobView[] = [];
    const unsubscribe = agent.agent.subscribe((event) => {
      if (event.type !== 'job') return;
      latest.set(event.job.id, event.job);
      history.push(event.job);
    });
    const jobs = (): JobView[] => [...latest.values()];
    const spooled = (): number => jobs().filter((j) => j.state === 'spooled' || j.state === 'completed').length;

    const shipments: string[] = [];
    const book = async (from: number, to: number): Promise<void> => {
      for (let i = from; i < to; i++) shipments.push((await sandbox.bookShipment({ reference_id: `PF-${i}` })).shipmentId);
    };

    // A third is booked and printed, then the queue is disabled mid-burst and the rest is
    // booked: batched (the default), a burst booked at once is spooled in a job or two, all
    // of it before a fault could come between its labels.
    const third = Math.floor(SIZES.printerFaultLabels / 3);
    await book(0, third);
    await until(`${third} labels spooled before the fault`, () => spooled() >= third, { timeoutMs: 60_000, intervalMs: 5 });
    await cups.disable(QUEUE, 'Out of labels');
    const spooledAtFault = spooled();
    await book(third, SIZES.printerFaultLabels);

    // Visible: jobs say the queue is disabled, while waiting to retry or once given up.
    await until('a job to report the disabled queue', () => history.some((j) => /disabled/.test(j.reason ?? '')), { timeoutMs: 60_000 });
    await sleep(3_000);
    const stuck = spooled();
    expect(stuck).toBeLessThan(shipments.length);
    const visible = jobs().filter((j) => j.state === 'failed' || (j.state === 'queued' && /disabled/.test(j.reason ?? '')));
    for (const job of jobs().filter((j) => j.state === 'failed')) {
      expect(job.reason).toMatch(/disabled.*cupsenable/);
    }

    await cups.enable(QUEUE);
    const failed = jobs().filter((j) => j.state === 'failed');
    for (const job of failed) await agent.agent.api.retryJob({ id: job.id });

    const outputs = (): Promise<string[]> => cups.outputs(QUEUE);
    // Batched by default: labels are read from the PDFs (a batch holds several).
    const printed = new PrintedShipments();
    const labels = async (): Promise<string[]> => printed.update(await outputs());
    await until(`${shipments.length} labels`, async () => (await labels()).length >= shipments.length, {
      timeoutMs: 120_000,
      detail: async () => describeCount(countPrinted(await labels(), shipments, (await outputs()).length)),
    });
    await cups.waitForJobs({ queue: QUEUE, timeoutMs: 60_000 });
    await sleep(2_000);
    unsubscribe();

    const files = await outputs();
    const count = countPrinted(await printed.update(files), shipments, files.length);
    console.log(
      `[printer-faults] ${shipments.length} labels; ${spooledAtFault} spooled when the queue was disabled, ${stuck} after 3 s disabled; ` +
        `${visible.length} jobs showing the fault, ${failed.length} failed and retried by hand: ${describeCount(count)}`,
    );
    expect(count.missing).toEqual([]);
    expect(count.duplicated).toEqual([]);
    expect(count.unexpected).toEqual([]);
    expect((await checkPdfs(files)).broken).toEqual([]);
    expect(jobs().filter((j) => j.state === 'failed')).toEqual([]);
  });
});
