/**
 * The parts a newcomer reads first, in English, Swedish and Finnish at 800x600 and 1280x800,
 * against the real headless agent and sandbox: Settings → Printers as one list with headings
 * beside their content and no empty state that contradicts it; the pack form with its numbers
 * in the language's digits, nothing cut (box, placeholders) and "Book shipment…" in sight at
 * 1280x800; a lone station with no Site tab, and a site's Site tab with its relay apart, its
 * printers named as everywhere else and no name or reference broken inside. Screenshots of
 * each in test-results/screens/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ServiceClient } from '../../src/main/api/client';
import { CATALOGS, LANGUAGE_STORAGE_KEY, type Language } from '../../src/renderer/i18n';
import { SCREENS_DIR, expect, stationTest, test } from './fixtures';
import { startTestSite } from '../support/site';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;
const LANGUAGES: readonly Language[] = ['en', 'sv', 'fi'];

const SENDER = {
  name: 'Acme AB',
  address: { address_line_1: 'Packgatan 1', postal_code: '41101', city: 'Göteborg', country_code: 'SE' },
  contact: { name: 'Ann Sender', email: 'ann@acme.example' },
};
const RECEIVER = {
  name: 'Nordic Retail AB',
  address: { address_line_1: 'Drottninggatan 10', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
  contact: { name: 'Rita Receiver', email: 'rita@nordic.example' },
};

async function openIn(page: Page, url: string, language: Language): Promise<void> {
  await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, language] as const);
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('lang', new RegExp(`^${language}`));
}

async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** Controls whose text (or placeholder) is wider than the room they give it: cut off. */
async function cutControls(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLInputElement | HTMLSelectElement>(selector))) {
      if (el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.text ?? '') : el.value || el.placeholder;
      // A select's arrow takes about 24 px beside its padding.
      const room =
        el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - (el instanceof HTMLSelectElement ? 24 : 0);
      const width = canvas.measureText(text).width;
      if (width > room + 1) out.push(`${el.tagName.toLowerCase()} "${text}": ${Math.round(width)} px in ${Math.round(room)} px`);
    }
    return out;
  }, selector);
}

/** The distance from an element's bottom to the next one's top: a heading sits with its content. */
async function gapBelow(page: Page, heading: string, content: string): Promise<number> {
  return page.evaluate(
    ([heading, content]) => {
      const a = document.querySelector(heading)!.getBoundingClientRect();
      const b = document.querySelector(content)!.getBoundingClientRect();
      return b.top - a.bottom;
    },
    [heading, content] as const,
  );
}

for (const language of LANGUAGES) {
  const words = CATALOGS[language];
  const sub = (key: keyof typeof words, params: Record<string, string | number>): string =>
    Object.entries(params).reduce<string>((text, [k, v]) => text.replace(`{${k}}`, String(v)), words[key]);

  stationTest(
    `${language}: a lone station: no Site tab, Settings → Printers as one list, the pack form fits`,
    async ({ page, station }) => {
      const client = new ServiceClient({ baseUrl: station.sandbox.baseUrl, apiKey: station.sandbox.apiKey });
      await client.createShipment({
        enable_bookable_validation: false,
        reference_id: 'DRAFT-FIT',
        from: SENDER,
        to: RECEIVER,
        packages: [{ quantity: 1, type: 'PACKAGE', description: 'Mugs', weight_kg: 1.5, width_cm: 20, height_cm: 20, depth_cm: 30 }],
      });
      await client.close();
      await openIn(page, station.url, language);

      // No site: four tabs, no Site tab, the hint names Alt+1…4, Settings has one line on joining a site.
      const tabs = page.locator('nav.tabs').getByRole('tab');
      await expect(tabs).toHaveText([words['tab.scan'], words['tab.queue'], words['tab.settings'], words['tab.endOfDay']]);
      await expect(page.getByRole('tab', { name: words['tab.site'] })).toHaveCount(0);
      await expect(page.locator('#scan-hint')).toContainText('Alt+1…4');
      await expect(page.locator('#scan-hint')).not.toContainText('Alt+1…5');

      for (const size of SIZES) {
        const at = `${size.width}x${size.height}`;
        await page.setViewportSize(size);

        // Settings → Printers: the configured folder printer is one row with role, readiness, Test page, Pause;
        // the printers form says nothing that contradicts it.
        await page.getByRole('tab', { name: words['tab.settings'] }).click();
        await expect(page.locator('#view-settings .site-join')).toHaveText(words['site.notInSite']);
        await page.getByRole('tab', { name: words['settings.tab.printers'], exact: true }).click();
        const list = page.getByRole('list', { name: words['pauses.title'] });
        await expect(list.getByRole('listitem')).toHaveCount(1);
        const row = list.getByRole('listitem').first();
        await expect(row).toContainText(words['printerKind.folder']);
        await expect(row).not.toContainText('folder:');
        await expect(row).toContainText(words['pauses.role.label']);
        await expect(row.locator('.readiness')).toBeVisible();
        await expect(row.getByRole('button', { name: new RegExp(words['pauses.testPage']) })).toBeVisible();
        await expect(row.getByRole('button', { name: new RegExp(words['action.pause']) })).toBeVisible();
        await expect(page.locator('.printers-editor')).toContainText(words['pf.noPrinters']);
        await expect(page.locator('.printers-editor')).not.toContainText('No printers listed');
        // Each heading directly above its content, in the same column.
        expect(await gapBelow(page, '.printer-pause-list h3', '.printer-pauses'), `${at}: configured printers heading`).toBeLessThan(24);
        expect(await gapBelow(page, '#pf-title', '.printers-editor .pf-group'), `${at}: printers form heading`).toBeLessThan(24);
        expect(await scrollsSideways(page), `${at}: Settings → Printers scrolls sideways`).toBe(false);
        await page.screenshot({ path: join(SCREENS_DIR, `fit-printers-${language}-${size.width}.png`), fullPage: true });

        // The pack form: "Book shipment…" in sight at 1280x800 before anything is opened.
        await page.getByRole('tab', { name: words['tab.scan'] }).click();
        const scan = page.getByRole('textbox', { name: words['scan.label'] });
        // Typed as a person types (slower than a scanner's burst): Enter looks it up.
        await scan.pressSequentially('DRAFT-FIT', { delay: 100 });
        await scan.press('Enter');
        // Found by its reference: said once ("Found “DRAFT-FIT” by reference"), not echoed, and the
        // code whole on a narrow window (a non-breaking hyphen: never "DRAFT-" and "FIT" on two lines).
        await expect(page.locator('#scan-feedback [role=status]')).toHaveText(
          sub('scan.found', { scanned: 'DRAFT\u2011FIT', matchedBy: words['scan.by.reference'] }),
        );
        // A draft has one badge.
        await expect(page.locator('.shipment-head .badge')).toHaveText([words['stage.draft']]);
        const open = page.getByRole('button', { name: words['packPanel.open'] });
        if (size.width === 1280) await expect(open).toBeInViewport({ ratio: 1 });
        await open.click();
        const weight = page.getByRole('textbox', { name: sub('parcels.fieldOfLine', { field: words['parcels.weight'], n: 1 }) });
        // The draft's 1.5 kg in the language's digits, as the summary beside it says.
        await expect(weight).toHaveValue(language === 'en' ? '1.5' : '1,5');
        await expect(page.locator('.pack-info')).toContainText(language === 'en' ? '1.5 kg' : '1,5 kg');
        const box = page.getByRole('combobox', { name: sub('parcels.boxOfLine', { n: 1 }) });
        await box.selectOption({ index: 1 });
        // Either decimal sign is taken: the other one than the language writes.
        await weight.fill(language === 'en' ? '1,5' : '1.5');
        await page.getByRole('button', { name: words['parcels.save'] }).click();
        await expect(page.getByRole('radio').first()).toBeVisible();
        expect(
          await cutControls(page, '.pack-parcels select, .pack-parcels input, .pack-notes input'),
          `${at}: cut in the pack form`,
        ).toEqual([]);
        expect(await scrollsSideways(page), `${at}: the pack form scrolls sideways`).toBe(false);
        await page.screenshot({ path: join(SCREENS_DIR, `fit-pack-${language}-${size.width}.png`), fullPage: true });
      }
    },
  );
}

