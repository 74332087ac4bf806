/**
 * Every word in the UI language: each view, in each non-English language, with real data on it
 * (a booked shipment scanned, a draft with its rates, jobs in the queue, the printers form, End of
 * day), may show no English word of the UI. An "English word" is a word of the English catalog
 * that no other catalog of that language uses (so `PDF`, `Tab`, `Print Station` are fine). Text
 * the service wrote (carrier names, product names, addresses) is shown as received and marked
 * (`lang="en"` or `data-verbatim`): the check skips it.
 */
import type { Page } from '@playwright/test';
import { ServiceClient } from '../../src/main/api/client';
import { PRINTER_KINDS } from '../../src/shared/printer-kinds';
import { CATALOGS, LANGUAGE_STORAGE_KEY, type Language } from '../../src/renderer/i18n';
import { expect, stationTest as test } from './fixtures';
import type { Station } from '../support/station';

const SENDER = {
  name: 'Acme AB',
  address: { address_line_1: 'Packgatan 1', postal_code: '41101', city: 'Göteborg', country_code: 'SE' },
  contact: { name: 'Ann Sender', email: 'ann@acme.example' },
};
const RECEIVER = {
  name: 'Nilsson AB',
  address: { address_line_1: 'Drottninggatan 10', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
  contact: { name: 'Rita Nilsson', email: 'rita@nilsson.example' },
};

/** Words of a catalog: letters only, lower case, three letters or more, parameters left out. */
function wordsOf(text: string): string[] {
  return (
    text
      .replace(/\{[^{}]*\}/g, ' ')
      .toLowerCase()
      .match(/\p{L}{3,}/gu) ?? []
  );
}

function englishOnlyWords(language: Language): Set<string> {
  const own = new Set(Object.values(CATALOGS[language]).flatMap(wordsOf));
  return new Set(
    Object.values(CATALOGS.en)
      .flatMap(wordsOf)
      .filter((w) => !own.has(w)),
  );
}

/** Visible UI text (text nodes, labels, titles, placeholders), service text skipped. */
async function uiTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const skip = (el: Element | null): boolean => el?.closest('[lang^="en"], [data-verbatim], script, style, noscript') != null;
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || skip(parent) || !node.textContent?.trim()) continue;
      if (parent.closest('[hidden]') || parent.getClientRects().length === 0) {
        // Hidden text is no UI word, but the options of a select are read when it opens.
        if (!parent.closest('select')) continue;
      }
      texts.push(node.textContent.trim());
    }
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]'))) {
      if (skip(el) || el.closest('[hidden]')) continue;
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = el.getAttribute(name);
        if (value?.trim()) texts.push(value.trim());
      }
    }
    return texts;
  });
}

/**
 * Names that are data, not UI words, wherever they show (inside an option or a sentence too):
 * the team, printers, favorites, rules, carriers and products, as the agent has them.
 */
async function dataNames(station: Station): Promise<string[]> {
  const api = station.agent.agent.api;
  const status = await api.getStatus({});
  const printers = await api.listPrinters({});
  const presets = await api.packPresets({});
  const rules = await api.listShippingRules({});
  const names = [
    status.team,
    ...printers.filter((p) => p.name !== p.uri).map((p) => p.name),
    ...presets.map((p) => p.name),
    ...rules.map((r) => r.name),
  ];
  return names.filter((n): n is string => typeof n === 'string' && n.length > 0).sort((a, b) => b.length - a.length);
}

/** Words of the matched cells that the layout broke across lines (one word, several line boxes). */
async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const broken: string[] = [];
    for (const cell of Array.from(document.querySelectorAll(sel))) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  }, selector);
}

