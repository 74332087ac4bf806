import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobView } from '../../../shared/domain';
import { SCALE_STATES, type ScaleState } from '../../../shared/scale';
import { listen } from '../../http/listen';

/**
 * Prometheus metrics of a station or a relay (`--metrics-port N`: text format at
 * http://127.0.0.1:N/metrics), with prom-client. Names in docs/INTERFACES.md.
 */

export interface StationMetricsSource {
  readonly queued: () => number;
  readonly printers: () => Promise<ReadonlyArray<{ readonly uri: string; readonly ready: boolean }>>;
  readonly siteConnected: () => boolean | null;
  /** Relay: bookings that no claim, rule or default station decides yet. */
  readonly waiting: () => number;
  /** The station's scale and its state; null without one. */
  readonly scale: () => { readonly uri: string; readonly state: ScaleState; readonly kg: number | null } | null;
}

export class SiteMetrics {
  readonly registry = new Registry();
  private readonly printed: Counter;
  private readonly failed: Counter;
  private readonly lag: Histogram;
  private readonly published: Counter;
  private readonly rejectedInput: Counter;
  private readonly counted = new Set<string>();

  constructor(role: 'station' | 'relay', source: Partial<StationMetricsSource> = {}) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ role });
    this.printed = new Counter({ name: 'print_station_labels_printed_total', help: 'Jobs completed by the printer', registers });
    this.failed = new Counter({ name: 'print_station_labels_failed_total', help: 'Jobs that failed', registers });
    this.published = new Counter({
      name: 'print_station_site_bookings_published_total',
      help: 'Bookings the relay decided and published to the site',
      labelNames: ['reason'],
      registers,
    });
    this.rejectedInput = new Counter({
      name: 'print_station_site_rejected_total',
      help: 'Messages and bucket entries from the site that did not fit its format and were set aside',
      labelNames: ['kind'],
      registers,
    });
    this.lag = new Histogram({
      name: 'print_station_intake_lag_seconds',
      help: 'From the booking (relay: its booking time; station: the site decision) to intake here',
      buckets: [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    });
    new Gauge({
      name: 'print_station_jobs_queued',
      help: 'Jobs waiting or in flight',
      registers,
      collect() {
        this.set(source.queued?.() ?? 0);
      },
    });
    new Gauge({
      name: 'print_station_printer_ready',
      help: '1 when the printer is ready, else 0',
      labelNames: ['printer'],
      registers,
      async collect() {
        this.reset();
        for (const printer of (await source.printers?.()) ?? []) this.set({ printer: printer.uri }, printer.ready ? 1 : 0);
      },
    });
    if (role === 'relay')
      new Gauge({
        name: 'print_station_site_bookings_waiting',
        help: 'Bookings the relay holds because no scan claim, station rule or default station decides them',
        registers,
        collect() {
          this.set(source.waiting?.() ?? 0);
        },
      });
    new Gauge({
      name: 'print_station_scale_state',
      help: "1 for the scale's state now, 0 for the others (absent without a scale)",
      labelNames: ['scale', 'state'],
      registers,
      collect() {
        this.reset();
        const scale = source.scale?.() ?? null;
        if (scale) for (const state of SCALE_STATES) this.set({ scale: scale.uri, state }, scale.state === state ? 1 : 0);
      },
    });
    new Gauge({
      name: 'print_station_scale_weight_kg',
      help: 'The weight on the scale in kg while it is stable or in motion (absent otherwise)',
      labelNames: ['scale'],
      registers,
      collect() {
        this.reset();
        const scale = source.scale?.() ?? null;
        if (scale && scale.kg !== null) this.set({ scale: scale.uri }, scale.kg);
      },
    });
    new Gauge({
      name: 'print_station_site_connected',
      help: '1 while connected to the site, 0 when lost (absent outside a site)',
      registers,
      collect() {
        const connected = source.siteConnected?.() ?? null;
        if (connected !== null) this.set(connected ? 1 : 0);
      },
    });
  }

  job(job: JobView): void {
    if (job.state !== 'completed' && job.state !== 'failed') return;
    const key = `${job.id}:${job.state}`;
    if (this.counted.has(key)) return;
    this.counted.add(key);
    if (this.counted.size > 10_000) this.counted.clear();
    (job.state === 'completed' ? this.printed : this.failed).inc();
  }

  intakeLag(ms: number): void {
    this.lag.observe(ms / 1000);
  }

  rejected(kind: string): void {
    this.rejectedInput.inc({ kind });
  }

  publishedBooking(reason: string): void {
    this.published.inc({ reason });
  }
}

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the registry at /metrics on 127.0.0.1 (a scraper on another host goes through a proxy). */
export async function startMetricsServer(metrics: SiteMetrics, port: number, host = '127.0.0.1'): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    // A page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) sends its name as Host.
    if (!isLoopbackHost(req.headers.host)) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('metrics answer only to a loopback Host (127.0.0.1, localhost, [::1])\n');
      return;
    }
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('metrics are at /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(error)}\n`),
    );
  });
  const bound = await listen(server, port, host);
  return {
    url: `http://${host}:${bound}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `127.0.0.1:9464`, `localhost:9464`, `[::1]:9464`: the names a scraper on this machine uses. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}