test('a site: the Site tab in en, sv and fi at both sizes lists the relay apart, names printers as everywhere, breaks no name', async ({
  page,
}) => {
  test.setTimeout(180_000);
  if (!existsSync('out/renderer/index.html')) throw new Error('Build the UI first: npm run build:ui');
  const site = await startTestSite();
  try {
    const one = site.station('Packing 1', { ui: true });
    const agent = await one.start();
    await site.station('Packing 2 at the north loading dock').start();
    await site.startRelay({ defaultStations: ['Packing 1'] });
    await agent.agent.api.lookup({ scan: 'DEMO-0017' });
    await site.sandbox.bookShipment({ reference_id: 'DEMO-0017' });

    for (const language of LANGUAGES) {
      const words = CATALOGS[language];
      await openIn(page, agent.uiUrl!, language);
      await expect(page.locator('#scan-hint')).toContainText('Alt+1…5');
      await page.getByRole('tab', { name: words['tab.site'] }).click();
      const stations = page.getByRole('table', { name: words['site.stations'] });
      await expect(stations.getByRole('row').filter({ hasText: 'Packing 1' })).toContainText(words['site.online']);
      await expect(page.getByRole('list', { name: words['site.decisions'] })).toContainText('DEMO-0017', { timeout: 15_000 });
      // The relay apart from the stations, never a row of the stations' table.
      const relays = page.getByRole('list', { name: words['site.relays'] });
      await expect(relays.getByRole('listitem')).toHaveCount(1);
      await expect(relays).toContainText('relay@');
      await expect(stations.getByRole('row').filter({ hasText: 'relay@' })).toHaveCount(0);
      // Printers named as docs/OPERATIONS.md says: no `folder:` URIs.
      await expect(stations).toContainText(words['printerKind.folder']);
      await expect(page.locator('#view-site')).not.toContainText('folder:');
      for (const size of SIZES) {
        await page.setViewportSize(size);
        const at = `${language} ${size.width}x${size.height}`;
        // Every name and reference on one line: ended by an ellipsis when its cell is narrow, never broken inside.
        const broken = await page.evaluate(() =>
          Array.from(document.querySelectorAll<HTMLElement>('#view-site .token, #view-site .token-inline'))
            .filter(
              (el) =>
                el.getClientRects().length > 1 || el.getBoundingClientRect().height > parseFloat(getComputedStyle(el).lineHeight) * 1.5,
            )
            .map((el) => el.textContent),
        );
        expect(broken, `${at}: broken mid-token`).toEqual([]);
        expect(await scrollsSideways(page), `${at}: the Site tab scrolls sideways`).toBe(false);
        await page.screenshot({ path: join(SCREENS_DIR, `fit-site-${language}-${size.width}.png`), fullPage: true });
      }
    }
  } finally {
    await site.close();
  }
});
