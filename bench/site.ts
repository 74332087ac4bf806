/**
 * A site: a private nats-server, a relay and `stations` stations as agents in
 * this process (each its own ledger and folder printer), against the sandbox process. Each
 * station takes the references that start with its own prefix by a station rule, so every
 * booking has one right station. Measured, one booking at a time at times not aligned with
 * the polls: booking → spooled at the right station with the relay polling every 2 s, the
 * service requests a minute the whole site makes for its intake (everything but the label
 * fetches, which each printed label needs wherever it prints), and the same latency with the
 * sandbox's webhooks going to the relay. Then every folder is counted: missing, duplicated.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { startHeadlessAgent, type HeadlessAgent } from '../src/main/headless';
import { createLogger } from '../src/main/log';
import { startRelay, type Relay } from '../src/main/site/relay/relay';
import { startNatsServer } from '../test/support/nats';
import { freePort } from '../test/support/net';
import { summarize } from '../test/support/reliability/stats';
import type { SandboxProcess } from './sandbox-process';

export interface SiteResult {
  readonly stations: number;
  readonly samples: number;
  readonly poll_interval_s: number;
  readonly booking_to_spooled_p50_ms: number;
  readonly booking_to_spooled_p95_ms: number;
  readonly booking_to_spooled_max_ms: number;
  /** Intake requests (everything but POST /shipments/print) of the whole site, a minute. */
  readonly service_requests_per_minute: number;
  /** Those requests by method and path (ids as `{id}`), over the whole polling window. */
  readonly intake_requests_by_path: Readonly<Record<string, number>>;
  readonly webhook_to_spooled_p50_ms: number;
  readonly webhook_to_spooled_p95_ms: number;
  readonly missing: number;
  readonly duplicated: number;
  /** Bookings spooled at another station than the one that should print them. */
  readonly wrong_station: number;
}

export interface SiteContext {
  readonly sandbox: SandboxProcess;
  readonly stations: number;
  readonly samples: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

const SECRET = 'whsec_bench_site_0123456789abcdef';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const nameOf = (i: number): string => `Station ${i + 1}`;

export async function runSite(ctx: SiteContext): Promise<SiteResult> {
  const { sandbox, log } = ctx;
  const nats = await startNatsServer();
  const quiet = createLogger({ write: () => undefined });
  const dir = path.join(ctx.workDir, 'site');
  const agents: HeadlessAgent[] = [];
  /** shipment id → [station, time] of its first spooled (or completed) job, per station. */
  const spooled = new Map<string, Array<{ station: string; at: number }>>();
  let relay: Relay | null = null;
  try {
    log(`site: ${ctx.stations} stations on a private nats-server…`);
    for (let i = 0; i < ctx.stations; i++) {
      const name = nameOf(i);
      const agent = await startHeadlessAgent({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        dataDir: path.join(dir, `s${i + 1}`, 'data'),
        log: quiet,
        printer: `folder:${path.join(dir, `s${i + 1}`, 'prints')}`,
        pollIntervalSeconds: 0,
        site: { servers: [nats.url], station: name },
      });
      await agent.agent.api.saveSettings({
        stationRules: { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: `S${i + 1}-` }] },
      });
      agent.agent.subscribe((event) => {
        if (event.type !== 'job' || (event.job.state !== 'spooled' && event.job.state !== 'completed')) return;
        const seen = spooled.get(event.job.shipmentId) ?? [];
        if (!seen.some((s) => s.station === name)) seen.push({ station: name, at: Date.now() });
        spooled.set(event.job.shipmentId, seen);
      });
      await agent.agent.site!.ready;
      agents.push(agent);
    }

