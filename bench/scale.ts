/**
 * Scale: the cost of one steady-state poll as the team's history grows (1k, 10k, 100k
 * booked shipments seeded in the sandbox), with the agent's own Poller and ServiceClient;
 * and the ledger after 100k prints (size on disk, RSS of an agent opened on it).
 *
 * Each history size gets a fresh poller whose mark starts at "now", then a few rounds of:
 * five new bookings, one timed poll. The 100k prints are written straight into the ledger
 * in batches (the same calls the pipeline makes: job row, spooled, completed, webhook
 * message id, shipment index), not printed one by one.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ServiceClient } from '../src/main/api/client';
import { Poller } from '../src/main/intake/sources/polling/poller';
import { Ledger } from '../src/main/ledger/ledger';
import type { PrivateCups } from '../test/support/cups';
import { percentile } from '../test/support/reliability/stats';
import { measureIdle } from './idle';
import type { SandboxProcess } from './sandbox-process';

export interface ScaleResult {
  readonly poll_ms_at_1k: number;
  readonly poll_ms_at_10k: number;
  readonly poll_ms_at_100k: number;
  readonly poll_bytes_at_1k: number;
  readonly poll_bytes_at_10k: number;
  readonly poll_bytes_at_100k: number;
  readonly poll_requests_at_1k: number;
  readonly poll_requests_at_10k: number;
  readonly poll_requests_at_100k: number;
  readonly ledger_jobs: number;
  readonly ledger_mb: number;
  readonly ledger_insert_s: number;
  /** RSS of the agent idle on the 100k-job ledger, as `npm run agent` runs it (bundled) when the run bundled it. */
  readonly rss_mb_after_100k: number;
  /** The same agent through tsx (the TypeScript loader adds about 30 MB of its own). */
  readonly rss_mb_after_100k_tsx?: number;
  readonly history_search_p50_ms: number;
}

export interface ScaleContext {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly workDir: string;
  readonly rounds: number;
  readonly idleSeconds: number;
  readonly log: (line: string) => void;
  /** The agent bundled as `npm run agent` runs it (bundleAgentCli); absent = through tsx only. */
  readonly bundledScript?: string;
}

const SIZES = [1_000, 10_000, 100_000] as const;

