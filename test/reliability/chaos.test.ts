/**
 * Chaos (issue 6): the agent, run through its CLI against the sandbox and a real CUPS
 * sink queue with webhooks and polling both on, is killed with SIGKILL during a burst of
 * bookings and restarted on the same data directory each time. Kills are scheduled by
 * progress (after n labels are out, plus a random fraction of a second), so every one lands
 * while labels are still being fetched and spooled, spread over the whole burst. Then
 * the spooled outputs are counted per shipment: none missing, none duplicated, every one
 * a whole PDF.
 */
import { describe, expect, it } from 'vitest';
import { agentArgs, parseJobLines, startAgentProcess, type AgentProcess } from '../support/reliability/agent-process';
import { useRig } from '../support/reliability/rig';
import { suiteRandom } from '../support/reliability/random';
import { SIZES } from '../support/reliability/sizes';
import { killThresholds } from '../support/reliability/kill-schedule';
import { checkPdfs, countByShipment, describeCount } from '../support/reliability/spool-count';
import { sleep, until } from '../support/reliability/wait';

const QUEUE = 'chaos_sink';
const SECRET = 'whsec-chaos';

describe('chaos: SIGKILL during a burst', () => {
  let agent: AgentProcess | null = null;
  const rig = useRig({ name: 'chaos', queue: QUEUE, secret: SECRET, stopAgent: async () => agent?.kill('SIGKILL') });

  const start = (): Promise<AgentProcess> => {
    const { sandbox, dataDir, webhookPort, cups } = rig();
    return startAgentProcess({
      args: agentArgs({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        printer: `cups:${QUEUE}`,
        dataDir,
        webhookPort,
        webhookSecret: SECRET,
        pollIntervalSeconds: 1,
      }),
      env: cups.env,
    });
  };

  it(`prints each of ${SIZES.chaosLabels} labels exactly once through ${SIZES.chaosKills} SIGKILLs`, async () => {
    const { between } = suiteRandom('chaos');
    const { sandbox, cups } = rig();
    agent = await start();

    const shipments: string[] = [];
    for (let i = 0; i < SIZES.chaosLabels; i++) {
      const booked = await sandbox.bookShipment({ source: i % 3 === 0 ? 'APP' : 'API', reference_id: `CHAOS-${i}` });
      shipments.push(booked.shipmentId);
    }

    const thresholds = killThresholds(shipments.length, SIZES.chaosKills, between);
    const killedAt: number[] = [];
    const spooledBefore: string[] = [];
    for (let k = 0; k < SIZES.chaosKills; k++) {
      const threshold = thresholds[k]!;
      await until(`${threshold} outputs on ${QUEUE} before kill ${k + 1}`, async () => (await cups.outputs(QUEUE)).length >= threshold, {
        timeoutMs: 120_000,
        intervalMs: 20,
        detail: async () => `${(await cups.outputs(QUEUE)).length} out; agent:\n${agent!.lines.slice(-20).join('\n')}`,
      });
      // A random moment within the next label or two: mid-fetch, mid-spool or between jobs.
      await sleep(between(0, 150));
      killedAt.push((await cups.outputs(QUEUE)).length);
      spooledBefore.push(...agent.lines);
      expect(agent.running, `the agent exited by itself before kill ${k + 1}:\n${agent.lines.slice(-30).join('\n')}`).toBe(true);
      const exit = await agent.kill('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      agent = await start();
    }

    await until(`${shipments.length} outputs on ${QUEUE}`, async () => (await cups.outputs(QUEUE)).length >= shipments.length, {
      timeoutMs: 300_000,
      intervalMs: 250,
      detail: async () => describeCount(countByShipment(await cups.outputs(QUEUE), shipments)),
    });
    // Anything still on its way would be a duplicate: let the spooler and the agent settle.
    await cups.waitForJobs({ queue: QUEUE, timeoutMs: 60_000 });
    await sleep(3_000);
    await cups.waitForJobs({ queue: QUEUE, timeoutMs: 60_000 });

    const files = await cups.outputs(QUEUE);
    const count = countByShipment(files, shipments);
    const pdfs = await checkPdfs(files);
    console.log(
      `[chaos] ${shipments.length} labels, ${SIZES.chaosKills} SIGKILLs (outputs at each kill: ${killedAt.join(', ')}): ${describeCount(count)}; ${pdfs.broken.length} broken PDFs`,
    );
    expect(count.missing).toEqual([]);
    expect(count.duplicated).toEqual([]);
    expect(count.unexpected).toEqual([]);
    expect(pdfs.broken).toEqual([]);
    // The kills really hit the burst, not an idle agent: every one came while labels were
    // still to print, and they span it (the last one in its final third).
    expect(killedAt.filter((n) => n >= shipments.length), `kills after the burst was out: ${killedAt.join(', ')}`).toEqual([]);
    expect(killedAt.every((n) => n > 0)).toBe(true);
    expect(Math.max(...killedAt)).toBeGreaterThan(shipments.length * 0.66);
    const spooledLines = parseJobLines(spooledBefore).filter((j) => j.state === 'spooled');
    expect(spooledLines.length).toBeGreaterThan(0);
    expect(agent.running).toBe(true);
  });
});