async function englishLeft(page: Page, english: Set<string>, names: readonly string[], where: string): Promise<string[]> {
  const found: string[] = [];
  for (const raw of await uiTexts(page)) {
    // Data is no UI word: names, file paths, ids.
    let text = raw;
    for (const name of names) text = text.replaceAll(name, ' ');
    // A printer URI's form (`folder:MAPP`) is syntax typed as is: its scheme is no UI word.
    text = text.replace(new RegExp(`\\b(?:${PRINTER_KINDS.join('|')}):(?=\\p{Lu})`, 'gu'), ' ');
    text = text.replace(/(?:\.{0,2}\/[^\s,)]*)+/g, ' ').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ' ');
    const words = wordsOf(text).filter((w) => english.has(w));
    if (words.length > 0) found.push(`${where}: “${text}” (${words.join(', ')})`);
  }
  return found;
}

for (const language of ['sv', 'fi', 'da', 'nb'] as const) {
  test(`${language}: no English UI word is left on any view`, async ({ page, station }) => {
    const words = CATALOGS[language];
    const english = englishOnlyWords(language);
    const booked = await station.book({ reference_id: 'ABC-1001' });
    const client = new ServiceClient({ baseUrl: station.sandbox.baseUrl, apiKey: station.sandbox.apiKey });
    await client.createShipment({
      enable_bookable_validation: false,
      from: SENDER,
      to: RECEIVER,
      reference_id: 'ABC-2002',
      packages: [{ quantity: 1, type: 'PACKAGE', description: 'Muggar' }],
    });
    await client.close();

    await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, language] as const);
    await page.goto(station.url);
    const scan = page.getByRole('textbox', { name: words['scan.label'] });
    const left: string[] = [];
    const names = await dataNames(station);

    await scan.fill(booked.trackingId);
    await scan.press('Enter');
    await expect(page.getByRole('article')).toBeVisible();
    left.push(...(await englishLeft(page, english, names, 'Scan, booked')));

    await scan.fill('ABC-2002');
    await scan.press('Enter');
    await expect(page.getByRole('article', { name: /ABC-2002/ })).toBeVisible();
    left.push(...(await englishLeft(page, english, names, 'Scan, draft')));
    await expect(page.getByRole('button', { name: words['packPanel.open'] })).toBeVisible();
    await page.keyboard.press('Alt+b');
    await expect(
      page.getByRole('textbox', { name: words['parcels.fieldOfLine'].replace('{field}', words['parcels.width']).replace('{n}', '1') }),
    ).toBeFocused();
    for (const value of ['20', '20', '30']) {
      await page.keyboard.type(value);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type('1,5');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('radio').first()).toBeVisible();
    left.push(...(await englishLeft(page, english, names, 'Scan, pack and ship')));

    for (const tab of ['tab.queue', 'tab.settings', 'tab.endOfDay'] as const) {
      await page.getByRole('tab', { name: words[tab] }).click();
      await expect(page.locator('.view[role=tabpanel]:not([hidden])')).toBeVisible();
      if (tab === 'tab.settings') {
        // Every section of Settings, the printers one with a printer and a rule row added.
        for (const section of ['connection', 'packing', 'scale', 'support', 'printers'] as const) {
          await page.getByRole('tab', { name: words[`settings.tab.${section}`] }).click();
          if (section === 'printers') {
            await page.getByRole('button', { name: words['pf.addPrinter'] }).click();
            await page.getByRole('button', { name: words['pf.addRule'] }).click();
          }
          await page.waitForTimeout(section === 'printers' ? 1000 : 300);
          left.push(...(await englishLeft(page, english, names, `${words[tab]} → ${words[`settings.tab.${section}`]}`)));
        }
        continue;
      }
      await page.waitForTimeout(1000);
      left.push(...(await englishLeft(page, english, names, words[tab])));
    }
    expect(left).toEqual([]);

    // At 800 px no table header and no tracking number breaks inside a word.
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('tab', { name: words['tab.endOfDay'] }).click();
    await expect(page.locator('.eod-table td.number').first()).toBeVisible();
    expect(await brokenWords(page, '.view[role=tabpanel]:not([hidden]) th, .view[role=tabpanel]:not([hidden]) td.number')).toEqual([]);
  });
}
