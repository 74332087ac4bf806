import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/shared/agent-api';
import { startStation, waitFor, type Station } from '../../support/agent-harness';
import { socatUnavailable } from '../../support/pty-pair';
import { ScaleSimulator } from '../../support/scale-simulator';

const skip = socatUnavailable();

let station: Station | null = null;
let sim: ScaleSimulator | null = null;
afterEach(async () => {
  await station?.close();
  await sim?.stop();
  station = null;
  sim = null;
});

describe.skipIf(skip !== null)('the station and its scale (MT-SICS simulator on a pty pair)', () => {
  it('answers scaleStatus, sends a scale event per change, and says in the status and the log when it goes offline and returns', async () => {
    sim = await ScaleSimulator.start('sics', { weight: '1.234', unit: 'kg' });
    station = await startStation();
    const answered: string[] = [];
    const uri = `serial:${sim.stationPath}`;
    const agent = await station.start({ scale: uri, onScaleAnswered: (u) => answered.push(u) });
    const events: AgentEvent[] = [];
    agent.agent.subscribe((e) => events.push(e));
    const api = agent.agent.api;
    await waitFor(async () => (await api.scaleStatus({})).state === 'stable', 'a stable reading');
    expect(await api.scaleStatus({})).toEqual({ state: 'stable', kg: 1.234 });
    expect(answered).toEqual([uri]);
    expect(station.lines.join('\n')).toContain(`scale: ${uri} answers (${sim.serialNumber})`);
    expect((await api.getStatus({})).scale).toEqual({ uri, state: 'stable', kg: 1.234 });
    expect(await api.scaleDetails({})).toMatchObject({
      uri,
      state: 'stable',
      kg: 1.234,
      unit: 'kg',
      identity: sim.serialNumber,
      command: 'SIR',
    });

    sim.set({ mode: 'dynamic', weight: '2.000' });
    await waitFor(() => events.some((e) => e.type === 'scale' && e.scale.state === 'motion'), 'a motion event');
    expect(await api.scaleStatus({})).toEqual({ state: 'motion', kg: 2 });

    await sim.unplug();
    await waitFor(async () => (await api.scaleStatus({})).state === 'offline', 'offline within 2 s', 2000);
    expect(await api.scaleStatus({})).toEqual({ state: 'offline', kg: null });
    await waitFor(
      () => events.some((e) => e.type === 'status' && e.status.scale?.state === 'offline'),
      'a status event with the scale offline',
      1000,
    );
    expect(station.lines.join('\n')).toMatch(/scale: .* is offline/);

    sim.set({ mode: 'stable', weight: '0.500' });
    await sim.replug();
    await waitFor(async () => (await api.scaleStatus({})).state === 'stable', 'back after replug', 5000);
    expect(await api.scaleStatus({})).toEqual({ state: 'stable', kg: 0.5 });
    expect(station.lines.join('\n')).toContain(`scale: ${uri} is back (stable)`);
    // Printed once, at the first answer, not again at each return.
    expect(answered).toEqual([uri]);
  });

  it('takes a scale from Settings (saveSettings), refuses a URI that is not one, and reads offline with none', async () => {
    sim = await ScaleSimulator.start('toledo', { weight: '0.750', unit: 'kg' });
    station = await startStation();
    const api = (await station.start()).agent.api;
    expect(await api.scaleStatus({})).toEqual({ state: 'offline', kg: null });
    expect((await api.getSettings({})).scale).toBe('none');
    expect((await api.getStatus({})).scale).toBeUndefined();
    await expect(api.saveSettings({ scale: 'serial:/dev/x?protocol=nope' })).rejects.toMatchObject({ code: 'INVALID_SCALE_URI' });
    const uri = `serial:${sim.stationPath}?protocol=toledo`;
    expect((await api.saveSettings({ scale: uri })).scale).toBe(uri);
    await waitFor(async () => (await api.scaleStatus({})).state === 'stable', 'the new scale read', 5000);
    expect(await api.scaleStatus({})).toEqual({ state: 'stable', kg: 0.75 });
    await api.saveSettings({ scale: 'none' });
    expect(await api.scaleStatus({})).toEqual({ state: 'offline', kg: null });
    expect((await api.scaleDetails({})).uri).toBe('none');
  });
});

if (skip) it.skip(`scale agent tests: ${skip}`, () => undefined);
