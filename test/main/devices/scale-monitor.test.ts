import { afterEach, describe, expect, it } from 'vitest';
import { parseScaleUri, type SerialScaleAddress } from '../../../src/main/devices/scale-uri';
import { ScaleMonitor } from '../../../src/main/devices/scale-monitor';
import type { ScaleReading } from '../../../src/main/devices/scale-reading';
import { socatUnavailable } from '../../support/pty-pair';
import { ScaleSimulator, type SimulatedProtocol, type SimulatedState } from '../../support/scale-simulator';

const skip = socatUnavailable();

let sim: ScaleSimulator | null = null;
let monitor: ScaleMonitor | null = null;

afterEach(async () => {
  await monitor?.stop();
  await sim?.stop();
  monitor = null;
  sim = null;
});

/** A simulated scale on a pty pair and a monitor on the station's end, through the real serialport. */
async function rig(protocol: SimulatedProtocol, state: Partial<SimulatedState>): Promise<{ sim: ScaleSimulator; monitor: ScaleMonitor }> {
  sim = await ScaleSimulator.start(protocol, state);
  const address = parseScaleUri(`serial:${sim.stationPath}?protocol=${protocol}`) as SerialScaleAddress;
  monitor = new ScaleMonitor({ address });
  monitor.start();
  return { sim, monitor };
}

/** Waits for the reading to match, within `ms`; fails with the last reading. */
async function until(m: ScaleMonitor, match: (r: ScaleReading) => boolean, ms = 3000): Promise<ScaleReading> {
  const started = Date.now();
  while (!match(m.reading())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms; the reading is ${JSON.stringify(m.reading())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return m.reading();
}

const is =
  (state: ScaleReading['state'], kg: number | null = null) =>
  (r: ScaleReading) =>
    r.state === state && r.kg === kg;

describe.skipIf(skip !== null)('ScaleMonitor on an MT-SICS scale (pty pair, real serialport)', () => {
  it('follows stable, dynamic, over, under and zero, at the scale resolution', async () => {
    const { sim, monitor } = await rig('sics', { weight: '1.234', unit: 'kg', mode: 'stable' });
    await monitor.answered;
    await until(monitor, is('stable', 1.234));
    sim.set({ mode: 'dynamic', weight: '2.100' });
    await until(monitor, is('motion', 2.1));
    sim.set({ mode: 'over' });
    await until(monitor, is('over'));
    sim.set({ mode: 'under' });
    await until(monitor, is('under'));
    sim.set({ mode: 'stable', weight: '-0.050' });
    await until(monitor, is('under'));
    sim.set({ mode: 'stable', weight: '0.000' });
    await until(monitor, is('zero'));
    // It learnt the serial number with I4, then asked SIR once: the scale repeats every change unasked.
    expect(sim.commands[0]).toBe('I4');
    expect(sim.commands.slice(1)).toEqual(['SIR']);
    expect(monitor.command()).toBe('SIR');
    expect(monitor.identity()).toBe(sim.serialNumber);
  });

  it('polls with SI a scale that answers ES to SIR', async () => {
    sim = await ScaleSimulator.start('sics', { weight: '1.500' });
    sim.unknownCommands.add('SIR');
    monitor = new ScaleMonitor({ address: parseScaleUri(`serial:${sim.stationPath}`) as SerialScaleAddress });
    monitor.start();
    await until(monitor, is('stable', 1.5));
    sim.set({ mode: 'dynamic', weight: '2.000' });
    await until(monitor, is('motion', 2));
    expect(monitor.command()).toBe('SI');
    expect(sim.commands.filter((c) => c === 'SIR')).toEqual(['SIR']);
    expect(sim.commands.filter((c) => c === 'SI').length).toBeGreaterThanOrEqual(2);
  });

  it('asks S of a scale that answers ES to SI, and reads a moving load as motion, never offline', async () => {
    sim = await ScaleSimulator.start('sics', { weight: '1.234' });
    sim.unknownCommands.add('SIR').add('SI');
    monitor = new ScaleMonitor({ address: parseScaleUri(`serial:${sim.stationPath}`) as SerialScaleAddress });
    const seen: string[] = [];
    monitor.subscribe((r) => seen.push(`${r.state} ${r.kg}`));
    monitor.start();
    await until(monitor, is('stable', 1.234));
    expect(monitor.command()).toBe('S');
    // S answers only once the load holds still: while it moves the scale is there, its weight unknown.
    sim.set({ mode: 'dynamic', weight: '2.000' });
    await until(monitor, is('motion', null));
    await new Promise((r) => setTimeout(r, 2500));
    expect(monitor.reading().state).toBe('motion');
    sim.set({ mode: 'stable' });
    await until(monitor, is('stable', 2));
    expect(seen).toEqual(['stable 1.234', 'motion null', 'stable 2']);
    // Each S that found the load moving was cancelled with @ (a reset), leaving no late answer.
    expect(sim.commands).toContain('@');
  });

  it('reads a scale that refuses every weight command as offline, saying so', async () => {
    sim = await ScaleSimulator.start('sics', { weight: '1.000' });
    for (const command of ['SIR', 'SI', 'S']) sim.unknownCommands.add(command);
    monitor = new ScaleMonitor({ address: parseScaleUri(`serial:${sim.stationPath}`) as SerialScaleAddress });
    monitor.start();
    const r = await until(monitor, (r) => r.problem?.includes('refuses every weight command') ?? false);
    expect(r.state).toBe('offline');
    expect(r.problem).toContain('SIR, SI, S');
  });

  it('converts a change of unit on the scale to kg', async () => {
    const { sim, monitor } = await rig('sics', { weight: '1234.5', unit: 'g' });
    await until(monitor, is('stable', 1.2345));
    sim.set({ weight: '2.50', unit: 'lb' });
    await until(monitor, is('stable', 1.134));
    expect(monitor.reading().unit).toBe('lb');
  });

  it('publishes one event per change, not one per answer', async () => {
    const { sim, monitor } = await rig('sics', { weight: '1.000' });
    const seen: ScaleReading[] = [];
    monitor.subscribe((r) => seen.push(r));
    await until(monitor, is('stable', 1));
    await new Promise((r) => setTimeout(r, 600));
    sim.set({ weight: '1.500' });
    await until(monitor, is('stable', 1.5));
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.map((r) => `${r.state} ${r.kg}`)).toEqual(['stable 1', 'stable 1.5']);
  });

  it('ignores and counts garbage, never taking it for a weight', async () => {
    const { sim, monitor } = await rig('sics', { weight: '3.000' });
    await until(monitor, is('stable', 3));
    const seen: ScaleReading[] = [];
    monitor.subscribe((r) => seen.push(r));
    sim.set({ mode: 'garbage' });
    await new Promise((r) => setTimeout(r, 1200));
    // Each noise line is skipped and the conversation waits out its deadline for a true answer.
    expect(monitor.garbage()).toBeGreaterThanOrEqual(2);
    // Still the last true weight; garbage never changed it.
    expect(seen).toEqual([]);
    sim.set({ mode: 'stable', weight: '3.200' });
    await until(monitor, is('stable', 3.2));
  });

  it('reads a connected but silent scale as offline within about 2 s, and the weight again when it talks', async () => {
    const { sim, monitor } = await rig('sics', { weight: '1.000' });
    await until(monitor, is('stable', 1));
    sim.set({ mode: 'silent' });
    const silentAt = Date.now();
    await until(monitor, is('offline'), 3000);
    expect(Date.now() - silentAt).toBeLessThan(2600);
    sim.set({ mode: 'stable' });
    await until(monitor, is('stable', 1), 4000);
  });

  it('reads an unplugged scale as offline within 2 s and uses it again after replug, without a restart', async () => {
    const { sim, monitor } = await rig('sics', { weight: '4.000' });
    await until(monitor, is('stable', 4));
    const unpluggedAt = Date.now();
    await sim.unplug();
    await until(monitor, is('offline'), 2000);
    expect(Date.now() - unpluggedAt).toBeLessThanOrEqual(2000);
    await new Promise((r) => setTimeout(r, 1500));
    sim.set({ weight: '4.500' });
    await sim.replug();
    await until(monitor, is('stable', 4.5), 4000);
  });

  it('gives a weight for booking only once it has held still long enough', async () => {
    const { sim, monitor } = await rig('sics', { weight: '2.000', mode: 'dynamic' });
    await until(monitor, is('motion', 2));
    const held = monitor.whenStable(1000);
    let settled = false;
    void held.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 300));
    sim.set({ mode: 'stable' });
    const stableAt = Date.now();
    await until(monitor, is('stable', 2));
    expect(monitor.stableWeight(1000)).toBeNull();
    expect(settled).toBe(false);
    await expect(held).resolves.toBe(2);
    expect(Date.now() - stableAt).toBeGreaterThanOrEqual(900);
    expect(monitor.stableWeight(1000)).toBe(2);
  });
});

