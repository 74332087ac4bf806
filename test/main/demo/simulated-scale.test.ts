/**
 * The demo's simulated scale through the real ScaleMonitor: it reads zero, then a parcel in
 * motion, then the parcel's stable weight, then zero again, as a packer weighing would.
 */
import { afterEach, expect, it } from 'vitest';
import { ScaleMonitor } from '../../../src/main/devices/scale-monitor';
import { parseScaleUri } from '../../../src/main/devices/scale-uri';
import { SIMULATED_SCALE_URI, simulatedScaleOpener } from '../../../src/main/demo/simulated-scale';

let monitor: ScaleMonitor | null = null;
afterEach(async () => {
  await monitor?.stop();
  monitor = null;
});

it('weighs parcel after parcel: zero, motion, a stable weight, zero', async () => {
  let clock = 0;
  const address = parseScaleUri(SIMULATED_SCALE_URI);
  if (address.kind === 'none') throw new Error('the simulated scale has a URI');
  monitor = new ScaleMonitor({
    address,
    open: simulatedScaleOpener(
      () => clock,
      () => 0.5,
    ),
    pollIntervalMs: 0,
  });
  const states: string[] = [];
  monitor.subscribe((r) => states.push(`${r.state}${r.kg === null ? '' : ` ${r.kg}`}`));
  monitor.start();
  for (const at of [1000, 6500, 9000, 14_500, 15_000]) {
    clock = at;
    await new Promise((resolve) => setTimeout(resolve, 350));
  }
  expect(states).toEqual(['zero', 'motion 1.8', 'stable 2.25', 'motion 0.9', 'zero']);
  expect(monitor.identity()).toMatch(/demo scale/);
});
