/** The printed table: each measured figure beside its target, if it has one. */
import type { BurstResult } from './burst-result';
import type { BenchReport } from './run';
import type { ZplResult } from './zpl';

interface Row {
  readonly metric: string;
  readonly value: string;
  readonly target: string;
  /** true = met, false = missed, null = no target. */
  readonly met: boolean | null;
}

const f = (n: number | undefined, digits = 1): string => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));

export function rows(r: BenchReport): Row[] {
  const out: Row[] = [];
  const add = (metric: string, value: string, target = '', met: boolean | null = null): void =>
    void out.push({ metric, value, target, met });
  if (r.burst) burstRows(r.burst, add);
  for (const sheet of r.sheet_pages ?? []) {
    add(
      `sheets ${sheet.layout}: ${sheet.labels} labels on A4, pages agent / DIY`,
      `${sheet.agent_pages} / ${sheet.baseline_pages} (fewest possible ${sheet.fewest_pages}; agent ${sheet.agent_jobs} spooler jobs)`,
    );
  }
  if (r.latency) {
    const l = r.latency;
    add(
      'webhook → spooled p50 / p95 / p99',
      `${f(l.webhook_to_spooled_p50_ms)} / ${f(l.webhook_to_spooled_p95_ms)} / ${f(l.webhook_to_spooled_p99_ms)} ms`,
    );
    add(
      'agent overhead p50 / p95 / p99',
      `${f(l.overhead_p50_ms)} / ${f(l.overhead_p95_ms)} / ${f(l.overhead_p99_ms)} ms`,
      'p95 ≤ 15 ms',
      l.overhead_p95_ms <= 15,
    );
    add(
      '  overhead without the spool stage p50 / p95 / p99',
      `${f(l.overhead_excl_spooler_p50_ms)} / ${f(l.overhead_excl_spooler_p95_ms)} / ${f(l.overhead_excl_spooler_p99_ms)} ms`,
    );
    const s = l.stages_p50_ms;
    add(
      '  stages p50: ack, ack→queued, queued→fetch, fetch (service), spool',
      `${f(s.ack)}, ${f(s.ack_to_queued)}, ${f(s.queued_to_fetching)}, ${f(s.fetch_service)}, ${f(s.spool_lp)} ms`,
    );
    const alone = l.spooler_alone_p50_ms;
    add('  spooler alone p50: IPP Print-Job, lpstat, lp', `${f(alone.ipp_print_job)}, ${f(alone.lpstat)}, ${f(alone.lp)} ms`);
  }
  if (r.windows) {
    const w = r.windows;
    const fake = `fake SumatraPDF ${w.sumatra_start_ms} ms a run + ${w.sumatra_page_ms} ms a page`;
    add(`windows: ${w.labels} labels alone (${fake})`, `${f(w.alone_s)} s, ${w.alone_runs} runs, ${f(w.per_label_alone_ms, 0)} ms a label`);
    add(
      `windows: batched (--batch-max ${w.batch_max})`,
      `${f(w.batched_s)} s, ${w.batched_runs} runs, ${f(w.per_label_batched_ms, 0)} ms a label`,
    );
  }
  if (r.cancel) {
    const c = r.cancel;
    const perMinute = c.recheck_requests_per_minute;
    add(
      `cancel check before spooling (after ${c.recheck_after_ms} ms waiting): requests/min idle / burst / paused burst`,
      `${f(perMinute.idle)} / ${f(perMinute.burst)} / ${f(perMinute.paused_burst)} (${c.recheck_requests.burst} in a ${c.burst_labels}-label burst, ${c.recheck_requests.paused_burst} with a ${c.pause_seconds} s pause)`,
    );
  }
  if (r.zpl) zplRows(r.zpl, add);
  if (r.ipp) {
    add(
      'ipp: job requests a minute, nothing in flight',
      f(r.ipp.job_requests_per_minute_idle),
      'none',
      r.ipp.job_requests_per_minute_idle === 0,
    );
    add(
      `ipp: job requests a minute, ${r.ipp.burst_labels} labels followed`,
      `${f(r.ipp.job_requests_per_minute_burst)} (${f(r.ipp.burst_seconds)} s)`,
    );
    add(
      'ipp: job requests a minute, one job held (nothing moves)',
      f(r.ipp.job_requests_per_minute_held),
      '≤ 12 (5 s back-off)',
      r.ipp.job_requests_per_minute_held <= 13,
    );
  }
  if (r.scan)
    add('scan → spooled p50 / p95 (UI bridge)', `${f(r.scan.p50_ms)} / ${f(r.scan.p95_ms)} ms`, 'p95 ≤ 100 ms', r.scan.p95_ms <= 100);
  if (r.idle) {
    add(
      `idle RSS (max over ${f(r.idle.seconds, 0)} s, polling every ${r.idle.poll_interval_s} s)`,
      `${f(r.idle.rss_mb)} MB`,
      '≤ 100 MB',
      r.idle.rss_mb <= 100,
    );
    if (r.idle.rss_mb_tsx !== undefined) add('  the same agent through tsx (TypeScript loader)', `${f(r.idle.rss_mb_tsx)} MB`);
    add(
      'idle CPU (npm run agent / through tsx)',
      `${f(r.idle.cpu_percent, 2)} / ${f(r.idle.cpu_percent_tsx, 2)} % of one core (${r.idle.polls} polls)`,
    );
  }
  if (r.scale) {
    const s = r.scale;
    const flat =
      Math.max(s.poll_bytes_at_1k, s.poll_bytes_at_10k, s.poll_bytes_at_100k) <=
      1.5 * Math.min(s.poll_bytes_at_1k, s.poll_bytes_at_10k, s.poll_bytes_at_100k);
    add('poll at 1k / 10k / 100k history', `${f(s.poll_ms_at_1k)} / ${f(s.poll_ms_at_10k)} / ${f(s.poll_ms_at_100k)} ms`);
    add(
      '  bytes read per poll',
      `${s.poll_bytes_at_1k} / ${s.poll_bytes_at_10k} / ${s.poll_bytes_at_100k} B (${s.poll_requests_at_1k} / ${s.poll_requests_at_10k} / ${s.poll_requests_at_100k} requests)`,
      'flat',
      flat,
    );
    add(`ledger after ${s.ledger_jobs} prints`, `${f(s.ledger_mb)} MB on disk; history search p50 ${f(s.history_search_p50_ms, 2)} ms`);
    add('agent RSS on that ledger (npm run agent)', `${f(s.rss_mb_after_100k)} MB`, '≤ 120 MB', s.rss_mb_after_100k <= 120);
    if (s.rss_mb_after_100k_tsx !== undefined) add('  the same agent through tsx', `${f(s.rss_mb_after_100k_tsx)} MB`);
  }
  if (r.poll) {
    const p = r.poll;
    const latency = `${f(p.booking_to_spooled_p50_ms / 1000)} / ${f(p.booking_to_spooled_p95_ms / 1000)} / ${f(p.booking_to_spooled_max_ms / 1000)} s`;
    add(
      `poll mode at the default (every ${p.interval_s} s): booking → spooled p50 / p95 / max`,
      `${latency} (${p.samples} bookings)`,
      'p95 ≤ 5 s',
      p.booking_to_spooled_p95_ms <= 5000,
    );
    add(
      '  GET /shipments requests per minute per station',
      `${f(p.requests_per_minute, 2)} (${p.requests_in_window} in ${f(p.window_s)} s)`,
      '≤ 12',
      p.requests_per_minute <= 12,
    );
  }
  if (r.site) {
    const s = r.site;
    add(
      `site of ${s.stations} stations, relay polling every ${s.poll_interval_s} s: booking → spooled at the right station p50 / p95`,
      `${f(s.booking_to_spooled_p50_ms)} / ${f(s.booking_to_spooled_p95_ms)} ms (${s.samples} bookings)`,
      'p95 ≤ 2000 ms',
      s.booking_to_spooled_p95_ms <= 2000,
    );
    add('  service requests a minute, whole site (intake)', f(s.service_requests_per_minute), '≤ 30', s.service_requests_per_minute <= 30);
    add(
      '  webhooks to the relay: webhook → spooled p50 / p95',
      `${f(s.webhook_to_spooled_p50_ms)} / ${f(s.webhook_to_spooled_p95_ms)} ms`,
      'p95 ≤ 200 ms',
      s.webhook_to_spooled_p95_ms <= 200,
    );
    add(
      '  missing / duplicated / at the wrong station',
      `${s.missing} / ${s.duplicated} / ${s.wrong_station}`,
      '0 / 0 / 0',
      s.missing + s.duplicated + s.wrong_station === 0,
    );
  }
  if (r.site_200) {
    const s = r.site_200;
    add(
      `site of ${s.stations} stations, relay polling every 2 s: booking → handed to the right station p50 / p95`,
      `${f(s.booking_to_spooled_p50_ms)} / ${f(s.booking_to_spooled_p95_ms)} ms (${s.samples} bookings)`,
      'p95 ≤ 2000 ms',
      s.booking_to_spooled_p95_ms <= 2000,
    );
    add(
      `  relay with ${s.decisions_kept} decisions kept: start / RSS`,
      `${f(s.relay_start_ms)} ms / ${f(s.relay_rss_mb_after_100k_decisions, 1)} MB`,
    );
    add('  service requests a minute, whole site (intake)', f(s.service_requests_per_minute), '≤ 30', s.service_requests_per_minute <= 30);
    add(
      '  missing / duplicated / at the wrong station',
      `${s.missing} / ${s.duplicated} / ${s.wrong_station}`,
      '0 / 0 / 0',
      s.missing + s.duplicated + s.wrong_station === 0,
    );
  }
  return out;
}

