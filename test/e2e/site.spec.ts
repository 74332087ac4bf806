/**
 * The Site tab in the browser: a relay and two stations on a private nats-server; the tab
 * names each station beside "online", keeps itself current, and shows a stopped station
 * "offline" within 30 s without a click. It fits 800x600 without sideways scrolling.
 */
import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { startTestSite } from '../support/site';

test('the Site tab names every station online or offline and follows a station that stops', async ({ page, snap }) => {
  test.setTimeout(90_000);
  if (!existsSync('out/renderer/index.html')) throw new Error('Build the UI first: npm run build:ui');
  const site = await startTestSite();
  try {
    const one = site.station('Packing 1', { ui: true });
    const two = site.station('Packing 2');
    const agent = await one.start();
    await two.start();
    await site.startRelay({ defaultStations: ['Packing 1'] });
    await agent.agent.api.lookup({ scan: 'E2E-CLAIM' });
    await site.sandbox.bookShipment({ reference_id: 'E2E-CLAIM' });

    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(agent.uiUrl!);
    await page.getByRole('tab', { name: /Site/ }).click();
    const stations = page.getByRole('table', { name: 'Stations of the site' });
    await expect(stations.getByRole('row').filter({ hasText: 'Packing 1' })).toContainText('online');
    await expect(stations.getByRole('row').filter({ hasText: 'Packing 2' })).toContainText('online');
    await expect(page.getByRole('list', { name: 'Latest decisions' })).toContainText(
      /E2E-CLAIM: printed at Packing 1: claimed by a scan at/,
      {
        timeout: 15_000,
      },
    );
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await snap('site-800x600');
    // With stations listed and the rules form shown: no serious or critical axe violation.
    await expect(page.getByRole('form', { name: 'Station rules in the site' })).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    const stoppedAt = Date.now();
    await two.stop();
    await expect(stations.getByRole('row').filter({ hasText: 'Packing 2' })).toContainText('offline', { timeout: 30_000 });
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);
  } finally {
    await site.close();
  }
});
