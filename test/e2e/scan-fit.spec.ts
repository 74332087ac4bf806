/**
 * The scan view as a packer meets it, in English, Swedish and Finnish at 800x600 and 1280x800,
 * against the real headless agent and sandbox: after a scan that finds a booked shipment and a
 * reprint (so the state bar's "Last print" carries a date and the picture of the label that
 * went out shows), every control of the scan box and of the found shipment's actions lies
 * whole inside the window without scrolling, and nothing covers it: a click at its centre and
 * at its bottom edge reaches it, not the state bar or the picture. The state bar stays one
 * line, and the picture covers no control. Screenshots of each in test-results/screens/.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CATALOGS, LANGUAGE_STORAGE_KEY, type Language } from '../../src/renderer/i18n';
import { expect, SCREENS_DIR, stationTest as test } from './fixtures';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;
const LANGUAGES: readonly Language[] = ['en', 'sv', 'fi'];

/**
 * What a packer works with in the scan view: the scan box and its button, and every action of
 * the found shipment (Reprint with its choices, the documents' button, Cancel shipment). The
 * tracking timeline is reading matter (its carrier links lead away): it may continue below.
 */
const CONTROLS = [
  '#view-scan .scan-form :is(input, button)',
  '#view-scan .shipment :is(input, select, button, textarea, a[href], summary):not(.timeline *)',
].join(', ');

interface Trouble {
  readonly control: string;
  readonly problem: string;
}

/** Each control outside the window, or covered at its centre or its bottom edge (what is there instead). */
async function troubles(page: Page): Promise<{ checked: number; troubles: Trouble[] }> {
  return page.evaluate((selector) => {
    const name = (el: Element): string =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).replace(/ +/g, '.')}` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    const out: Trouble[] = [];
    const controls = Array.from(document.querySelectorAll(selector)).filter((el) => el.getClientRects().length > 0);
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      const inside = box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth + 0.5 && box.bottom <= window.innerHeight + 0.5;
      if (!inside) {
        out.push({
          control: name(control),
          problem: `box ${Math.round(box.left)},${Math.round(box.top)}–${Math.round(box.right)},${Math.round(box.bottom)} outside ${window.innerWidth}x${window.innerHeight}`,
        });
        continue;
      }
      const x = box.left + box.width / 2;
      for (const [where, y] of [
        ['centre', box.top + box.height / 2],
        ['bottom edge', box.bottom - 1],
      ] as const) {
        const hit = document.elementFromPoint(x, y);
        if (hit === null || !control.contains(hit)) {
          out.push({ control: name(control), problem: `${where} covered by ${hit ? name(hit) : 'nothing'}` });
        }
      }
    }
    return { checked: controls.length, troubles: out };
  }, CONTROLS);
}

/** Controls the label's picture lies over, however little. */
async function underPicture(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const picture = document.querySelector('.label-preview')!.getBoundingClientRect();
    return Array.from(document.querySelectorAll(selector))
      .filter((control) => {
        const box = control.getBoundingClientRect();
        return (
          box.width > 0 && box.left < picture.right && picture.left < box.right && box.top < picture.bottom && picture.top < box.bottom
        );
      })
      .map((control) => control.id || (control.getAttribute('aria-label') ?? control.textContent ?? '').trim());
  }, CONTROLS);
}

/** The state bar's items in how many rows (one: nothing wraps onto a second line). */
async function barRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const items = Array.from(document.querySelectorAll('.status-bar .status-item'));
    return new Set(items.map((item) => Math.round(item.getBoundingClientRect().top))).size;
  });
}

for (const language of LANGUAGES) {
  const words = CATALOGS[language];

  test(`${language}: after a scan and a print every control of the scan view is whole in the window at 800x600 and 1280x800`, async ({
    page,
    station,
    snap,
  }) => {
    await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, language] as const);
    await page.setViewportSize(SIZES[0]);
    await page.goto(station.url);
    await expect(page.locator('html')).toHaveAttribute('lang', new RegExp(`^${language}`));

    // Booked: its label prints by itself; scanned: the shipment; reprinted: the label again.
    const booked = await station.book({ reference_id: `FIT-${language.toUpperCase()}-1` });
    const scan = page.getByRole('textbox', { name: words['scan.label'] });
    await scan.fill(booked.trackingId);
    await scan.press('Enter');
    await expect(page.getByRole('list', { name: words['names.trackingEvents'] })).toBeVisible();
    const reprint = page.getByRole('button', {
      name: words['result.reprintDocument'].replace('{document}', words['document.label'].toLowerCase()),
      exact: true,
    });
    await reprint.click();
    await expect(page.locator('.reprint-status .job-line')).toHaveCount(1);
    await expect(page.locator('.printed-notice')).not.toBeEmpty();
    const picture = page.getByRole('img', { name: words['labelPreview.alt'].replace('{name}', booked.referenceId) });
    await expect(picture).toBeVisible();
    const bar = page.getByRole('contentinfo', { name: words['status.aria'] });
    const lastPrint = bar.locator('.status-item', { hasText: words['status.lastPrint'] });
    await expect(lastPrint).toContainText(/\d/);
    await expect(scan).toBeFocused();

    for (const size of SIZES) {
      const at = `${size.width}x${size.height}`;
      await page.setViewportSize(size);
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(`scan-fit-${language}-${at}`);
      await page.screenshot({ path: join(SCREENS_DIR, `scan-fit-${language}-${at}-window.png`) });
      const found = await troubles(page);
      // The scan box, Look up, the document / layout / printer choices, Reprint, the documents'
      // button and Cancel shipment at the least.
      expect(found.checked, `${language} at ${at}`).toBeGreaterThanOrEqual(8);
      expect(found.troubles, `${language} at ${at}`).toEqual([]);
      expect(await underPicture(page), `${language} at ${at}: controls under the label's picture`).toEqual([]);
      await expect(picture, `${language} at ${at}`).toBeInViewport({ ratio: 1 });
      expect(await barRows(page), `${language} at ${at}: the state bar's lines`).toBe(1);
    }
  });
}
