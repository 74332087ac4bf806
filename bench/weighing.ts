/**
 * Weighing: how fast the scale reaches the UI and a stable weight reaches the printer, with an
 * MT-SICS simulator on a socat pty pair, the real headless agent and an in-process sandbox.
 *
 * - reading_to_ui: the simulator's weight changes; timed until the agent's `scale` event with the
 *   new weight reaches a subscriber (what the bridge forwards to the UI). Each change waits a
 *   random 0–200 ms first: a parcel lands at any moment of the scale's update cycle, and changing
 *   the weight right after the last reading was seen would time one whole cycle every time.
 * - stable_to_label: a scanned draft armed to book on a stable weight (packHandsFree); the
 *   simulator settles on a weight; timed from the end of the one-second hold the safety rule
 *   asks for (the reading's start + 1 s) to the label's PDF in the folder printer, booking
 *   (save weights, rates, book, fetch the PDF) included. `stable_to_label_raw` includes the hold.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHeadlessAgent } from '../src/main/headless';
import { createLogger } from '../src/main/log';
import { startSandbox } from '../src/sandbox/server';
import { socatUnavailable } from '../test/support/pty-pair';
import { percentile } from '../test/support/reliability/stats';
import { ScaleSimulator } from '../test/support/scale-simulator';

export interface WeighingResult {
  readonly reading_to_ui_p50_ms: number;
  readonly reading_to_ui_p95_ms: number;
  readonly stable_to_label_p50_ms: number;
  readonly stable_to_label_p95_ms: number;
  readonly stable_to_label_raw_p95_ms: number;
  readonly readings: number;
  readonly labels: number;
}

const HOLD_MS = 1000;

export async function runWeighing(o: { readings: number; labels: number; log: (line: string) => void }): Promise<WeighingResult | null> {
  const skip = socatUnavailable();
  if (skip) {
    o.log(`weighing: skipped (${skip})`);
    return null;
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-weighing-'));
  const printsDir = join(dir, 'prints');
  const sim = await ScaleSimulator.start('sics', { weight: '0.000', unit: 'kg', mode: 'stable' });
  const sandbox = await startSandbox({ port: 0 });
  const agent = await startHeadlessAgent({
    apiUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    dataDir: join(dir, 'data'),
    log: createLogger({ write: () => undefined }),
    printer: `folder:${printsDir}`,
    pollIntervalSeconds: 0,
    scale: `serial:${sim.stationPath}`,
  });
  const api = agent.agent.api;
  const until = async (check: () => Promise<boolean>, what: string): Promise<void> => {
    const deadline = Date.now() + 15_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`weighing: ${what} did not happen within 15 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  try {
    await until(async () => (await api.scaleStatus({})).state === 'zero', 'the scale at zero');
    const toUi: number[] = [];
    for (let i = 0; i < o.readings; i++) {
      const kg = Number((1 + (i % 50) / 100 + 0.001).toFixed(3));
      await new Promise((r) => setTimeout(r, Math.random() * 200));
      const seen = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('weighing: a reading did not reach the UI within 15 s')), 15_000);
        const unsubscribe = agent.agent.subscribe((event) => {
          if (event.type !== 'scale' || event.scale.kg !== kg) return;
          clearTimeout(timer);
          unsubscribe();
          resolve(performance.now());
        });
      });
      const started = performance.now();
      sim.set({ weight: kg.toFixed(3) });
      toUi.push((await seen) - started);
    }
    await api.savePackSettings({ bookOnStableWeight: true });
    const toLabel: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < o.labels; i++) {
      sim.set({ weight: '0.000' });
      await until(async () => (await api.scaleStatus({})).state === 'zero', 'zero between parcels');
      const { shipmentId } = sandbox.createDraft({ gaps: ['weight'] });
      await api.packHandsFree({ shipmentId });
      const settled = Date.now();
      sim.set({ weight: (2 + i / 100).toFixed(3) });
      await until(async () => (await api.scaleStatus({})).state === 'stable' && (await api.scaleStatus({})).kg !== 0, 'the weight');
      const since = agent.agent.scale.current?.reading().since ?? settled;
      await until(async () => (await readdir(printsDir).catch(() => [] as string[])).some((f) => f.startsWith(shipmentId)), 'the label');
      toLabel.push(Date.now() - (since + HOLD_MS));
      raw.push(Date.now() - since);
    }
    const result: WeighingResult = {
      reading_to_ui_p50_ms: round(percentile(toUi, 50)),
      reading_to_ui_p95_ms: round(percentile(toUi, 95)),
      stable_to_label_p50_ms: round(percentile(toLabel, 50)),
      stable_to_label_p95_ms: round(percentile(toLabel, 95)),
      stable_to_label_raw_p95_ms: round(percentile(raw, 95)),
      readings: toUi.length,
      labels: toLabel.length,
    };
    o.log(`weighing: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await agent.stop();
    await sandbox.close();
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const round = (n: number): number => Math.round(n * 10) / 10;
