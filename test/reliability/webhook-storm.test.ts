/**
 * Webhook storm: thousands of deliveries straight at the agent's webhook
 * receiver (the CLI as a child process): 10 % duplicates (half a retry with the same
 * message_id, half the same booking under another message_id, as a second endpoint
 * sends it), 10 % reordered, 5 % forged signatures and 5 % stale timestamps, the rest
 * valid bookings and tracking events.
 *
 * Forged and stale deliveries name shipments that get no valid delivery at all, so
 * accepting one would print a label that must not exist. Asserted: every forged or stale
 * delivery is answered 401 and prints nothing, every booked shipment prints exactly once.
 * The acknowledgement times are printed (target p99 < 100 ms), not asserted.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { agentArgs, startAgentProcess, type AgentProcess } from '../support/reliability/agent-process';
import { freePort } from '../support/net';
import { suiteRandom } from '../support/reliability/random';
import { SIZES } from '../support/reliability/sizes';
import { countByShipment, describeCount, folderOutputs } from '../support/reliability/spool-count';
import { round, summarize } from '../support/reliability/stats';
import { sleep, until } from '../support/reliability/wait';
import {
  bookedEnvelope,
  mapConcurrent,
  trackingEnvelope,
  WebhookSender,
  type Booking,
  type Signing,
} from '../support/reliability/webhook-sender';

const SECRET = 'whsec-storm-0123456789';
const TRACKING = ['IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELAYED', 'DELIVERED', 'ON_HOLD'];

interface Delivery {
  readonly kind: 'booked' | 'tracking' | 'retry' | 'second-endpoint' | 'forged' | 'stale';
  readonly envelope: Record<string, unknown>;
  readonly signing: Signing;
  /** Moved later than its place in time. */
  reordered?: boolean;
}

