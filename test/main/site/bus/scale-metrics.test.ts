import { describe, expect, it } from 'vitest';
import { SiteMetrics, startMetricsServer } from '../../../../src/main/site/bus/metrics';
import type { ScaleState } from '../../../../src/shared/scale';

describe('the scale in /metrics', () => {
  it("gauges the scale's state (1 for the state now) and its weight while it has one; nothing without a scale", async () => {
    let scale: { uri: string; state: ScaleState; kg: number | null } | null = { uri: 'serial:/dev/ttyUSB0', state: 'stable', kg: 1.234 };
    const metrics = new SiteMetrics('station', { scale: () => scale });
    const server = await startMetricsServer(metrics, 0);
    try {
      let text = await (await fetch(server.url)).text();
      expect(text).toContain('print_station_scale_state{scale="serial:/dev/ttyUSB0",state="stable",role="station"} 1');
      expect(text).toContain('print_station_scale_state{scale="serial:/dev/ttyUSB0",state="offline",role="station"} 0');
      expect(text).toContain('print_station_scale_weight_kg{scale="serial:/dev/ttyUSB0",role="station"} 1.234');
      scale = { uri: 'serial:/dev/ttyUSB0', state: 'offline', kg: null };
      text = await (await fetch(server.url)).text();
      expect(text).toContain('print_station_scale_state{scale="serial:/dev/ttyUSB0",state="offline",role="station"} 1');
      expect(text).not.toMatch(/print_station_scale_weight_kg\{/);
      scale = null;
      text = await (await fetch(server.url)).text();
      expect(text).not.toMatch(/print_station_scale_state\{/);
    } finally {
      await server.close();
    }
  });
});
