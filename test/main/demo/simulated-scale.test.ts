/**
 * The demo's simulated scale follows the demo's drafts: a draft opened at the packing table
 * puts its parcels on (in motion, then still at the parcel's weight), and its printed label
 * takes the parcel off. Through the real ScaleMonitor on a set clock, and end to end with the
 * headless agent, the sandbox and "Book when the weight is stable".
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DraftView } from '../../../src/shared/domain';
import { ScaleMonitor } from '../../../src/main/devices/scale-monitor';
import { parseScaleUri } from '../../../src/main/devices/scale-uri';
import { SIMULATED_SCALE_URI, SimulatedScale } from '../../../src/main/demo/simulated-scale';
import { startStation, waitFor, type Station } from '../../support/agent-harness';

let monitor: ScaleMonitor | null = null;
let station: Station | null = null;
afterEach(async () => {
  await monitor?.stop();
  await station?.close();
  monitor = null;
  station = null;
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function draftOf(id: string, weightsKg: readonly (number | null)[]): DraftView {
  const pkg = { widthCm: 30, heightCm: 20, depthCm: 10, quantity: 1, description: null, favoritePackageId: null };
  return {
    shipment: { id } as DraftView['shipment'],
    stage: 'draft',
    packages: weightsKg.map((weightKg) => ({ ...pkg, weightKg })),
    customs: null,
    missing: [],
    nonEu: false,
    privateReceiver: false,
    thirdPartyPayer: false,
  };
}

function follow(scale: SimulatedScale): string[] {
  const address = parseScaleUri(SIMULATED_SCALE_URI);
  if (address.kind === 'none') throw new Error('the simulated scale has a URI');
  monitor = new ScaleMonitor({ address, open: scale.opener() });
  const states: string[] = [];
  monitor.subscribe((r) => states.push(`${r.state}${r.kg === null ? '' : ` ${r.kg}`}`));
  monitor.start();
  return states;
}

describe('the simulated scale, through the real monitor', () => {
  it('reads zero until a draft is opened, weighs its parcel, and takes it off when its label printed', async () => {
    let clock = 0;
    const scale = new SimulatedScale({ now: () => clock, updateMs: 20, settleMs: 1000, liftMs: 500 });
    const states = follow(scale);
    await sleep(150);
    expect(states).toEqual(['zero']);

    scale.draftOpened(draftOf('shp_a', [2.25]));
    await sleep(150);
    clock = 1000;
    await sleep(150);
    // Opened again (a refresh, a second window): nothing changes.
    scale.draftOpened(draftOf('shp_a', [2.25]));
    clock = 30_000;
    await sleep(150);
    // Another shipment's label is not this parcel's.
    scale.labelPrinted('shp_other');
    await sleep(150);
    expect(states).toEqual(['zero', 'motion 1.8', 'stable 2.25']);

    scale.onAgentEvent({ type: 'job', job: { shipmentId: 'shp_a', documentType: 'label', state: 'completed' } as never });
    await sleep(150);
    clock = 30_500;
    await sleep(150);
    expect(states).toEqual(['zero', 'motion 1.8', 'stable 2.25', 'motion 0.9', 'zero']);
    expect(monitor!.identity()).toMatch(/demo scale/);
  });

  it('puts a two-parcel draft on parcel by parcel, a parcel without a weight at the same weight every time, and yields to the next scan', async () => {
    let clock = 0;
    const timing = { now: () => clock, updateMs: 20, settleMs: 1000, liftMs: 500, gapMs: 500, parcelMs: 3000 };
    const scale = new SimulatedScale(timing);
    const states = follow(scale);
    scale.draftOpened(draftOf('shp_two', [1.5, null]));
    // Parcel 1 on at 0, still at 1000, off at 4000 (empty at 4500), parcel 2 on at 5000, still at 6000.
    for (const at of [0, 1500, 4200, 4700, 5200, 6200]) {
      clock = at;
      await sleep(120);
    }
    const unweighed = states[5]!;
    expect(states.slice(0, 5)).toEqual(['motion 1.2', 'stable 1.5', 'motion 0.6', 'zero', expect.stringMatching(/^motion /)]);
    expect(unweighed).toMatch(/^stable \d\.\d{1,3}$/);
    const kg = Number(unweighed.split(' ')[1]);
    expect(kg).toBeGreaterThanOrEqual(0.5);
    expect(kg).toBeLessThanOrEqual(4);
    // The same draft on another scale (another demo run) weighs the same.
    let otherClock = 0;
    const again = new SimulatedScale({ ...timing, now: () => otherClock });
    again.draftOpened(draftOf('shp_two', [1.5, null]));
    otherClock = 6200;
    expect(again.answer()).toMatchObject({ sample: { weight: { value: Math.round(kg * 1000) } } });

    // Another scan takes the parcel off and puts the new draft's on.
    scale.draftOpened(draftOf('shp_b', [3]));
    for (const at of [6200, 6800, 7300, 8300]) {
      clock = at;
      await sleep(120);
    }
    expect(states.slice(6)).toEqual([expect.stringMatching(/^motion /), 'zero', 'motion 2.4', 'stable 3']);
  });
});

describe('the simulated scale in a demo station', () => {
  it('books a scanned draft hands-free on its parcel weight, prints its label once, and reads zero after', async () => {
    const scale = new SimulatedScale({ settleMs: 400, liftMs: 300 });
    station = await startStation();
    const headless = await station.start({
      scale: SIMULATED_SCALE_URI,
      tuning: {
        pipeline: { retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20 },
        scaleMonitor: { open: scale.opener() },
        onDraftOpened: (draft) => scale.draftOpened(draft),
      },
    });
    headless.agent.subscribe((event) => scale.onAgentEvent(event));
    const api = headless.agent.api;
    const states: string[] = [];
    headless.agent.subscribe((event) => {
      if (event.type === 'scale') states.push(`${event.scale.state}${event.scale.kg === null ? '' : ` ${event.scale.kg}`}`);
    });
    await api.savePackSettings({ bookOnStableWeight: true });
    await waitFor(async () => (await api.scaleStatus({})).state === 'zero', 'the scale at zero');

    // What the pack view does on a scan: the draft, then the scale armed with it.
    const { shipmentId } = station.sandbox.createDraft({ gaps: ['weight'] });
    const opened = await api.packDraft({ shipmentId });
    expect(opened.ok).toBe(true);
    expect(await api.packHandsFree({ shipmentId })).toMatchObject({ state: 'waiting', parcels: 1 });

    await waitFor(async () => (await station!.prints()).length === 1, 'the label at the printer', 15_000);
    await waitFor(async () => (await api.scaleStatus({})).state === 'zero', 'the parcel taken off', 5000);
    const booked = await api.packHandsFreeStatus({ shipmentId });
    expect(booked.state).toBe('booked');
    const weighed = states.filter((s) => s.startsWith('stable '));
    expect(weighed).toHaveLength(1);
    expect(booked.weightsKg).toEqual([Number(weighed[0]!.split(' ')[1])]);
    expect(states).toEqual(['zero', expect.stringMatching(/^motion /), weighed[0], expect.stringMatching(/^motion /), 'zero']);
    expect(await station.prints()).toHaveLength(1);
  }, 30_000);
});
