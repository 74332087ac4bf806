import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SiteMetrics, startMetricsServer } from '../../../../src/main/site/bus/metrics';
import type { JobView } from '../../../../src/shared/domain';

const job = (id: string, state: JobView['state']): JobView => ({ id, state }) as unknown as JobView;

describe('Prometheus metrics', () => {
  it('serves labels printed and failed, the queue, each printer’s readiness, intake lag and the site connection at /metrics', async () => {
    let connected = true;
    const metrics = new SiteMetrics('station', {
      queued: () => 3,
      printers: async () => [
        { uri: 'cups:Zebra', ready: true },
        { uri: 'cups:A4', ready: false },
      ],
      siteConnected: () => connected,
    });
    metrics.job(job('j1', 'completed'));
    metrics.job(job('j1', 'completed')); // the same change told twice counts once
    metrics.job(job('j2', 'failed'));
    metrics.intakeLag(120);
    const server = await startMetricsServer(metrics, 0);
    try {
      const answer = await fetch(server.url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/plain');
      const text = await answer.text();
      expect(text).toContain('# TYPE print_station_labels_printed_total counter');
      expect(text).toContain('print_station_labels_printed_total{role="station"} 1');
      expect(text).toContain('print_station_labels_failed_total{role="station"} 1');
      expect(text).toContain('print_station_jobs_queued{role="station"} 3');
      expect(text).toContain('print_station_printer_ready{printer="cups:Zebra",role="station"} 1');
      expect(text).toContain('print_station_printer_ready{printer="cups:A4",role="station"} 0');
      expect(text).toContain('print_station_intake_lag_seconds_count{role="station"} 1');
      expect(text).toContain('print_station_site_connected{role="station"} 1');
      connected = false;
      expect(await (await fetch(server.url)).text()).toContain('print_station_site_connected{role="station"} 0');
      expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('answers only a loopback Host header (a page that rebinds its own name to 127.0.0.1 reads nothing)', async () => {
    const metrics = new SiteMetrics('relay', {});
    metrics.rejected('booking-message');
    const server = await startMetricsServer(metrics, 0);
    const status = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const url = new URL(server.url);
        request({ host: url.hostname, port: url.port, path: '/metrics', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    try {
      expect(await status('evil.example:80')).toBe(421);
      expect(await status('127.0.0.1.evil.example')).toBe(421);
      expect(await status(`127.0.0.1:${new URL(server.url).port}`)).toBe(200);
      expect(await status('localhost')).toBe(200);
      expect(await (await fetch(server.url)).text()).toContain('print_station_site_rejected_total{kind="booking-message",role="relay"} 1');
    } finally {
      await server.close();
    }
  });
});
