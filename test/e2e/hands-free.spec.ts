/**
 * Book when the weight is stable, in Chromium against the real headless agent, the sandbox
 * and an MT-SICS scale simulator on a socat pty pair: a scanned draft's weight box follows
 * the scale, nothing is booked while the load moves, and one stable weight books it and
 * prints exactly one label, hands-free.
 */
import { existsSync } from 'node:fs';
import { expect, test as base } from './fixtures';
import { pdfsIn, startStation, type Station } from '../support/station';
import { socatUnavailable } from '../support/pty-pair';
import { ScaleSimulator } from '../support/scale-simulator';

const skip = socatUnavailable();

const test = base.extend<{ sim: ScaleSimulator; station: Station }>({
  // eslint-disable-next-line no-empty-pattern
  sim: async ({}, use) => {
    const sim = await ScaleSimulator.start('sics', { weight: '0.000', unit: 'kg', mode: 'stable' });
    try {
      await use(sim);
    } finally {
      await sim.stop();
    }
  },
  station: async ({ sim }, use, testInfo) => {
    if (!existsSync('out/renderer/index.html')) throw new Error('Build the UI first: npm run build:ui');
    const station = await startStation({}, 0, { scale: `serial:${sim.stationPath}` });
    try {
      await use(station);
    } finally {
      if (existsSync(station.logFile)) await testInfo.attach('agent.log', { path: station.logFile, contentType: 'text/plain' });
      await station.close();
    }
  },
});

test.skip(skip !== null, `needs socat: ${skip}`);

test('a scanned draft is weighed, booked and printed once hands-free, never on a weight in motion', async ({
  page,
  station,
  sim,
  snap,
}) => {
  const api = station.agent.agent.api;
  await page.goto(station.url);
  // Settings → Packing: the checkbox, saved by Settings' one Save.
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: /Packing/ }).click();
  const checkbox = page.getByRole('checkbox', { name: 'Book when the weight is stable' });
  await expect(checkbox).not.toBeChecked();
  await checkbox.check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect.poll(async () => (await api.getPackSettings({})).bookOnStableWeight).toBe(true);

  const draft = station.sandbox.createDraft({ gaps: ['weight'] });
  await page.getByRole('tab', { name: 'Scan', exact: true }).click();
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill(draft.referenceId);
  await scan.press('Enter');
  const status = page.locator('.hands-free[role=status]');
  await expect(status).toContainText('Place parcel 1 of 1 on the scale');
  const weight = page.getByRole('textbox', { name: 'Weight (kg), parcel line 1' });

  sim.set({ mode: 'dynamic', weight: '2.500' });
  await expect.poll(async () => (await api.scaleStatus({})).state).toBe('motion');
  await page.waitForTimeout(2000);
  expect(await pdfsIn(station.printsDir)).toEqual([]);
  await expect(weight).toHaveValue('');

  sim.set({ mode: 'stable', weight: '2.500' });
  await expect(weight).toHaveValue('2.5');
  // Booked: the panel gives way to the booked shipment and the line that says so.
  await expect(page.getByText(new RegExp(`Booked ${draft.referenceId}`))).toBeVisible({ timeout: 10_000 });
  await expect.poll(async () => (await pdfsIn(station.printsDir)).filter((f) => f.startsWith(draft.shipmentId)).length).toBe(1);
  await snap('hands-free-booked');

  // Off the scale and back on: nothing more is booked or printed.
  sim.set({ weight: '0.000' });
  await page.waitForTimeout(400);
  sim.set({ weight: '2.500' });
  await page.waitForTimeout(2000);
  expect(await pdfsIn(station.printsDir)).toHaveLength(1);
  expect(station.sandbox.requestLog().filter((r) => r.method === 'POST' && /\/book/.test(r.url))).toHaveLength(1);
});
