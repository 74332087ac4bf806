/**
 * Settings → Printers and routing as a form, against the real headless agent and sandbox:
 * a team lead adds printers and a rule with the keyboard alone, saves, reloads and finds them;
 * the agent's refusal shows beside the field it names; the form fits 800x600 and 1280x800
 * with no serious or critical axe violation (screenshots in test-results/screens/).
 */
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { SCREENS_DIR, expect, stationTest as test } from './fixtures';

async function openSettings(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Printers', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Printers and routing rules' })).toBeVisible();
}

/** Presses Tab until the element with this accessible name has the focus (at most 40 times). */
async function tabTo(page: Page, name: string | RegExp): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
      return (label ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
    });
    if (typeof name === 'string' ? focused === name : name.test(focused)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

test('a second printer and a rule, added by keyboard, are saved and there after a reload', async ({ page, station, snap }) => {
  const sheets = `folder:${join(station.dir, 'sheets')}`;
  await openSettings(page, station.url);
  const form = page.locator('.printers-editor');
  // No printer named yet: the form says the label and document printers print everything (as the list beside it shows).
  await expect(form.getByText('None yet: the label printer and the document printer print everything.')).toBeVisible();

  // Printer 1: the station's own folder printer, chosen from the discovered list.
  await form.getByRole('button', { name: 'Add a printer' }).focus();
  await page.keyboard.press('Enter');
  const first = form.getByRole('group', { name: /^Printer 1/ });
  await expect(first.getByLabel('Name')).toBeFocused();
  await tabTo(page, 'Printer');
  await page.keyboard.press('ArrowDown'); // from "Choose a printer…" to the first printer found
  await expect(first.getByLabel('Name')).toHaveValue(/.+/); // filled in from the printer chosen
  await page.keyboard.press('Shift+Tab');
  await expect(first.getByLabel('Name')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Labels');
  await expect(first.getByLabel('Printer', { exact: true })).toHaveValue(`folder:${station.printsDir}`);
  await expect(first.getByLabel('Paper')).toHaveValue('label');

  // Printer 2: a folder typed under Advanced, A4 sheets, two labels a sheet.
  await tabTo(page, 'Add a printer');
  await page.keyboard.press('Enter');
  const second = form.getByRole('group', { name: /^Printer 2/ });
  await expect(second.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Sheets');
  await tabTo(page, 'Advanced: printer address');
  await page.keyboard.press('Enter');
  await tabTo(page, 'Printer URI');
  await page.keyboard.type(sheets);
  await tabTo(page, 'Paper');
  await page.keyboard.type('A4'); // a select jumps to the option its typed letters start
  await expect(second.getByLabel('Paper')).toHaveValue('a4');
  await tabTo(page, 'Labels on a sheet');
  await page.keyboard.type('Two');
  await expect(second.getByLabel('Labels on a sheet')).toHaveValue('1x2');
  await expect(second.getByText('not found on this computer')).toBeVisible();

  // A rule: waybills of Bring print on the sheets.
  await tabTo(page, 'Add a rule');
  await page.keyboard.press('Enter');
  const rule = form.getByRole('group', { name: 'Rule 1' });
  await expect(rule.getByLabel('Document')).toBeFocused();
  await page.keyboard.type('Waybill');
  await tabTo(page, 'Carrier');
  await page.keyboard.type('Bring');
  await tabTo(page, 'Print on');
  await page.keyboard.type('Sheets');
  await expect(rule.getByLabel('Print on')).toHaveValue('Sheets');
  await expect(form.getByText('Unsaved changes')).toBeVisible();
  await expect(form.getByText('the first rule that matches a document decides its printer')).toBeVisible();
  await snap('printers-form-filled');

  await tabTo(page, 'Save settings');
  await page.keyboard.press('Enter');
  await expect(form.getByRole('status').filter({ hasText: 'Saved: 2 printers, 1 rule.' })).toBeVisible();
  await expect(form.getByText('Unsaved changes')).toHaveCount(0);

  const routing = (await station.agent.agent.api.getSettings({})).routing;
  expect(routing.printers).toEqual([
    { name: 'Labels', uri: `folder:${station.printsDir}`, media: 'label' },
    { name: 'Sheets', uri: sheets, media: 'a4', layout: '1x2' },
  ]);
  expect(routing.rules).toEqual([{ documentTypes: ['waybill'], carriers: ['bring'], printer: 'Sheets' }]);

  await openSettings(page, station.url);
  await expect(form.getByRole('group', { name: 'Printer 2: Sheets' }).getByLabel('Labels on a sheet')).toHaveValue('1x2');
  await expect(form.getByRole('group', { name: 'Printer 1: Labels' }).getByLabel('Printer', { exact: true })).toHaveValue(
    `folder:${station.printsDir}`,
  );
  await expect(form.getByRole('group', { name: 'Rule 1' }).getByLabel('Carrier')).toHaveValue('["bring"]');
  await expect(form.getByRole('group', { name: 'Rule 1' }).getByLabel('Print on')).toHaveValue('Sheets');
  await form.getByText('Advanced: edit as JSON').click();
  const json = JSON.parse(await form.getByRole('textbox', { name: 'Printers, rules and defaults (JSON)' }).inputValue());
  expect(json.rules).toEqual(routing.rules);
});

test('the agent refusing a printer URI shows beside that URI', async ({ page, station }) => {
  await openSettings(page, station.url);
  const form = page.locator('.printers-editor');
  await form.getByRole('button', { name: 'Add a printer' }).click();
  const row = form.getByRole('group', { name: /^Printer 1/ });
  await row.getByLabel('Name').fill('Zebra');
  await row.getByText('Advanced: printer address').click();
  await row.getByLabel('Printer URI').fill('lpr:zebra');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Not saved: the station refused a field' })).toBeVisible();
  const uri = row.getByLabel('Printer URI');
  await expect(uri).toBeFocused();
  await expect(uri).toHaveAttribute('aria-invalid', 'true');
  await expect(uri).toHaveAccessibleDescription(
    /Setting "routing\.printers\.0\.uri" is invalid: Printer "lpr:zebra" is not a valid printer URI/,
  );
  expect((await station.agent.agent.api.getSettings({})).routing.printers ?? []).toEqual([]);
});

test('the printers form fits 800x600 and 1280x800 with no serious or critical axe violation', async ({ page, station }) => {
  await station.agent.agent.api.saveSettings({
    routing: {
      printers: [
        { name: 'Zebra bench 1', uri: `folder:${station.printsDir}`, media: 'label', fallback: { printer: 'Office', auto: true } },
        { name: 'Office', uri: `folder:${join(station.dir, 'office')}`, media: 'a4', layout: '2x2' },
      ],
      rules: [
        { documentTypes: ['label'], carriers: ['dhl_express'], printer: 'Zebra bench 1' },
        { documentTypes: [], carriers: ['bring'], printer: 'Office' },
      ],
      defaults: { customsinvoice: 'Office' },
    },
  });
  await openSettings(page, station.url);
  const form = page.locator('.printers-editor');
  await expect(form.getByRole('group', { name: 'Rule 2' }).getByLabel('Carrier')).toHaveValue('["bring"]');
  // A row with problems on screen, and both Advanced parts open.
  await form.getByRole('button', { name: 'Add a rule' }).click();
  await form.getByText('Advanced: edit as JSON').click();
  await form
    .getByRole('group', { name: /^Printer 2/ })
    .getByText('Advanced: printer address')
    .click();
  for (const size of [
    { width: 800, height: 600 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    const at = `${size.width}x${size.height}`;
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${at} scrolls sideways`).toBe(true);
    // From 1100 px the form's parts flow in the Printers section's columns (the form has no box
    // of its own there): no control may stick out of that section.
    const outside = await form.evaluate((el) => {
      const box = el.closest('#settings-panel-printers')!.getBoundingClientRect();
      return Array.from(el.querySelectorAll<HTMLElement>('input, select, textarea, button, label'))
        .filter((c) => {
          const r = c.getBoundingClientRect();
          return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
        })
        .map((c) => c.id || c.textContent);
    });
    expect(outside, `controls outside the Printers section at ${at}`).toEqual([]);
    const { violations } = await new AxeBuilder({ page })
      .include('.printers-editor')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      at,
    ).toEqual([]);
    await page.locator('#settings-panel-printers').screenshot({ path: join(SCREENS_DIR, `printers-form-${at}.png`) });
    await form.locator('.pf-group').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENS_DIR, `printers-form-window-${at}.png`) });
  }
});
