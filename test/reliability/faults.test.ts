/**
 * Service faults, through the sandbox's fault knobs while a burst is printed:
 * 20 % 5xx, 429 with Retry-After, dropped connections, labels not ready for 3 s after
 * booking, and a spell of answers slower than the client's timeout. Every label comes out
 * exactly once, the agent does not crash, and its memory stays bounded (RSS sampled from
 * /proc while it works).
 *
 * The agent runs as a child process through the suite's launcher (tuned-agent.ts), the
 * same startHeadlessAgent as the CLI, with a 1 s client timeout so the slow spell turns
 * into timeouts within the test's time.
 */
import { describe, expect, it } from 'vitest';
import type { HeadlessAgentOptions } from '../../src/main/headless';
import { parseJobLines, startAgentProcess, TUNED_AGENT, type AgentProcess } from '../support/reliability/agent-process';
import { bridgeCall } from '../support/reliability/bridge';
import { useRig } from '../support/reliability/rig';
import { sampleRss } from '../support/reliability/proc-stats';
import { SIZES } from '../support/reliability/sizes';
import { PrintedShipments } from '../support/reliability/pdf-shipments';
import { checkPdfs, countPrinted, describeCount } from '../support/reliability/spool-count';
import { round, summarize } from '../support/reliability/stats';
import { sleep, until } from '../support/reliability/wait';

const QUEUE = 'faults_sink';
const SECRET = 'whsec-faults-0123456789';
/** Far above the ~100 MB a healthy agent uses; a leak per retried request would pass it. */
const RSS_BOUND_MB = 400;

describe('faults: a flaky service during a burst', () => {
  let agent: AgentProcess | null = null;
  const rig = useRig({ name: 'faults', queue: QUEUE, secret: SECRET, stopAgent: async () => agent?.kill('SIGKILL') });

  it(`prints each of ${SIZES.faultLabels} labels exactly once through 5xx, 429, drops, timeouts and late labels`, async () => {
    const { sandbox, cups, dataDir, webhookPort } = rig();
    const options: Omit<HeadlessAgentOptions, 'log'> = {
      apiUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      dataDir,
      environment: 'custom',
      printer: `cups:${QUEUE}`,
      webhookPort,
      webhookSecrets: [SECRET],
      pollIntervalSeconds: 1,
      uiPort: 0,
      tuning: {
        client: { timeoutMs: 1_000, retryBaseMs: 50, retryMaxMs: 2_000 },
        pipeline: { retryBaseMs: 100, retryMaxMs: 2_000 },
      },
    };
    agent = await startAgentProcess({ script: TUNED_AGENT, args: [], env: { ...cups.env, RELIABILITY_AGENT: JSON.stringify(options) } });
    const rss = sampleRss(() => (agent?.running ? agent.pid : null), 250);

    sandbox.setFaults({ errorRate: 0.2, rateLimitRate: 0.1, retryAfterSeconds: 1, dropRate: 0.05, labelDelayMs: 3_000 });
    const shipments: string[] = [];
    const book = async (n: number, tag: string): Promise<void> => {
      for (let i = 0; i < n; i++) shipments.push((await sandbox.bookShipment({ reference_id: `${tag}-${i}` })).shipmentId);
    };
    const quarter = Math.floor(SIZES.faultLabels / 4);
    await book(SIZES.faultLabels - 2 * quarter, 'FAULT-A');
    await sleep(1_500);
    // A slow spell: every answer takes longer than the client waits.
    sandbox.setFaults({ latencyMs: 1_500 });
    await book(quarter, 'FAULT-SLOW');
    await sleep(4_000);
    sandbox.setFaults({ latencyMs: 0 });
    await book(quarter, 'FAULT-B');

    // Under faults, every label either comes out or is given up on (failed, visibly).
    const outputs = (): Promise<string[]> => cups.outputs(QUEUE);
    // Batched by default: labels are read from the PDFs (a batch holds several).
    const printed = new PrintedShipments();
    const labelsOut = async (): Promise<number> => (await printed.update(await outputs())).length;
    const failedJobs = async (): Promise<number> => (await bridgeCall(agent!.uiUrl!, 'listJobs', { state: 'failed', limit: 500 })).length;
    await until(
      `${shipments.length} labels out or given up under faults`,
      async () => (await labelsOut()) + (await failedJobs()) >= shipments.length,
      {
        timeoutMs: 120_000,
        intervalMs: 500,
      },
    );
    const underFaults = await labelsOut();

    // What the agent gave up on (bounded attempts) is failed, visibly; a person retries it.
    sandbox.setFaults({ errorRate: 0, rateLimitRate: 0, dropRate: 0, labelDelayMs: 0 });
    expect(agent.running, `the agent stopped under faults:\n${agent.lines.slice(-30).join('\n')}`).toBe(true);
    const failed = await bridgeCall(agent.uiUrl!, 'listJobs', { state: 'failed', limit: 500 });
    for (const job of failed) {
      expect(job.reason, `failed job ${job.id} says why`).toBeTruthy();
      await bridgeCall(agent.uiUrl!, 'retryJob', { id: job.id });
    }
    await until(`${shipments.length} labels`, async () => (await labelsOut()) >= shipments.length, {
      timeoutMs: 120_000,
      detail: async () => describeCount(countPrinted(await printed.update(await outputs()), shipments, (await outputs()).length)),
    });
    await cups.waitForJobs({ queue: QUEUE, timeoutMs: 60_000 });
    await sleep(2_500);

    const samples = rss.stop();
    const files = await outputs();
    const count = countPrinted(await printed.update(files), shipments, files.length);
    const lines = parseJobLines(agent.lines);
    const waits = agent.lines.filter((l) => / queued .*retrying in /.test(l)).length;
    const memory = summarize(samples);
    console.log(
      `[faults] ${shipments.length} labels: ${describeCount(count)}; ${underFaults} out while faults were on; ` +
        `${waits} retry waits logged, ${failed.length} gave up and retried by hand${failed.length ? ` (${failed.map((j) => j.reason).join(' | ')})` : ''}; ` +
        `RSS MB p50 ${round(memory.p50)} max ${round(memory.max)} over ${memory.n} samples`,
    );
    expect(agent.running, `the agent crashed:\n${agent.lines.slice(-20).join('\n')}`).toBe(true);
    expect(count.missing).toEqual([]);
    expect(count.duplicated).toEqual([]);
    expect(count.unexpected).toEqual([]);
    expect((await checkPdfs(files)).broken).toEqual([]);
    expect(waits).toBeGreaterThan(0); // the faults were really met and waited out
    expect(lines.some((l) => l.state === 'spooled')).toBe(true);
    expect(memory.max).toBeLessThan(RSS_BOUND_MB);
  });
});
