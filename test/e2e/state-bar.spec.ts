/**
 * The station's state (running, auto-print paused, offline, printer trouble) stays in sight at
 * 800x600 whatever the view shows: the status bar sticks to the window's bottom edge.
 */
import type { Page } from '@playwright/test';
import { expect, stationTest as test } from './fixtures';

/** The status bar's box lies inside the window (what the packer sees without scrolling). */
async function barInWindow(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const bar = document.querySelector('.status-bar');
    if (!bar) return false;
    const r = bar.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight + 0.5;
  });
}

test('the state stays in sight at 800x600 on every view, scrolled or not: running, paused, offline', async ({ page, station, snap }) => {
  const booked = await station.book({ reference_id: 'STATE-BAR-1' });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill(booked.trackingId);
  await scan.press('Enter');
  await expect(page.getByRole('list', { name: 'Tracking events' })).toBeVisible();
  const bar = page.getByRole('contentinfo', { name: 'Agent status' });
  await expect(bar).toContainText('Running');

  for (const tab of ['Scan', 'Queue & history', 'Settings', 'End of day']) {
    await page.getByRole('tab', { name: tab }).click();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    expect(await barInWindow(page), `${tab}, half-way down`).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await barInWindow(page), `${tab}, at the top`).toBe(true);
  }

  await station.agent.agent.api.setPaused({ paused: true });
  await page.getByRole('tab', { name: 'Scan' }).click();
  await expect(bar).toContainText('Auto-print paused');
  expect(await barInWindow(page)).toBe(true);
  await snap('state-bar-paused-800');

  // The agent unreachable: every bridge call fails.
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(bar).toContainText('Offline', { timeout: 20_000 });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  expect(await barInWindow(page)).toBe(true);
});
