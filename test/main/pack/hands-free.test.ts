/**
 * Book when the weight is stable, against the sandbox, the headless agent and an MT-SICS
 * scale simulator on a pty pair: one booking and one label per draft, never on a weight in
 * motion, parcel by parcel, and never again when the parcel goes back on the scale.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentApi } from '../../../src/shared/agent-api';
import { startStation, waitFor, type Station } from '../../support/agent-harness';
import { socatUnavailable } from '../../support/pty-pair';
import { ScaleSimulator } from '../../support/scale-simulator';

const skip = socatUnavailable();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let station: Station | null = null;
let sim: ScaleSimulator | null = null;
afterEach(async () => {
  await station?.close();
  await sim?.stop();
  station = null;
  sim = null;
});

async function start(bookOnStableWeight = true): Promise<AgentApi> {
  sim = await ScaleSimulator.start('sics', { weight: '0.000', unit: 'kg' });
  station = await startStation();
  const api = (await station.start({ scale: `serial:${sim.stationPath}` })).agent.api;
  await api.savePackSettings({ bookOnStableWeight });
  await waitFor(async () => (await api.scaleStatus({})).state === 'zero', 'the scale at zero');
  return api;
}

describe.skipIf(skip !== null)('book when the weight is stable', () => {
  it('is off by default and saved with the other Packing settings', async () => {
    const api = await start(false);
    expect((await api.getPackSettings({})).bookOnStableWeight).toBe(false);
    const { shipmentId } = station!.sandbox.createDraft({ gaps: ['weight'] });
    expect(await api.packHandsFree({ shipmentId })).toMatchObject({ state: 'off' });
    expect((await api.savePackSettings({ bookOnStableWeight: true })).bookOnStableWeight).toBe(true);
    expect((await api.getPackSettings({})).pickup).toBe('next');
    expect(await api.packHandsFree({ shipmentId })).toMatchObject({ state: 'waiting', parcels: 1 });
  });

  it('books and prints once on a stable weight held one second, never in motion, and not again when the parcel goes back', async () => {
    const api = await start();
    const { shipmentId } = station!.sandbox.createDraft({ gaps: ['weight'] });
    expect(await api.packHandsFree({ shipmentId })).toMatchObject({ state: 'waiting', parcel: 0, parcels: 1 });
    // A second window arming the same draft joins the first.
    expect(await api.packHandsFree({ shipmentId })).toMatchObject({ state: 'waiting' });

    sim!.set({ mode: 'dynamic', weight: '2.345' });
    await sleep(1800);
    expect((await api.packHandsFreeStatus({ shipmentId })).state).toBe('waiting');
    expect(await station!.prints()).toEqual([]);

    sim!.set({ mode: 'stable', weight: '2.345' });
    await waitFor(async () => (await api.packHandsFreeStatus({ shipmentId })).state === 'booked', 'booked on the weight', 10_000);
    await waitFor(async () => (await station!.prints()).length === 1, 'one label at the printer');
    const booked = await api.packHandsFreeStatus({ shipmentId });
    expect(booked).toMatchObject({ state: 'booked', weightsKg: [2.345] });
    expect(booked.booked?.trackingId).toBeTruthy();
    const draft = await api.packDraft({ shipmentId });
    expect(draft.ok && draft.value.stage).toBe('booked');
    expect(draft.ok && draft.value.packages[0]?.weightKg).toBe(2.345);

    // Off and on again, and armed again from another window: nothing more is booked or printed.
    sim!.set({ weight: '0.000' });
    await sleep(300);
    sim!.set({ weight: '2.345' });
    await sleep(1600);
    expect(await api.packHandsFree({ shipmentId })).toMatchObject({ state: 'booked' });
    expect(await station!.prints()).toHaveLength(1);
    const books = station!.sandbox.requestLog().filter((r) => r.method === 'POST' && /\/book/.test(r.url));
    expect(books).toHaveLength(1);
  });

  it('weighs a two-parcel draft parcel by parcel: place, stable, off, next', async () => {
    const api = await start();
    const { shipmentId } = station!.sandbox.createDraft({ packages: 2, gaps: ['weight'] });
    expect(await api.packHandsFree({ shipmentId })).toMatchObject({ state: 'waiting', parcels: 2 });
    sim!.set({ mode: 'stable', weight: '1.200' });
    await waitFor(async () => (await api.packHandsFreeStatus({ shipmentId })).weightsKg.length === 1, 'the first parcel weighed');
    // The same weight left on the scale is not the second parcel.
    await sleep(1500);
    expect(await api.packHandsFreeStatus({ shipmentId })).toMatchObject({ state: 'waiting', parcel: 1, weightsKg: [1.2] });
    sim!.set({ weight: '0.000' });
    await sleep(300);
    sim!.set({ weight: '3.400' });
    await waitFor(async () => (await api.packHandsFreeStatus({ shipmentId })).state === 'booked', 'booked after the second parcel', 10_000);
    const draft = await api.packDraft({ shipmentId });
    expect(draft.ok && draft.value.packages.map((p) => p.weightKg)).toEqual([1.2, 3.4]);
    await waitFor(async () => (await station!.prints()).length === 1, 'one label at the printer');
  });

  it('shows a weight the service does not take and books nothing until the weight changes', async () => {
    const api = await start();
    const { shipmentId } = station!.sandbox.createDraft({ gaps: ['weight'] });
    await api.packHandsFree({ shipmentId });
    sim!.set({ mode: 'stable', weight: '20000.000' });
    await waitFor(async () => (await api.packHandsFreeStatus({ shipmentId })).state === 'refused', 'refused', 10_000);
    expect((await api.packHandsFreeStatus({ shipmentId })).message).toMatch(/20000 kg/);
    expect(await station!.prints()).toEqual([]);
    sim!.set({ weight: '2.000' });
    await waitFor(async () => (await api.packHandsFreeStatus({ shipmentId })).state === 'booked', 'booked on the new weight', 10_000);
  });
});

if (skip) it.skip(`hands-free tests: ${skip}`, () => undefined);
