/**
 * Settings an admin can read, in real Chromium against the headless agent: the sections are
 * tabs inside Settings and each fits about two screens at 1280x800; no section scrolls sideways
 * at 800x600; there is one Save, apart from Pause auto-print, and it saves what was changed in
 * every section at once; the printers are one area (configured printers with their pills,
 * Pause/Resume and Test page, which printer gets labels and documents, the printers form).
 */
import type { Page } from '@playwright/test';
import { CATALOGS, LANGUAGE_STORAGE_KEY } from '../../src/renderer/i18n';
import { expect, stationTest as test } from './fixtures';

const SECTIONS = ['connection', 'printers', 'packing', 'scale', 'support'] as const;

/** The height of Settings (pause bar, tabs, the open section, Save) in CSS pixels. */
const settingsHeight = (page: Page): Promise<number> =>
  page.locator('#view-settings').evaluate((el) => Math.round(el.getBoundingClientRect().height));

const scrollsSideways = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

for (const language of ['en', 'sv', 'fi'] as const) {
  const words = CATALOGS[language];
  test(`${language}: each Settings section fits two screens at 1280x800, none scrolls sideways at 800x600, one Save`, async ({
    page,
    station,
  }) => {
    await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, language] as const);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(station.url);
    await page.getByRole('tab', { name: words['tab.settings'] }).click();
    const sections = page.getByRole('tablist', { name: words['settings.sections'] });
    await expect(sections.getByRole('tab')).toHaveText(SECTIONS.map((s) => words[`settings.tab.${s}`]));
    // At 1280x800 each section as the admin opens it fits about two screens (2 × 800 px).
    const heights: Record<string, number> = {};
    for (const section of SECTIONS) {
      const tab = sections.getByRole('tab', { name: words[`settings.tab.${section}`] });
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator(`#settings-panel-${section}`)).toBeVisible();
      await expect(page.locator('.settings-part:not([hidden])')).toHaveCount(1);
      await page.waitForTimeout(300);
      heights[section] = await settingsHeight(page);
      expect(await scrollsSideways(page), `${section} at 1280x800 scrolls sideways`).toBe(false);
      // One Save for the form, and none in Language and support (nothing there is saved by it).
      await expect(page.getByRole('button', { name: words['settings.save'] })).toHaveCount(section === 'support' ? 0 : 1);
    }
    for (const section of SECTIONS) {
      expect(heights[section], `${section} is ${heights[section]} px tall at 1280x800`).toBeLessThanOrEqual(2 * 800);
    }
    // The printers section with a rule and a printer row added (the longest words): no section
    // scrolls sideways at 800x600 or 1280x800.
    await sections.getByRole('tab', { name: words['settings.tab.printers'] }).click();
    await page.getByRole('button', { name: words['pf.addRule'] }).click();
    await page.getByRole('button', { name: words['pf.addPrinter'] }).click();
    await expect(page.getByRole('group', { name: words['pf.ruleN'].replace('{n}', '1') })).toBeVisible();
    for (const size of [
      { width: 800, height: 600 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size);
      for (const section of SECTIONS) {
        await sections.getByRole('tab', { name: words[`settings.tab.${section}`] }).click();
        await page.waitForTimeout(200);
        expect(await scrollsSideways(page), `${section} at ${size.width}x${size.height} scrolls sideways`).toBe(false);
      }
    }
  });
}

test('one Save saves every changed section; Pause acts apart from it; the printers are one area', async ({ page, station }) => {
  const api = station.agent.agent.api;
  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Settings' }).click();
  // Pause auto-print is not part of the form: it is outside it and not a submit button.
  const form = page.locator('#settings-form');
  await expect(form.getByRole('button', { name: 'Pause auto-print' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Pause auto-print' })).toHaveAttribute('type', 'button');
  await expect(page.locator('#view-settings button[type=submit], #view-settings button[form]')).toHaveCount(1);

  // The printers are one area: all printer controls are in the Printers section, none elsewhere.
  await page.getByRole('tab', { name: 'Printers', exact: true }).click();
  const printers = page.locator('#settings-panel-printers');
  await expect(printers.getByRole('list', { name: 'Configured printers' })).toBeVisible();
  await expect(printers.getByRole('group', { name: 'Label printer', exact: true })).toBeVisible();
  await expect(printers.getByRole('heading', { name: 'Printers and routing rules' })).toBeVisible();
  const item = printers.getByRole('list', { name: 'Configured printers' }).getByRole('listitem').first();
  await expect(item.getByRole('button', { name: /^Pause / })).toBeVisible();
  await expect(item.getByRole('button', { name: /^Test page on / })).toBeVisible();
  await expect(item.locator('.readiness')).toHaveText(/ready|printing|paused|stopped|not reachable/);
  for (const other of ['connection', 'packing', 'support'] as const) {
    await expect(page.locator(`#settings-panel-${other} .printers-editor, #settings-panel-${other} .printer-pause-list`)).toHaveCount(0);
  }
  await page.getByRole('checkbox', { name: 'Waybill' }).check();

  // A field in Connection and one in Packing, changed, then one Save.
  await page.getByRole('tab', { name: 'Connection and intake' }).click();
  await page.getByLabel('Poll interval (seconds, 0 = off)').fill('37');
  await page.getByRole('tab', { name: 'Packing' }).click();
  await page.getByRole('radio', { name: /No pickup/ }).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Packing saved' })).toContainText('no pickup');
  const saved = await api.getSettings({});
  expect(saved.intake.pollIntervalSeconds).toBe(37);
  expect(saved.routing.autoPrint).toContain('waybill');
  expect((await api.getPackSettings({})).pickup).toBe('without');
});
