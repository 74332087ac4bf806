/**
 * axe-core over every view at the two station sizes (800x600, 1280x800): no serious or
 * critical violation. The views are found through the tab list (role=tab), so a view added
 * later is checked without touching this file. Besides the tabs: a shipment on screen after a
 * scan, completed and canceled jobs in the queue, Settings with Advanced open and with a
 * notice, the printers form with rows and its Advanced parts open, and the first-run panel.
 */
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, stationTest as test } from './fixtures';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

const BLOCKING = new Set(['serious', 'critical']);

/** Serious and critical violations on the page as it is, one line each with the elements they hit. */
async function blockingViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('every view has no serious or critical axe violation at 800x600 and 1280x800', async ({ page, station }) => {
  const booked = await station.book({ reference_id: 'ORDER-AXE-1' });
  // A canceled reprint beside the completed label: the queue shows both states and a Retry.
  const held = `folder:${join(station.dir, 'held')}`;
  const api = station.agent.agent.api;
  // Reprints go to the station's own printers only: the held one is the document printer.
  await api.saveSettings({ routing: { documentPrinter: held } });
  await api.setPaused({ paused: true, printer: held });
  for (const job of await api.reprint({ shipmentId: booked.shipmentId, printer: held })) await api.cancelJob({ id: job.id });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill(booked.trackingId);
  await scan.press('Enter');
  await expect(page.getByRole('list', { name: 'Tracking events' })).toBeVisible();

  const tabs = page.locator('nav.tabs').getByRole('tab');
  const names = (await tabs.allTextContents()).map((name) => name.trim());
  expect(names.length, 'the tab list offers views').toBeGreaterThan(0);
  const checked: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    const at = `${size.width}x${size.height}`;
    for (let i = 0; i < names.length; i++) {
      const tab = tabs.nth(i);
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator('.view[role=tabpanel]:not([hidden])')).toBeVisible();
      expect(await blockingViolations(page), `${names[i]} at ${at}`).toEqual([]);
      checked.push(`${names[i]} ${at}`);
    }
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Printers', exact: true }).click();
    await page.getByText('Advanced: type a printer URI').click();
    expect(await blockingViolations(page), `Settings, Advanced open, at ${at}`).toEqual([]);
    await page.getByText('Advanced: type a printer URI').click();
    // The printers form with a printer and a rule (their problems showing) and its Advanced parts open.
    const form = page.locator('.printers-editor');
    if ((await form.getByRole('group', { name: /^Printer 1/ }).count()) === 0) {
      await form.getByRole('button', { name: 'Add a printer' }).click();
      await form.getByRole('button', { name: 'Add a rule' }).click();
    }
    for (const part of ['Advanced: edit as JSON', 'Advanced: printer address']) await form.getByText(part).click();
    expect(await blockingViolations(page), `Settings, printers form, at ${at}`).toEqual([]);
    for (const part of ['Advanced: edit as JSON', 'Advanced: printer address']) await form.getByText(part).click();
  }
  expect(checked).toHaveLength(names.length * SIZES.length);

  // A notice on screen (the polite live region) after saving. The one Save saves the printers form
  // too: the unfinished rows added above would stop it (and say so), so they go first.
  const form = page.locator('.printers-editor');
  await form.getByRole('button', { name: 'Remove rule 1' }).click();
  await form.getByRole('button', { name: 'Remove printer 1' }).click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  expect(await blockingViolations(page), 'Settings with a notice').toEqual([]);
});

test('the first-run panel has no serious or critical axe violation at 800x600 and 1280x800', async ({ page, station }) => {
  // A station without a key: the agent under test has one, so the answer is edited.
  await page.route('**/api/getSettings', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { ok: boolean; value: { apiKeySet: boolean } };
    body.value.apiKeySet = false;
    await route.fulfill({ response, json: body });
  });
  await page.goto(station.url);
  await expect(page.getByRole('button', { name: 'Connect your account' })).toBeVisible();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    expect(await blockingViolations(page), `first run at ${size.width}x${size.height}`).toEqual([]);
  }
});
