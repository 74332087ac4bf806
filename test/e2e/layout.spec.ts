/**
 * Every view fits a small station screen (800x600) without sideways scrolling, the queue
 * pages and reflows with Retry on screen, and Settings offers the discovered printers as
 * choices with readiness in its own colour. Screenshots of every view at 800x600 and
 * 1280x800 land in test-results/screens/ to be looked at.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ServiceClient } from '../../src/main/api/client';
import { SCREENS_DIR, expect, stationTest as test } from './fixtures';
import type { Station } from '../support/station';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
}

/**
 * Controls that stick out of their view's panel (cut off at its edge, or running under
 * the window's edge): none may. Described as "tag#id: left..right outside a..b".
 */
async function controlsOutsidePanel(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const panel = document.querySelector<HTMLElement>('.view[role=tabpanel]:not([hidden])');
    if (!panel) return ['no visible tab panel'];
    const box = panel.getBoundingClientRect();
    const limit = Math.min(box.right, document.documentElement.clientWidth);
    const out: string[] = [];
    const controls = panel.querySelectorAll<HTMLElement>('input, select, textarea, button, label, .printer-choice, tr.job, td');
    for (const el of Array.from(controls)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < box.left - 0.5 || r.right > limit + 0.5) {
        const name = `${el.tagName.toLowerCase()}#${el.id || el.className}`;
        out.push(`${name}: ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(box.left)}..${Math.round(limit)}`);
      }
    }
    return out;
  });
}

/** The whole page, and what the window shows (what a packer sees without scrolling). */
async function shoot(page: Page, snap: (name: string) => Promise<string>, name: string): Promise<void> {
  await snap(name);
  await page.screenshot({ path: join(SCREENS_DIR, `${name}-window.png`) });
}

/**
 * 30 canceled reprints on a paused printer: more than a page of jobs, each with Retry.
 * Pausing the printer holds them queued, so the cancel cannot race the print.
 */
async function fillQueue(station: Station, shipmentId: string): Promise<void> {
  const held = `folder:${join(station.dir, 'held')}`;
  const api = station.agent.agent.api;
  // Reprints go to the station's own printers only: the held one is the document printer.
  await api.saveSettings({ routing: { documentPrinter: held } });
  await api.setPaused({ paused: true, printer: held });
  for (let i = 0; i < 30; i++) {
    const jobs = await api.reprint({ shipmentId, printer: held });
    for (const job of jobs) await api.cancelJob({ id: job.id });
  }
}