type Add = (metric: string, value: string, target?: string, met?: boolean | null) => void;

/** Seconds at each concurrency tried: `1: 0.52 s, 2: 0.31 s`. */
function byConcurrency(times: Readonly<Record<string, number>> | undefined): string {
  return Object.entries(times ?? {})
    .map(([c, s]) => `${c}: ${f(s, 2)} s`)
    .join(', ');
}

function zplRows(z: ZplResult, add: Add): void {
  add(
    'zpl: render a 4x6 label p50 / p95 at 203 dpi',
    `${f(z.render_p50_ms_203)} / ${f(z.render_p95_ms_203)} ms`,
    'p95 ≤ 40 ms',
    z.render_p95_ms_203 <= 40,
  );
  add(
    'zpl: render a 4x6 label p50 / p95 at 300 dpi',
    `${f(z.render_p50_ms_300)} / ${f(z.render_p95_ms_300)} ms`,
    'p95 ≤ 80 ms',
    z.render_p95_ms_300 <= 80,
  );
  add(
    'zpl: bytes a label at 203 / 300 dpi',
    `${f(z.bytes_per_label_203 / 1024)} / ${f(z.bytes_per_label_300 / 1024)} KB`,
    '≤ 40 KB at 203',
    z.bytes_per_label_203 <= 40 * 1024,
  );
  add(
    'zpl: webhook → label at the printer p50 / p95 / p99',
    `${f(z.webhook_to_printer_p50_ms)} / ${f(z.webhook_to_printer_p95_ms)} / ${f(z.webhook_to_printer_p99_ms)} ms`,
    'p95 ≤ 60 ms',
    z.webhook_to_printer_p95_ms <= 60,
  );
  add(
    `zpl: burst of ${z.burst_labels} labels to one printer`,
    `${f(z.burst_s, 2)} s in ${z.burst_connections} connections; limit ${f(z.limit_s, 2)} s (fetch ${f(z.limit_fetch_s, 2)} s at ${z.limit_fetch_concurrency}, send ${f(z.limit_send_s, 2)} s)`,
  );
  add(
    '  burst: first label; webhooks all in; rendering alone (est.); CPU',
    `${f(z.burst_first_label_s * 1000, 0)} ms; ${f(z.burst_webhooks_s, 2)} s; ${f(z.burst_render_estimate_s, 2)} s; ${f(z.burst_cpu_s, 2)} s`,
  );
  add('zpl: burst vs limit (agent ÷ limit)', `${f(z.burst_vs_limit, 2)}×`, '≤ 1.5×', z.burst_vs_limit <= 1.5);
}

