/**
 * A webhook booking whose station rule needs the shipment fetched, while that fetch fails:
 * with a `sender_reference` rule the agent must GET /shipments/{id}, since the
 * webhook does not carry the field. The sandbox answers every /external/v1 request 503
 * meanwhile. Polling is off, so nothing but the webhook brings the booking in (the one
 * reconciliation at start runs before the bookings, or during the fault). The booking
 * waits, visibly, and prints exactly once after the fault clears, also across a SIGKILL and
 * a new agent on the same data dir; a booking its rule refuses never prints.
 */
import { describe, expect, it } from 'vitest';
import { agentArgs, startAgentProcess, type AgentProcess } from '../support/reliability/agent-process';
import { bridgeCall } from '../support/reliability/bridge';
import { useRig } from '../support/reliability/rig';
import { countByShipment, describeCount } from '../support/reliability/spool-count';
import { sleep, until } from '../support/reliability/wait';

const QUEUE = 'fetch_fault_sink';
const SECRET = 'whsec-fetch-fault-0123456789';

describe('webhook booking while GET /shipments/{id} fails', () => {
  let agent: AgentProcess | null = null;
  const rig = useRig({ name: 'fetch-fault', queue: QUEUE, secret: SECRET, stopAgent: async () => agent?.kill('SIGKILL') });

  const start = async (): Promise<AgentProcess> => {
    const { sandbox, dataDir, webhookPort, cups } = rig();
    return startAgentProcess({
      args: agentArgs({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        printer: `cups:${QUEUE}`,
        dataDir,
        webhookPort,
        webhookSecret: SECRET,
        pollIntervalSeconds: 0,
        uiPort: 0,
      }),
      env: cups.env,
    });
  };
  const outputs = (): Promise<string[]> => rig().cups.outputs(QUEUE);
  const waiting = async (shipmentId: string) =>
    (await bridgeCall(agent!.uiUrl!, 'listJobs', { search: shipmentId })).find((j) => j.pendingIntake && j.shipmentId === shipmentId);

  it('waits with the reason, then prints once after the fault clears, also across a restart', async () => {
    const { sandbox, cups } = rig();
    agent = await start();
    await bridgeCall(agent.uiUrl!, 'saveSettings', {
      stationRules: { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'sender_reference', pattern: 'WH-' }] },
    });
    // Let the start's one reconciliation finish before the bookings: only webhooks bring them.
    await sleep(1_000);

    sandbox.setFaults({ errorRate: 1 });
    const printed = (await sandbox.bookShipment({ reference_id: 'FETCH-A', sender_reference: 'WH-A' })).shipmentId;
    const refused = (await sandbox.bookShipment({ reference_id: 'FETCH-B', sender_reference: 'OTHER-B' })).shipmentId;
    const WHY = /^Waiting for the shipment's details: .*GET \/shipments\/.* failed .*request id .*Next try at /;
    for (const id of [printed, refused]) {
      await until(`booking ${id} shown as waiting, with why`, async () => WHY.test((await waiting(id))?.reason ?? ''), {
        timeoutMs: 30_000,
      });
    }
    await sleep(1_500);
    expect(await outputs()).toEqual([]);

    sandbox.setFaults({ errorRate: 0 });
    await until('the waiting booking to print', async () => (await outputs()).length >= 1, { timeoutMs: 60_000 });
    await until('no booking left waiting', async () => (await waiting(printed)) === undefined && (await waiting(refused)) === undefined, {
      timeoutMs: 30_000,
    });

    // Again, with the agent killed while the booking waits and a new one started on the same data dir.
    sandbox.setFaults({ errorRate: 1 });
    const afterRestart = (await sandbox.bookShipment({ reference_id: 'FETCH-C', sender_reference: 'WH-C' })).shipmentId;
    await until(`booking ${afterRestart} shown as waiting`, async () => (await waiting(afterRestart)) !== undefined, { timeoutMs: 30_000 });
    await agent.kill('SIGKILL');
    agent = await start();
    await sleep(1_500);
    expect(await waiting(afterRestart), 'the new agent still shows the booking waiting').toBeDefined();
    expect((await outputs()).length).toBe(1);

    sandbox.setFaults({ errorRate: 0 });
    const all = [printed, afterRestart];
    await until('the booking kept across the restart to print', async () => (await outputs()).length >= 2, {
      timeoutMs: 90_000,
      detail: async () => describeCount(countByShipment(await outputs(), [...all, refused])),
    });
    await cups.waitForJobs({ queue: QUEUE, timeoutMs: 30_000 });
    await sleep(3_000); // a second print would show up now

    const count = countByShipment(await outputs(), [...all, refused]);
    console.log(`[fetch-fault] ${describeCount(count)}`);
    expect(count.missing).toEqual([refused]);
    expect(count.duplicated).toEqual([]);
    expect(count.unexpected).toEqual([]);
    expect(await waiting(afterRestart)).toBeUndefined();
    expect(agent.running).toBe(true);
  });
});