export async function runScale(ctx: ScaleContext): Promise<ScaleResult> {
  const { sandbox, log } = ctx;
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  const polls: Record<number, { ms: number; bytes: number; requests: number }> = {};
  let seeded = 0;
  try {
    for (const size of SIZES) {
      log(`scale: seeding ${size} booked shipments…`);
      await sandbox.seed(size - seeded);
      seeded = size;
      const cursors = new Map<string, string>();
      let submitted = 0;
      const poller = new Poller({
        shipments: client,
        cursors: { getCursor: (n) => cursors.get(n) ?? null, setCursor: (n, v) => void cursors.set(n, v) },
        sink: { submitBooking: () => void submitted++ },
        stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
        initialLookbackMinutes: 0,
      });
      await poller.pollOnce(); // sets the mark at "now"
      const ms: number[] = [];
      const bytes: number[] = [];
      const requests: number[] = [];
      for (let r = 0; r < ctx.rounds; r++) {
        await sandbox.book(5, `SCALE-${size}-${r}`);
        await sandbox.clearLog();
        const t = performance.now();
        const result = await poller.pollOnce();
        ms.push(performance.now() - t);
        if (!result.ok) throw new Error(`poll failed at ${size}: ${String(result.error)}`);
        const entries = (await sandbox.log()).filter((e) => e.method === 'GET');
        bytes.push(entries.reduce((sum, e) => sum + e.bytes, 0));
        requests.push(entries.length);
      }
      if (submitted !== 5 * ctx.rounds) throw new Error(`the poller found ${submitted} bookings at ${size}, expected ${5 * ctx.rounds}`);
      polls[size] = { ms: percentile(ms, 50), bytes: percentile(bytes, 50), requests: percentile(requests, 50) };
      log(`scale: ${size} → poll ${polls[size]!.ms.toFixed(1)} ms, ${polls[size]!.bytes} bytes, ${polls[size]!.requests} request(s)`);
    }
  } finally {
    await client.close();
  }

  // ---- the ledger after 100k prints ---------------------------------------------------------
  const dataDir = path.join(ctx.workDir, 'scale-agent');
  await fs.mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'ledger.sqlite');
  const jobs = 100_000;
  log(`scale: writing ${jobs} printed jobs into a ledger…`);
  const ledger = Ledger.open({ path: file, pruneIntervalMs: 0 });
  const references: string[] = [];
  const t = performance.now();
  for (let batch = 0; batch < jobs / 10_000; batch++) {
    ledger.transaction(() => {
      for (let i = 0; i < 10_000; i++) {
        const n = batch * 10_000 + i;
        const shipmentId = randomUUID();
        const reference = `HIST-${n}`;
        if (n % 1000 === 0) references.push(reference);
        const trackingId = `0037${String(n).padStart(13, '0')}`;
        const bookedAt = new Date(Date.now() - (jobs - n) * 1000).toISOString();
        ledger.rememberMessage(randomUUID());
        ledger.upsertShipment({ shipmentId, referenceId: reference, trackingId, carrier: 'postnord', source: 'API', bookedAt, data: {} });
        const { job } = ledger.createAutoJob({
          shipmentId,
          reference,
          trackingId,
          documentType: 'label',
          layout: 'printer',
          target: `cups:${ctx.queue}`,
          trigger: 'webhook',
          bookedAt,
        });
        ledger.transition(job.id, 'spooling', { attempts: 1, spoolAttempted: true });
        ledger.transition(job.id, 'spooled', { spoolerJobId: `${ctx.queue}-${n + 1}` });
        ledger.transition(job.id, 'completed', {});
      }
    });
  }
  const insertSeconds = (performance.now() - t) / 1000;
  const searches: number[] = [];
  for (const reference of references) {
    const s = performance.now();
    const found = ledger.search({ text: reference.toLowerCase(), limit: 20 });
    searches.push(performance.now() - s);
    if (!found.some((j) => j.reference === reference)) throw new Error(`history search missed ${reference}`);
  }
  const total = ledger.totalJobs();
  ledger.close();
  let bytes = 0;
  for (const suffix of ['', '-wal', '-shm']) bytes += (await fs.stat(`${file}${suffix}`).catch(() => ({ size: 0 }))).size;

  log(`scale: agent on the 100k-job ledger, idle ${ctx.idleSeconds} s…`);
  const idleOn = (bundledScript?: string) =>
    measureIdle({ sandbox, cups: ctx.cups, queue: ctx.queue, seconds: ctx.idleSeconds, dataDir, warmupMs: 3_000, bundledScript });
  const idle = await idleOn(ctx.bundledScript);
  const viaTsx = ctx.bundledScript ? await idleOn() : null;
  const after = Ledger.open({ path: file, pruneIntervalMs: 0 });
  const jobsAfter = after.totalJobs();
  after.close();
  if (jobsAfter !== total)
    throw new Error(`the agent opened on the 100k ledger created ${jobsAfter - total} jobs: its poll mark was not preset`);

  return {
    poll_ms_at_1k: polls[1_000]!.ms,
    poll_ms_at_10k: polls[10_000]!.ms,
    poll_ms_at_100k: polls[100_000]!.ms,
    poll_bytes_at_1k: polls[1_000]!.bytes,
    poll_bytes_at_10k: polls[10_000]!.bytes,
    poll_bytes_at_100k: polls[100_000]!.bytes,
    poll_requests_at_1k: polls[1_000]!.requests,
    poll_requests_at_10k: polls[10_000]!.requests,
    poll_requests_at_100k: polls[100_000]!.requests,
    ledger_jobs: total,
    ledger_mb: bytes / 2 ** 20,
    ledger_insert_s: insertSeconds,
    rss_mb_after_100k: idle.rss_mb,
    ...(viaTsx ? { rss_mb_after_100k_tsx: viaTsx.rss_mb } : {}),
    history_search_p50_ms: percentile(searches, 50),
  };
}