function burstRows(b: BurstResult, add: Add): void {
  add(
    `burst: ${b.shipments} labels, agent as it runs by default (--batch-max ${b.agent_batch_max})`,
    `${f(b.agent_s)} s (${f(b.agent_labels_per_s)} labels/s), ${b.agent_jobs} spooler jobs; webhooks all in after ${f(b.agent_webhooks_s, 2)} s`,
  );
  add(
    'burst: first label spooled after the first webhook',
    `${f(b.agent_first_label_s * 1000, 0)} ms`,
    '≤ 300 ms',
    b.agent_first_label_s <= 0.3,
  );
  add(
    'burst: agent, each label alone (--batch-max 1)',
    `${f(b.agent_alone_s)} s, ${b.agent_alone_jobs} spooler jobs; first label ${f(b.agent_alone_first_label_s * 1000, 0)} ms`,
  );
  add('burst: DIY baseline (curl + lp loop)', `${f(b.baseline_s)} s (${f(b.baseline_labels_per_s)} labels/s)`);
  add(
    'burst: limit with batching (larger of fetch-only and spool-only)',
    `${f(b.limit_s, 2)} s (fetch ${f(b.limit_fetch_s, 2)} s at ${b.limit_fetch_concurrency}, ${b.limit_calls} calls: ` +
      `1 alone, then ≤ ${b.agent_batch_max}; IPP spool in order ${f(b.limit_spool_s, 2)} s)`,
  );
  add('  fetch-only with batching at each concurrency', byConcurrency(b.limit_fetch_by_concurrency));
  add(
    'burst: limit without batching (every PDF alone)',
    `${f(b.limit_alone_s, 2)} s (fetch ${f(b.limit_fetch_alone_s, 2)} s at ${b.limit_fetch_alone_concurrency}; ` +
      `IPP in order ${f(b.limit_spool_alone_s, 2)} s; lp in order ${f(b.limit_spool_lp_s)} s, unordered ×4 ${f(b.limit_spool_unordered_s)} s)`,
  );
  add('burst: pages used (layout printer), agent / alone / DIY', `${b.agent_pages} / ${b.agent_alone_pages} / ${b.baseline_pages}`);
  add('burst: vs baseline (baseline ÷ agent)', `${f(b.vs_baseline, 2)}×`, '≥ 3×', b.vs_baseline >= 3);
  add('burst: vs limit (agent ÷ limit with batching)', `${f(b.vs_limit, 2)}×`, '≤ 1.25× the batched limit', b.vs_limit <= 1.25);
  add('  each label alone: vs baseline; vs limit without batching', `${f(b.vs_baseline_alone, 2)}×; ${f(b.vs_limit_alone, 2)}×`);
}

export function renderTable(r: BenchReport): string {
  const all = rows(r);
  const header = { metric: 'metric', value: 'measured', target: 'target', met: null };
  const w1 = Math.max(header.metric.length, ...all.map((x) => x.metric.length));
  const w2 = Math.max(header.value.length, ...all.map((x) => x.value.length));
  const w3 = Math.max(header.target.length, ...all.map((x) => x.target.length));
  const line = (x: Row | typeof header): string => {
    const verdict = x.met === null ? '' : x.met ? 'met' : 'MISSED';
    return `${x.metric.padEnd(w1)}  ${x.value.padEnd(w2)}  ${x.target.padEnd(w3)}  ${verdict}`.trimEnd();
  };
  return [
    `Print Station benchmarks, ${r.date}${r.quick ? ' (quick)' : ''}`,
    `${r.machine}; 1-minute load average ${r.machine_detail.loadAverage} at the start (compare figures of one run only)`,
    '',
    line(header),
    '-'.repeat(w1 + w2 + w3 + 12),
    ...all.map(line),
  ].join('\n');
}