test('every view fits 800x600 and 1280x800 without sideways scrolling', async ({ page, station, snap }) => {
  const booked = await station.book({ reference_id: 'ORDER-LAYOUT-1' });
  await fillQueue(station, booked.shipmentId);
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill(booked.trackingId);
  await scan.press('Enter');
  await expect(page.getByRole('list', { name: 'Tracking events' })).toBeVisible();

  for (const size of SIZES) {
    await page.setViewportSize(size);
    const at = `${size.width}x${size.height}`;
    for (const tab of ['Scan', 'Queue & history', 'Settings', 'End of day'] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      if (tab === 'Queue & history') await expect(page.locator('tr.job').first()).toBeVisible();
      if (tab === 'End of day') await expect(page.locator('tr.eod-row').first()).toBeVisible();
      // Settings: every section of it.
      const parts = tab === 'Settings' ? (['Connection and intake', 'Printers', 'Packing', 'Language and support'] as const) : [null];
      for (const part of parts) {
        if (part) await page.getByRole('tab', { name: part, exact: true }).click();
        if (part === 'Printers') await expect(page.getByRole('radio').first()).toBeVisible();
        const where = part ? `${tab} → ${part}` : tab;
        const { scrollWidth, clientWidth } = await horizontalOverflow(page);
        expect(scrollWidth, `${where} at ${at}: ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
        expect(await controlsOutsidePanel(page), `${where} at ${at}`).toEqual([]);
        await shoot(page, snap, `layout-${tab.split(' ')[0]!.toLowerCase()}${part ? `-${part.split(' ')[0]!.toLowerCase()}` : ''}-${at}`);
      }
    }
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Printers', exact: true }).click();
    await page.getByText('Advanced: type a printer URI').click();
    expect((await horizontalOverflow(page)).scrollWidth).toBeLessThanOrEqual(size.width);
    expect(await controlsOutsidePanel(page), `Settings, Advanced open, at ${at}`).toEqual([]);
    await shoot(page, snap, `layout-settings-advanced-${at}`);
    await page.getByText('Advanced: type a printer URI').click();
  }

  // The queue at 800x600: one page of 25 cards, Retry inside the window, Next to the rest.
  await page.setViewportSize({ width: 800, height: 600 });
  await page.getByRole('tab', { name: 'Queue & history' }).click();
  const rows = page.locator('tr.job');
  await expect(rows).toHaveCount(25);
  const retry = page.getByRole('button', { name: /^Retry/ }).first();
  // The queue redraws as its jobs change: a row may be replaced while it is scrolled to.
  let box: Awaited<ReturnType<typeof retry.boundingBox>> = null;
  await expect(async () => {
    await retry.scrollIntoViewIfNeeded({ timeout: 2_000 });
    box = await retry.boundingBox();
    expect(box, 'Retry is rendered').not.toBeNull();
  }).toPass({ timeout: 10_000 });
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(800);
  await expect(retry).toBeInViewport({ ratio: 1 });
  const pager = page.getByRole('navigation', { name: 'Job pages' });
  await expect(pager).toContainText('Jobs 1–25 of 31');
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(rows).toHaveCount(6);
  await expect(pager).toContainText('Jobs 26–31 of 31');
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Previous' }).click();
  await expect(rows).toHaveCount(25);

  // The README's picture: a reprint done, at 1280x800.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('tab', { name: 'Scan' }).click();
  await page.getByRole('button', { name: /Reprint/ }).click();
  await expect(page.locator('.reprint-status')).toContainText(/: saved$/);
  await expect(page.getByRole('button', { name: /Reprint/ })).toBeInViewport();
  await shoot(page, snap, 'readme-scan-1280x800');
});

test('the first-run panel fits 800x600', async ({ page, station, snap }) => {
  // A station without a key: the agent under test has one, so the answer is edited.
  await page.route('**/api/getSettings', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { ok: boolean; value: { apiKeySet: boolean } };
    body.value.apiKeySet = false;
    await route.fulfill({ response, json: body });
  });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(station.url);
  await expect(page.getByRole('button', { name: 'Connect your account' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try the demo' })).toBeInViewport({ ratio: 1 });
  const { scrollWidth, clientWidth } = await horizontalOverflow(page);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  expect(await controlsOutsidePanel(page)).toEqual([]);
  await shoot(page, snap, 'layout-first-run-800x600');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shoot(page, snap, 'layout-first-run-1280x800');
});

test('settings: a discovered printer is chosen from a list, documents are in words', async ({ page, station, snap }) => {
  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Printers', exact: true }).click();
  const labelGroup = page.getByRole('group', { name: 'Label printer', exact: true });
  // The station prints to a folder; it is listed and chosen.
  const chosen = labelGroup.getByRole('radio', { checked: true });
  await expect(chosen).toHaveValue(`folder:${station.printsDir}`);
  for (const word of ['Customs invoice', 'Proof of delivery', 'Export accompanying document', 'Waybill']) {
    await expect(page.getByRole('checkbox', { name: word, exact: true })).toBeVisible();
  }
  await expect(page.locator('.settings-view')).not.toContainText(/customsinvoice|proofofdelivery|\babd\b/);
  // Typing a URI stays possible under Advanced, and the list follows it.
  await page.getByText('Advanced: type a printer URI').click();
  const uri = page.getByLabel('Label printer URI');
  await expect(uri).toHaveValue(`folder:${station.printsDir}`);
  const other = `folder:${join(station.dir, 'other')}`;
  await uri.fill(other);
  await expect(labelGroup.getByRole('radio', { checked: true })).toHaveValue(other);
  const chosenChoice = labelGroup.locator('.printer-choice').filter({ has: page.getByRole('radio', { checked: true }) });
  await expect(chosenChoice.locator('.readiness.unknown')).toHaveText('not found on this computer');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await snap('settings-picker');
  await page.reload();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Printers', exact: true }).click();
  await expect(page.getByRole('group', { name: 'Label printer', exact: true }).getByRole('radio', { checked: true })).toHaveValue(other);
});

test('the pack flow fits 800x600: parcels, rates, a service point, a document upload', async ({ page, station, snap }) => {
  const client = new ServiceClient({ baseUrl: station.sandbox.baseUrl, apiKey: station.sandbox.apiKey });
  const sender = {
    name: 'Acme AB',
    address: { address_line_1: 'Packgatan 1', postal_code: '41101', city: 'Göteborg', country_code: 'SE' },
    contact: { name: 'Ann Sender' },
  };
  const parcel = { quantity: 1, type: 'PACKAGE', weight_kg: 1, width_cm: 20, height_cm: 20, depth_cm: 30 };
  await client.createShipment({
    reference_id: 'DRAFT-POINT',
    from: sender,
    to: {
      name: 'Pia Private',
      is_private_individual: true,
      address: { address_line_1: 'Storgatan 1', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
      contact: { name: 'Pia Private' },
    },
    packages: [parcel],
  });
  await client.createShipment({
    reference_id: 'DRAFT-EXPORT',
    from: sender,
    to: {
      name: 'Oslo Butikk AS',
      address: { address_line_1: 'Karl Johans gate 1', postal_code: '0154', city: 'Oslo', country_code: 'NO' },
      contact: { name: 'Ola' },
    },
    packages: [parcel],
  });
  await client.close();
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });

  const openAndPick = async (reference: string, wanted: RegExp): Promise<void> => {
    await scan.fill(reference);
    await scan.press('Enter');
    await expect(page.getByText('Ready to rate and book.')).toBeVisible();
    await page.keyboard.press('Alt+b');
    const radios = page.getByRole('radiogroup', { name: 'Rates' }).getByRole('radio');
    await expect(radios.first()).toBeVisible();
    const count = await radios.count();
    let index = -1;
    for (let i = 0; i < count; i++) if (wanted.test((await radios.nth(i).textContent()) ?? '')) index = i;
    expect(index, `a rate matching ${wanted}`).toBeGreaterThanOrEqual(0);
    await radios.nth(index).click();
    await expect(radios.nth(index)).toHaveAttribute('aria-checked', 'true');
  };

  await openAndPick('DRAFT-POINT', /service point/);
  await expect(page.getByRole('combobox', { name: 'Service point' })).toBeVisible();
  expect((await horizontalOverflow(page)).scrollWidth).toBeLessThanOrEqual(800);
  expect(await controlsOutsidePanel(page), 'pack flow with a service point at 800x600').toEqual([]);
  await shoot(page, snap, 'layout-pack-service-point-800x600');

  await openAndPick('DRAFT-EXPORT', /upload/);
  await expect(page.locator('.drop-zone').first()).toBeVisible();
  expect((await horizontalOverflow(page)).scrollWidth).toBeLessThanOrEqual(800);
  expect(await controlsOutsidePanel(page), 'pack flow with a document upload at 800x600').toEqual([]);
  await shoot(page, snap, 'layout-pack-upload-800x600');
});
