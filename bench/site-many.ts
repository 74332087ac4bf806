/**
 * A site of hundreds of stations: a private nats-server, a relay (the CLI, in its own
 * process, so its memory is its own) and `stations` simulated stations in this process:
 * each the real station consumer (its durable consumer, the taken mark, the decision read)
 * and heartbeat, handing bookings to a recording sink instead of a print pipeline. Before
 * the relay starts, the decisions bucket is filled with `decisions` taken decisions (days
 * of a busy site kept); the relay's RSS is read after it has started and decided the
 * samples. Measured: booking → handed to the right station's pipeline, the relay polling
 * every 2 s; missing, duplicated and wrong-station counts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../src/main/log';
import { connectSite, type SiteConnection } from '../src/main/site/bus/connection';
import { DecisionsBucket } from '../src/main/site/bus/decisions';
import { HEARTBEAT_MS, Presence } from '../src/main/site/bus/presence';
import { RejectedInput } from '../src/main/site/bus/rejected-input';
import { SiteRules } from '../src/main/site/bus/site-rules';
import { TakenMarks } from '../src/main/site/bus/taken-marks';
import { token } from '../src/main/site/bus/names';
import { StationConsumer } from '../src/main/site/station/station-consumer';
import { startNatsServer } from '../test/support/nats';
import { summarize } from '../test/support/reliability/stats';
import { storedDecision } from '../test/support/site-decision';
import type { SandboxProcess } from './sandbox-process';

export interface SiteManyResult {
  readonly stations: number;
  readonly samples: number;
  readonly decisions_kept: number;
  readonly booking_to_spooled_p50_ms: number;
  readonly booking_to_spooled_p95_ms: number;
  readonly relay_rss_mb_after_100k_decisions: number;
  /** From the relay's spawn to its `relay: nats://…` line, with the kept decisions in the bucket. */
  readonly relay_start_ms: number;
  /** Requests to the service a minute, the whole site's intake (everything but POST /shipments/print). */
  readonly service_requests_per_minute: number;
  readonly missing: number;
  readonly duplicated: number;
  readonly wrong_station: number;
}

export interface SiteManyContext {
  readonly sandbox: SandboxProcess;
  readonly stations: number;
  readonly samples: number;
  /** Taken decisions in the bucket before the relay starts. */
  readonly decisions: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const nameOf = (i: number): string => `Station ${i + 1}`;
const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

/** Stores `count` taken decisions (days of a busy site), 1,000 at a time. */
export async function fillDecisions(site: SiteConnection, count: number): Promise<void> {
  const at = new Date().toISOString();
  for (let i = 0; i < count; i += 1_000) {
    await Promise.all(
      Array.from({ length: Math.min(1_000, count - i) }, (_, j) => {
        const id = `kept-${i + j}`;
        return site.buckets.decisions.put(
          token(id),
          JSON.stringify(
            storedDecision({
              shipmentId: id,
              referenceId: `REF-${i + j}`,
              station: nameOf((i + j) % 200),
              reason: 'rule',
              why: 'station rule: reference starts with S',
              takenBy: nameOf((i + j) % 200),
              at,
            }),
          ),
        );
      }),
    );
  }
}

/** The relay CLI in its own process (its memory its own); resolves at its `relay: nats://…` line, with the time that took. */
export async function spawnRelay(
  natsUrl: string,
  sandbox: Pick<SandboxProcess, 'baseUrl' | 'apiKey'>,
  dataDir: string,
  defaultStation: string,
): Promise<{ child: ChildProcess; startMs: number }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'src/main/cli/agent.ts'),
      'relay',
      '--site',
      natsUrl,
      '--api-url',
      sandbox.baseUrl,
      '--default-station',
      defaultStation,
      '--poll-interval',
      '2',
      '--data-dir',
      dataDir,
    ],
    { cwd: REPO_ROOT, env: { ...process.env, PRINT_STATION_API_KEY: sandbox.apiKey }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const spawnedAt = Date.now();
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`relay not ready:\n${out}`)), 120_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/^relay: /m.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`relay exited ${String(code)}:\n${out}`)));
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { child, startMs: Date.now() - spawnedAt };
}

