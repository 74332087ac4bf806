/**
 * Chaos (issue 6): the agent, run through its CLI against the sandbox and a real CUPS
 * sink queue with webhooks and polling both on, is killed with SIGKILL at random moments
 * during a burst of bookings and restarted on the same data directory each time. Then
 * the spooled outputs are counted per shipment: none missing, none duplicated, every one
 * a whole PDF.
 */
import { describe, expect, it } from 'vitest';
import { agentArgs, parseJobLines, startAgentProcess, type AgentProcess } from './support/agent-process';
import { useRig } from './support/rig';
import { suiteRandom } from './support/random';
import { SIZES } from './support/sizes';
import { checkPdfs, countByShipment, describeCount } from './support/spool-count';
import { sleep, until } from './support/wait';

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

    // Labels start coming out about 1.5 s after a (re)start; kill within 0.5..2.5 s so most
    // kills land while labels are being fetched and spooled.
    const killedAt: number[] = [];
    const spooledBefore: string[] = [];
    for (let k = 0; k < SIZES.chaosKills; k++) {
      await sleep(between(500, 2500));
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
    // The kills really hit the burst, not an idle agent: labels were spooled before some
    // kills and were still to come after them.
    expect(killedAt.some((n) => n > 0 && n < shipments.length)).toBe(true);
    const spooledLines = parseJobLines(spooledBefore).filter((j) => j.state === 'spooled');
    expect(spooledLines.length).toBeGreaterThan(0);
    expect(agent.running).toBe(true);
  });
});