describe.skipIf(skip !== null)('ScaleMonitor on a Toledo continuous scale (7E1, pty pair)', () => {
  it('follows the frames: stable, motion, units, over, garbage counted, silence offline', async () => {
    const { sim, monitor } = await rig('toledo', { weight: '1.234', unit: 'kg' });
    await until(monitor, is('stable', 1.234));
    expect(monitor.identity()).toBeNull();
    sim.set({ mode: 'dynamic', weight: '1.300' });
    await until(monitor, is('motion', 1.3));
    sim.set({ mode: 'stable', weight: '3.00', unit: 'lb' });
    await until(monitor, is('stable', 1.361));
    sim.set({ mode: 'over' });
    await until(monitor, is('over'));
    sim.set({ mode: 'garbage' });
    await new Promise((r) => setTimeout(r, 500));
    expect(monitor.garbage()).toBeGreaterThan(2);
    expect(monitor.reading().state).toBe('over');
    sim.set({ mode: 'silent' });
    await until(monitor, is('offline'), 3000);
    // Nothing was ever sent to a continuous scale.
    expect(sim.commands).toEqual([]);
  });
});

describe('ScaleMonitor without a port', () => {
  it('reads offline, saying why, while the port cannot be opened', async () => {
    monitor = new ScaleMonitor({ address: parseScaleUri('serial:/nonexistent/scale') as SerialScaleAddress });
    monitor.start();
    const r = await until(monitor, (r) => r.problem !== null && r.problem.includes('/nonexistent/scale'));
    expect(r.state).toBe('offline');
  });
});

if (skip) it.skip(`pty tests: ${skip}`, () => undefined);
