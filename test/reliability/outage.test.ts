/**
 * Outage: the agent is down while bookings happen. The
 * service's webhooks for them are lost (the sandbox's endpoints are switched off for the
 * outage, as if its retries ran out), so only the poller's reconciliation on start can
 * find them. When the agent is back, every one prints exactly once.
 *
 * Batched (the default): the labels are counted from the PDFs' text. The poller
 * submits what it found in booking order, all of it waiting before anything prints, and no
 * kill interrupts the catch-up: here the labels must come out in exactly booking order.
 */
import { describe, expect, it } from 'vitest';
import { agentArgs, parseJobLines, startAgentProcess, type AgentProcess } from '../support/reliability/agent-process';
import { useRig } from '../support/reliability/rig';
import { SIZES } from '../support/reliability/sizes';
import { PrintedShipments } from '../support/reliability/pdf-shipments';
import { checkPdfs, countPrinted, describeCount } from '../support/reliability/spool-count';
import { sleep, until } from '../support/reliability/wait';

const QUEUE = 'outage_sink';
const SECRET = 'whsec-outage-0123456789';

describe('outage: bookings while the agent is down', () => {
  let agent: AgentProcess | null = null;
  const rig = useRig({ name: 'outage', queue: QUEUE, secret: SECRET, stopAgent: async () => agent?.kill('SIGKILL') });

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

  const outputs = (): Promise<string[]> => rig().cups.outputs(QUEUE);
  const printed = new PrintedShipments();
  /** Labels out so far, read from the PDFs (a batch holds several), in output then page order. */
  const labels = async (): Promise<string[]> => printed.update(await outputs());

  it(`prints all ${SIZES.outageBookings} bookings made during the outage exactly once when the agent is back`, async () => {
    const { sandbox, cups, endpoint } = rig();
    agent = await start();
    const before: string[] = [];
    for (let i = 0; i < 5; i++) before.push((await sandbox.bookShipment({ reference_id: `PRE-${i}` })).shipmentId);
    await until('the bookings made before the outage to print', async () => (await labels()).length >= before.length, {
      timeoutMs: 60_000,
    });
    // Let the poller move its mark past them.
    await sleep(2_500);

    const exit = await agent.stop();
    expect(exit.code).toBe(0); // a clean stop on SIGTERM
    sandbox.setWebhooks([]);
    const during: string[] = [];
    for (let i = 0; i < SIZES.outageBookings; i++) {
      during.push((await sandbox.bookShipment({ source: i % 2 ? 'API' : 'APP', reference_id: `OUTAGE-${i}` })).shipmentId);
    }
    await sleep(1_000);
    expect(await labels()).toHaveLength(before.length); // nothing printed while down
    const filesBefore = (await outputs()).length;

    agent = await start();
    sandbox.setWebhooks([endpoint]);
    const all = [...before, ...during];
    await until(`${all.length} labels`, async () => (await labels()).length >= all.length, {
      timeoutMs: 180_000,
      detail: async () => describeCount(countPrinted(await labels(), all, (await outputs()).length)),
    });
    await cups.waitForJobs({ queue: QUEUE, timeoutMs: 60_000 });
    await sleep(3_000); // two more polls: a second print would show up now

    const files = await outputs();
    const count = countPrinted(await printed.update(files), all, files.length);
    console.log(`[outage] ${during.length} bookings while down, ${before.length} before: ${describeCount(count)}`);
    expect(count.missing).toEqual([]);
    expect(count.duplicated).toEqual([]);
    expect(count.unexpected).toEqual([]);
    expect((await checkPdfs(files)).broken).toEqual([]);
    // The catch-up in booking order, batched: fewer jobs than labels.
    expect(await printed.update(files.slice(filesBefore))).toEqual(during);
    expect(files.length - filesBefore).toBeLessThan(during.length);

    // They came back through the poller's reconciliation (no webhook reached the agent).
    const queued = parseJobLines(agent.lines).filter((j) => j.state === 'queued' && during.includes(j.shipmentId));
    expect(new Set(queued.map((j) => j.shipmentId)).size).toBe(during.length);
    expect(queued.every((j) => j.trigger === 'poll')).toBe(true);
  });
});