describe('webhook storm', () => {
  let sandbox: Sandbox;
  let dataDir: string;
  let printDir: string;
  let agent: AgentProcess | null = null;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rel-storm-'));
    printDir = path.join(dataDir, 'prints');
  });

  afterAll(async () => {
    await agent?.kill('SIGKILL');
    await sandbox?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(`accepts no forged or stale delivery and prints each booking once among ${SIZES.stormDeliveries} deliveries`, async () => {
    const { between } = suiteRandom('storm');
    const total = SIZES.stormDeliveries;
    const n = {
      forged: Math.round(total * 0.05),
      stale: Math.round(total * 0.05),
      duplicates: Math.round(total * 0.1),
      booked: Math.round(total * 0.3),
    };
    const trackingCount = total - n.forged - n.stale - n.duplicates - n.booked;

    // Polling off; the agent still reconciles once at start (a poll), so it is started, and
    // that poll answered, before any shipment exists: from then on only the storm's
    // deliveries can make it print.
    const webhookPort = await freePort();
    agent = await startAgentProcess({
      args: agentArgs({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        printer: `folder:${printDir}`,
        dataDir,
        webhookPort,
        webhookSecret: SECRET,
        pollIntervalSeconds: 0,
      }),
    });
    await until('the start-up reconciliation poll', () =>
      sandbox.requestLog().some((r) => r.method === 'GET' && r.url.startsWith('/external/v1/shipments?') && r.status === 200),
    );
    await sleep(500);

    const book = async (count: number, tag: string): Promise<Booking[]> => {
      const out: Booking[] = [];
      for (let i = 0; i < count; i++) {
        const b = await sandbox.bookShipment({ reference_id: `${tag}-${i}` });
        out.push({ shipmentId: b.shipmentId, trackingId: b.trackingId, referenceId: b.referenceId });
      }
      return out;
    };
    // The storm's bookings are made after the station's first start, and their deliveries say so:
    // a fresh station holds back what was booked before it (first-start.ts).
    const bookedFrom = Date.now();
    const good = await book(n.booked, 'STORM');
    const forgedOnly = await book(n.forged, 'FORGED');
    const staleOnly = await book(n.stale, 'STALE');

    // In time order: bookings, then tracking events for them, timestamps ascending.
    const t0 = Date.now() - 60_000;
    const timeline: Delivery[] = good.map((b, i) => ({
      kind: 'booked',
      envelope: bookedEnvelope(b, { bookedAt: new Date(bookedFrom + i) }),
      signing: 'valid',
    }));
    for (let i = 0; i < trackingCount; i++) {
      const b = good[i % good.length]!;
      timeline.push({
        kind: 'tracking',
        envelope: trackingEnvelope(b, TRACKING[i % TRACKING.length]!, new Date(t0 + 30_000 + i * 10)),
        signing: 'valid',
      });
    }
    // 10 % of all deliveries arrive later than their place in time.
    const reorder = Math.round(total * 0.1);
    for (let k = 0; k < reorder; k++) {
      const from = between(0, timeline.length - 2);
      const [moved] = timeline.splice(from, 1);
      moved!.reordered = true;
      timeline.splice(between(from + 1, timeline.length), 0, moved!);
    }
    const insertAnywhere = (d: Delivery): void => {
      timeline.splice(between(0, timeline.length), 0, d);
    };
    const bookedDeliveries = timeline.filter((d) => d.kind === 'booked');
    for (let i = 0; i < n.duplicates; i++) {
      const original = bookedDeliveries[between(0, bookedDeliveries.length - 1)]!;
      const at = timeline.indexOf(original);
      const copy: Delivery =
        i % 2 === 0
          ? { kind: 'retry', envelope: original.envelope, signing: 'valid' }
          : { kind: 'second-endpoint', envelope: { ...original.envelope, message_id: randomUUID() }, signing: 'valid' };
      timeline.splice(between(at + 1, timeline.length), 0, copy);
    }
    for (const b of forgedOnly) insertAnywhere({ kind: 'forged', envelope: bookedEnvelope(b), signing: 'forged' });
    for (const b of staleOnly) insertAnywhere({ kind: 'stale', envelope: bookedEnvelope(b), signing: 'stale' });
    expect(timeline.length).toBe(total);

    const sender = new WebhookSender(agent.webhookUrl!, SECRET, 16);
    const started = Date.now();
    const results = await mapConcurrent(timeline, 16, (d) => sender.deliver(d.envelope, d.signing));
    const sendSeconds = (Date.now() - started) / 1000;
    await sender.close();

    const byKind = (kind: Delivery['kind']): number[] => timeline.flatMap((d, i) => (d.kind === kind ? [results[i]!.status] : []));
    expect(byKind('forged').every((s) => s === 401)).toBe(true);
    expect(byKind('stale').every((s) => s === 401)).toBe(true);
    for (const kind of ['booked', 'tracking', 'retry', 'second-endpoint'] as const) {
      expect(
        byKind(kind).every((s) => s === 200),
        `${kind} deliveries all acknowledged 200`,
      ).toBe(true);
    }

    const shipmentIds = good.map((b) => b.shipmentId);
    const outputs = (): Promise<string[]> => folderOutputs(printDir);
    await until(`${good.length} labels in ${printDir}`, async () => (await outputs()).length >= good.length, {
      timeoutMs: 300_000,
      intervalMs: 250,
      detail: async () => describeCount(countByShipment(await outputs(), shipmentIds)),
    });
    await sleep(2_000);
    const files = await outputs();
    const count = countByShipment(files, shipmentIds);
    const ack = summarize(results.map((r) => r.ms));
    console.log(
      `[storm] ${total} deliveries in ${round(sendSeconds)} s (${n.booked} bookings, ${trackingCount} tracking, ${n.duplicates} duplicates, ` +
        `${reorder} reordered, ${n.forged} forged, ${n.stale} stale): ${describeCount(count)}; ` +
        `ack ms p50 ${round(ack.p50)} p95 ${round(ack.p95)} p99 ${round(ack.p99)} max ${round(ack.max)} (target p99 < 100 ms)`,
    );
    expect(count.missing).toEqual([]);
    expect(count.duplicated).toEqual([]);
    // Nothing for a shipment that only forged or stale deliveries named.
    expect(count.unexpected).toEqual([]);
    expect(agent.running).toBe(true);
  });
});
