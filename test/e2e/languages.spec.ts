/**
 * Every language in real Chromium: the browser's language picks the UI's, Settings changes it
 * at run time, and each view in each language fits 800x600 without sideways scrolling and has
 * no serious or critical axe violation at 800x600 and 1280x800 (longer words must not break it).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { CATALOGS, LANGUAGE_STORAGE_KEY } from '../../src/renderer/i18n';
import { expect, stationTest as test } from './fixtures';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

async function blockingViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const language of ['sv', 'da', 'nb', 'fi'] as const) {
  const words = CATALOGS[language];
  test(`${language}: every view in ${language} fits 800x600 and has no serious or critical axe violation`, async ({ page, station }) => {
    await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, language] as const);
    await page.goto(station.url);
    await expect(page.getByRole('tab', { name: words['tab.scan'] })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', new RegExp(`^${language}`));
    await expect(page.getByRole('textbox', { name: words['scan.label'] })).toBeFocused();
    const tabs = page.locator('nav.tabs').getByRole('tab');
    expect(await tabs.allTextContents()).toEqual(expect.arrayContaining([words['tab.scan'], words['tab.queue'], words['tab.settings']]));
    // The printers form with a printer and a rule row and its JSON open: the longest words of Settings.
    await page.getByRole('tab', { name: words['tab.settings'] }).click();
    await page.getByRole('tab', { name: words['settings.tab.printers'] }).click();
    await page.getByRole('button', { name: words['pf.addPrinter'] }).click();
    await page.getByRole('button', { name: words['pf.addRule'] }).click();
    await page.getByText(words['pf.json']).click();
    await expect(page.getByRole('group', { name: words['pf.ruleN'].replace('{n}', '1') })).toBeVisible();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (let i = 0; i < (await tabs.count()); i++) {
        await tabs.nth(i).click();
        await expect(page.locator('.view[role=tabpanel]:not([hidden])')).toBeVisible();
        const at = `${await tabs.nth(i).textContent()} at ${size.width}x${size.height}`;
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${at} scrolls sideways`).toBe(true);
        expect(await blockingViolations(page), at).toEqual([]);
      }
    }
  });
}

test('the language chosen in Settings applies at once and stays after a reload', async ({ page, station }) => {
  await page.goto(station.url);
  await expect(page.getByRole('tab', { name: 'Scan' })).toBeVisible();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Language and support' }).click();
  // As a keyboard user does: focus the list, then choose.
  await page.getByLabel('Language of this window').focus();
  await page.getByLabel('Language of this window').selectOption('sv');
  await expect(page.getByRole('tab', { name: 'Inställningar' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Språk i det här fönstret')).toBeFocused();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Skanna' })).toBeVisible();
  await page.getByRole('tab', { name: 'Inställningar' }).click();
  await page.getByRole('tab', { name: 'Språk och support' }).click();
  await page.getByLabel('Språk i det här fönstret').selectOption('');
  await expect(page.getByRole('tab', { name: 'Scan' })).toBeVisible();
});