    const expected = new Map<string, string>();
    const measure = async (label: string, samples: number, stepMs: number): Promise<number[]> => {
      const latencies: number[] = [];
      for (let n = 0; n < samples; n++) {
        const k = (n * 7) % ctx.stations; // every station in turn, not in order
        const t0 = Date.now();
        const [booked] = await sandbox.book(1, `S${k + 1}-${label}${n}`);
        expected.set(booked!.shipmentId, nameOf(k));
        const deadline = Date.now() + 30_000;
        while (!spooled.get(booked!.shipmentId) && Date.now() < deadline) await sleep(5);
        const first = spooled.get(booked!.shipmentId)?.[0];
        if (first) latencies.push(first.at - t0);
        await sleep(stepMs);
      }
      return latencies;
    };

    // Polling: the relay alone polls, every 2 s.
    relay = await startRelay({
      servers: [nats.url],
      apiUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      dataDir: path.join(dir, 'relay-poll'),
      log: quiet,
      pollIntervalSeconds: 2,
      defaultStations: [nameOf(0)],
    });
    await sleep(3_000); // its first (reconciling) poll
    await sandbox.clearLog();
    const t0 = Date.now();
    log(`site: ${ctx.samples} bookings, relay polling every 2 s…`);
    // Spaced by a step that is no divisor of the interval: bookings land at every phase of the poll.
    const polled = await measure('p', ctx.samples, 730);
    const minutes = (Date.now() - t0) / 60_000;
    const intakeLog = (await sandbox.log()).filter((r) => !(r.method === 'POST' && r.url.startsWith('/external/v1/shipments/print')));
    const intake = intakeLog.length;
    const byPath: Record<string, number> = {};
    for (const r of intakeLog) {
      const route = r.url.split('?')[0]!.replace(/^\/external\/v1/, '');
      const key = `${r.method} ${route.replace(/^\/shipments\/[^/]+/, '/shipments/{id}')}`;
      byPath[key] = (byPath[key] ?? 0) + 1;
    }
    await relay.stop();
    relay = null;

    // Webhooks to the relay (one reconciling poll at start, no polling after).
    const webhookPort = await freePort();
    relay = await startRelay({
      servers: [nats.url],
      apiUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      dataDir: path.join(dir, 'relay-webhooks'),
      log: quiet,
      webhook: { port: webhookPort, secrets: [SECRET] },
      pollIntervalSeconds: 0,
      defaultStations: [nameOf(0)],
    });
    await sandbox.setWebhooks([{ url: `http://127.0.0.1:${webhookPort}/webhooks`, secret: SECRET }]);
    log(`site: ${ctx.samples} bookings, webhooks to the relay…`);
    const pushed = await measure('w', ctx.samples, 150);
    await sandbox.setWebhooks([]);

    await sleep(2_000);
    // Counted on paper: every folder, per shipment.
    const printedAt = new Map<string, string[]>();
    for (let i = 0; i < ctx.stations; i++) {
      for (const file of await fs.readdir(path.join(dir, `s${i + 1}`, 'prints')).catch(() => [] as string[])) {
        if (!file.endsWith('.pdf')) continue;
        const id = file.split('_')[0]!;
        if (expected.has(id)) printedAt.set(id, [...(printedAt.get(id) ?? []), nameOf(i)]);
      }
    }
    const poll = summarize(polled);
    const hook = summarize(pushed);
    return {
      stations: ctx.stations,
      samples: ctx.samples,
      poll_interval_s: 2,
      booking_to_spooled_p50_ms: Math.round(poll.p50),
      booking_to_spooled_p95_ms: Math.round(poll.p95),
      booking_to_spooled_max_ms: Math.round(poll.max),
      service_requests_per_minute: Math.round((intake / minutes) * 10) / 10,
      intake_requests_by_path: byPath,
      webhook_to_spooled_p50_ms: Math.round(hook.p50),
      webhook_to_spooled_p95_ms: Math.round(hook.p95),
      missing: [...expected.keys()].filter((id) => !printedAt.has(id)).length,
      duplicated: [...printedAt.values()].filter((at) => at.length > 1).length,
      wrong_station: [...printedAt].filter(([id, at]) => at[0] !== expected.get(id)).length,
    };
  } finally {
    await relay?.stop().catch(() => undefined);
    for (const agent of agents) await agent.stop().catch(() => undefined);
    await nats.stop();
  }
}