export async function runSiteMany(ctx: SiteManyContext): Promise<SiteManyResult> {
  const { sandbox, log } = ctx;
  const nats = await startNatsServer();
  const quiet = createLogger({ write: () => undefined });
  const handed = new Map<string, Array<{ station: string; at: number }>>();
  const consumers: StationConsumer[] = [];
  let relay: ChildProcess | null = null;
  let site: SiteConnection | null = null;
  let beats: NodeJS.Timeout | null = null;
  try {
    site = await connectSite({ servers: [nats.url], name: 'bench-stations' });
    log(`site_200: ${ctx.decisions} kept decisions into the bucket…`);
    await fillDecisions(site, ctx.decisions);
    log(`site_200: ${ctx.stations} simulated stations…`);
    const rejected = new RejectedInput({ warn: () => undefined });
    const rules = new SiteRules(site.buckets.rules);
    const presence = new Presence(site.buckets.stations);
    const heartbeat = { role: 'station' as const, printers: [], queued: 0, lastPrint: null, failures30m: 0 };
    for (let i = 0; i < ctx.stations; i++) {
      const name = nameOf(i);
      await rules.put(name, {
        rules: { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: `S${i + 1}-` }] },
        fallback: null,
      });
      await presence.beat(name, heartbeat);
      const consumer = new StationConsumer({
        nc: site.nc,
        js: site.js,
        decisions: new DecisionsBucket(site.buckets.decisions, rejected),
        taken: new TakenMarks(site.buckets.taken, rejected),
        rejected,
        station: name,
        logger: quiet,
        sink: {
          submitBooking: (notice) => {
            const seen = handed.get(notice.shipmentId) ?? [];
            seen.push({ station: name, at: Date.now() });
            handed.set(notice.shipmentId, seen);
          },
        },
      });
      await consumer.start();
      consumers.push(consumer);
    }
    beats = setInterval(() => {
      for (let i = 0; i < ctx.stations; i++) void presence.beat(nameOf(i), heartbeat).catch(() => undefined);
    }, HEARTBEAT_MS);

    const started = await spawnRelay(nats.url, sandbox, path.join(ctx.workDir, 'site-many-relay'), nameOf(0));
    const child = started.child;
    relay = child;
    const relayStartMs = started.startMs;
    log(`site_200: relay started in ${relayStartMs} ms, RSS ${rssMb(child.pid!)} MB with ${ctx.decisions} decisions kept`);
    await sleep(3_000);
    await sandbox.clearLog();
    const t0 = Date.now();

    const expected = new Map<string, string>();
    const latencies: number[] = [];
    log(`site_200: ${ctx.samples} bookings, relay polling every 2 s…`);
    for (let n = 0; n < ctx.samples; n++) {
      const k = (n * 37) % ctx.stations;
      const t0 = Date.now();
      const [booked] = await sandbox.book(1, `S${k + 1}-m${n}`);
      expected.set(booked!.shipmentId, nameOf(k));
      const deadline = Date.now() + 30_000;
      while (!handed.get(booked!.shipmentId) && Date.now() < deadline) await sleep(5);
      const first = handed.get(booked!.shipmentId)?.[0];
      if (first) latencies.push(first.at - t0);
      await sleep(730);
    }
    const minutes = (Date.now() - t0) / 60_000;
    const intake = (await sandbox.log()).filter((r) => !(r.method === 'POST' && r.url.startsWith('/external/v1/shipments/print'))).length;
    await sleep(2_000);
    const rss = rssMb(child.pid!);
    log(`site_200: relay RSS ${rss} MB after the bookings`);
    const summary = summarize(latencies);
    return {
      stations: ctx.stations,
      samples: ctx.samples,
      decisions_kept: ctx.decisions,
      booking_to_spooled_p50_ms: Math.round(summary.p50),
      booking_to_spooled_p95_ms: Math.round(summary.p95),
      relay_rss_mb_after_100k_decisions: rss,
      relay_start_ms: relayStartMs,
      service_requests_per_minute: Math.round((intake / minutes) * 10) / 10,
      missing: [...expected.keys()].filter((id) => !handed.has(id)).length,
      duplicated: [...handed.values()].filter((at) => at.length > 1).length,
      wrong_station: [...expected].filter(([id, station]) => handed.get(id)?.[0]?.station !== station).length,
    };
  } finally {
    if (beats) clearInterval(beats);
    if (relay && relay.exitCode === null) {
      const exited = new Promise((resolve) => relay!.once('exit', resolve));
      relay.kill('SIGTERM');
      await exited;
    }
    for (const consumer of consumers) await consumer.stop();
    await site?.close();
    await nats.stop();
  }
}
