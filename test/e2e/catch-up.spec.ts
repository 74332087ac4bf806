/**
 * A fresh station against a team with a history: what was booked in the hour before its first
 * start is not printed by itself but offered once, in the Scan view, with one button; taking it
 * prints each of those labels once, and the offer is gone.
 */
import { expect, test } from './fixtures';
import { pdfsIn, startStation, type Station } from '../support/station';
import { existsSync } from 'node:fs';

const OLD = ['HIST-0001', 'HIST-0002', 'HIST-0003'];

let station: Station;
let booked: string[] = [];

test.beforeEach(async () => {
  if (!existsSync('out/renderer/index.html')) throw new Error('Build the UI first: npm run build:ui');
  booked = [];
  station = await startStation({}, 0, {}, async (sandbox) => {
    for (const reference_id of OLD) booked.push((await sandbox.bookShipment({ source: 'API', reference_id })).shipmentId);
    // The service dates its answers to the second: a booking in the second before the first start may count as after it.
    await new Promise((r) => setTimeout(r, 1100));
  });
});

// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => {
  if (existsSync(station.logFile)) await testInfo.attach('agent.log', { path: station.logFile, contentType: 'text/plain' });
  await station.close();
});

for (const viewport of [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
]) {
  test(`offers the hour before the first start once and prints it on request, at ${viewport.width}x${viewport.height}`, async ({
    page,
    snap,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto(station.url);
    const offer = page.getByText('3 shipments were booked in the last hour before this station started');
    await expect(offer).toBeVisible();
    const print = page.getByRole('button', { name: 'Print them' });
    await expect(print).toBeInViewport();
    // Nothing of the team's history printed by itself.
    expect(await pdfsIn(station.printsDir)).toEqual([]);
    await snap(`catch-up-offer-${viewport.width}`);

    await print.click();
    await expect(page.getByRole('status').filter({ hasText: '3 shipments sent to print.' })).toBeVisible();
    await expect.poll(async () => (await pdfsIn(station.printsDir)).length, { timeout: 15_000 }).toBe(OLD.length);
    const files = await pdfsIn(station.printsDir);
    for (const [i, id] of booked.entries()) {
      // Once each, named by its reference too.
      expect(files.filter((f) => f.startsWith(id))).toEqual([expect.stringContaining(`_${OLD[i]}_`)]);
    }

    // Taken once: a new window of the station offers nothing more, and a new booking prints by itself.
    await page.reload();
    await expect(page.getByRole('textbox', { name: /Scan/ })).toBeFocused();
    await expect(offer).toHaveCount(0);
    const fresh = await station.book({ reference_id: 'NEW-0004' });
    expect((await pdfsIn(station.printsDir)).filter((f) => f.startsWith(fresh.shipmentId))).toHaveLength(1);
    expect(await pdfsIn(station.printsDir)).toHaveLength(OLD.length + 1);
  });
}
