/**
 * Pack and ship in Chromium against the real headless agent and the sandbox: a draft
 * finished and booked from one scan by keyboard alone (its label printed once, the
 * booking's webhook printing nothing more), errors next to their fields with the
 * service's request id, and a void.
 */
import { existsSync } from 'node:fs';
import { ServiceClient } from '../../src/main/api/client';
import type { ShipmentInput } from '../../src/main/api/schemas';
import { join } from 'node:path';
import { SCREENS_DIR, expect, test as base } from './fixtures';
import { pdfsIn, startStation, type Station } from '../support/station';

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

/** The sandbox's clock: tests move it to let booking tokens expire. */
let clockMs = Date.now();

const test = base.extend<{ station: Station; draft: (body: ShipmentInput) => Promise<string> }>({
  // eslint-disable-next-line no-empty-pattern
  station: async ({}, use, testInfo) => {
    if (!existsSync('out/renderer/index.html')) throw new Error('Build the UI first: npm run build:ui');
    clockMs = Date.now();
    // Webhooks and a poll every second: neither may print a booking made here a second time.
    const station = await startStation({ now: () => new Date(clockMs) }, 1);
    try {
      await use(station);
    } finally {
      if (existsSync(station.logFile)) await testInfo.attach('agent.log', { path: station.logFile, contentType: 'text/plain' });
      await station.close();
    }
  },
  /** A draft as an order system leaves it (no bookable validation): the station finishes it. */
  draft: async ({ station }, use) => {
    const client = new ServiceClient({ baseUrl: station.sandbox.baseUrl, apiKey: station.sandbox.apiKey });
    await use(async (body) => (await client.createShipment({ enable_bookable_validation: false, from: SENDER, ...body })).id);
    await client.close();
  },
});

const labelsOf = async (station: Station, shipmentId: string): Promise<string[]> =>
  (await pdfsIn(station.printsDir)).filter((f) => f.startsWith(shipmentId));

test('a domestic draft is finished, booked and printed once from one scan, by keyboard alone', async ({ page, station, draft, snap }) => {
  const id = await draft({ reference_id: 'DRAFT-0001', to: RECEIVER, packages: [{ quantity: 1, type: 'PACKAGE', description: 'Mugs' }] });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill('DRAFT-0001');
  await scan.press('Enter');

  const article = page.getByRole('article', { name: /DRAFT-0001/ });
  await expect(article.getByText('Not booked', { exact: true })).toBeVisible();
  const missing = page.getByRole('list', { name: 'Missing for booking' });
  await expect(missing).toContainText('Weight (kg), parcel line 1: is missing');
  await expect(page.getByRole('button', { name: /Book/ }).first()).toBeVisible();
  await expect(scan).toBeFocused();
  await snap('pack-draft-scanned');

  // Alt+B opens the flow with the caret in the first empty field of the parcel.
  await page.keyboard.press('Alt+b');
  await expect(page.getByRole('textbox', { name: 'Width (cm), parcel line 1' })).toBeFocused();
  await page.keyboard.type('20');
  await page.keyboard.press('Tab');
  await page.keyboard.type('20');
  await page.keyboard.press('Tab');
  await page.keyboard.type('30');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Weight (kg), parcel line 1' })).toBeFocused();
  await page.keyboard.type('1,5');
  await page.keyboard.press('Enter');

  const rates = page.getByRole('radiogroup', { name: 'Rates' });
  const options = rates.getByRole('radio');
  await expect(options.first()).toBeFocused();
  await expect(options.first()).toHaveAttribute('aria-checked', 'true');
  expect(await options.count()).toBeGreaterThan(1);
  await expect(options.first()).toContainText(/\d/);
  await expect(options.first()).toContainText(/pickup cutoff/);
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toBeFocused();
  await expect(options.nth(1)).toHaveAttribute('aria-checked', 'true');
  await expect(options.first()).toHaveAttribute('aria-checked', 'false');
  const chosen = (await options.nth(1).locator('.rate-title').textContent())!;
  await expect(page.getByRole('button', { name: /Book and print/ })).toBeVisible();
  await snap('pack-rates');
  // The docs' picture (docs/pack-and-ship.png): what the packer sees while choosing a rate.
  await page.screenshot({ path: join(SCREENS_DIR, 'docs-pack-and-ship-window.png') });
  // Two quick Enters: one booking.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');

  await expect(page.getByRole('status').first()).toContainText(/Booked DRAFT-0001, tracking \S+/);
  await expect(article.getByText('Booked', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /Cancel shipment/ })).toBeVisible();
  await expect(scan).toBeFocused();
  await expect.poll(async () => (await labelsOf(station, id)).length).toBe(1);
  // The booking's own webhook reaches the agent too: it must print nothing more.
  await expect
    .poll(() => station.sandbox.requestLog().filter((r) => r.method === 'POST' && r.url.endsWith('/shipments/book')).length)
    .toBe(1);
  const polls = (): number => station.sandbox.requestLog().filter((r) => r.method === 'GET' && /\/shipments\?/.test(r.url)).length;
  const pollsAtBooking = polls();
  await expect.poll(polls, { timeout: 15_000 }).toBeGreaterThan(pollsAtBooking + 1);
  await page.waitForTimeout(1000);
  expect(await labelsOf(station, id)).toHaveLength(1);
  const summary = article.locator('.summary');
  await expect(summary).toContainText(chosen.split(' ')[0]!);
  await snap('pack-booked');
});

test('errors land next to their fields, and a service 422 shows its request id', async ({ page, station, draft, snap }) => {
  await draft({
    reference_id: 'DRAFT-0002',
    to: { name: 'Nordic Retail AB', contact: { name: 'Rita' } },
    packages: [{ quantity: 1, type: 'PACKAGE' }],
  });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill('DRAFT-0002');
  await scan.press('Enter');
  await expect(page.getByRole('list', { name: 'Missing for booking' })).toContainText("Receiver's city: is missing");
  await page.getByRole('button', { name: /Book/ }).first().click();

  const weight = page.getByRole('textbox', { name: 'Weight (kg), parcel line 1' });
  await page.getByRole('textbox', { name: 'Width (cm), parcel line 1' }).fill('20');
  await page.getByRole('textbox', { name: 'Height (cm), parcel line 1' }).fill('20');
  await page.getByRole('textbox', { name: 'Length (cm), parcel line 1' }).fill('30');
  await weight.fill('1,5 lbs');
  await weight.press('Enter');
  await expect(weight).toHaveAttribute('aria-invalid', 'true');
  await expect(weight).toHaveAccessibleDescription(/is not a number/);
  // The banner gives the same reason as the field.
  await expect(page.locator('.pack-problem')).toContainText('Check the parcels: Weight (kg), parcel line 1: “1,5lbs” is not a number');
  // Nothing typed is lost.
  await expect(weight).toHaveValue('1,5 lbs');
  await expect(page.getByRole('textbox', { name: 'Width (cm), parcel line 1' })).toHaveValue('20');

  await weight.fill('2');
  await weight.press('Enter');
  await expect(weight).not.toHaveAttribute('aria-invalid', 'true');
  // The receiver has no address: the service's field map says so, with the request id.
  const alert = page.locator('.pack-problem');
  await expect(alert).toContainText("Receiver's city: is missing");
  await expect(page.getByRole('list', { name: 'Missing for booking' })).toContainText("Receiver's street address: is missing");
  await expect(page.getByRole('radiogroup', { name: 'Rates' })).toBeHidden();
  await snap('pack-errors');
});

test('a service refusal at booking shows its message and request id, and nothing typed is lost', async ({ page, station, draft }) => {
  // Bookable, but the third-party customs payer's account fails at the carrier (a 422 at booking).
  await draft({
    reference_id: 'DRAFT-0003',
    to: RECEIVER,
    packages: [{ quantity: 1, type: 'PACKAGE', weight_kg: 1, width_cm: 20, height_cm: 20, depth_cm: 30 }],
    third_party_customs_payer: { account_number: 'INVALID-42', postal_code: '11151', country_code: 'SE' },
  });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill('DRAFT-0003');
  await scan.press('Enter');
  await expect(page.getByText('Ready to rate and book.')).toBeVisible();
  await page.keyboard.press('Alt+b');
  // Bookable already: the rates come without saving anything.
  await expect(page.getByRole('radiogroup', { name: 'Rates' }).getByRole('radio', { checked: true })).toBeVisible();
  const note = page.getByRole('textbox', { name: 'Delivery instructions for the driver' });
  await note.fill('Door code 1234');
  await page.getByRole('button', { name: /Book and print/ }).click();
  await expect(page.locator('.pack-problem')).toContainText(/carrier rejected the booking.*request id [0-9a-f-]{8,}/);
  await expect(note).toHaveValue('Door code 1234');
  expect(await pdfsIn(station.printsDir)).toEqual([]);
});

test('a booked shipment is voided behind a confirmation; its label cannot be reprinted after', async ({ page, station, snap }) => {
  const booked = await station.book({ reference_id: 'ORDER-VOID' });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill(booked.trackingId);
  await scan.press('Enter');
  await page.getByRole('button', { name: /Cancel shipment/ }).click();
  const confirm = page.getByRole('group', { name: 'Confirm cancel' });
  await expect(confirm).toContainText('ORDER-VOID');
  await expect(confirm).toContainText(booked.trackingId);
  await expect(confirm.getByRole('button', { name: /Confirm/ })).toBeFocused();
  await snap('pack-void-confirm');
  await page.keyboard.press('Enter');
  const article = page.getByRole('article', { name: /ORDER-VOID/ });
  // The stage badge (the tracking timeline now says CANCELED in words too).
  await expect(article.locator('.shipment-head').getByText('Canceled', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').first()).toContainText('Canceled ORDER-VOID');
  await expect(article).toContainText('cannot be reprinted');
  await expect(page.getByRole('button', { name: /Reprint/ })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Tracking events' }).getByRole('listitem').first()).toContainText('CANCELED');
  const before = await pdfsIn(station.printsDir);
  await page.keyboard.press('Alt+r');
  await page.waitForTimeout(500);
  expect(await pdfsIn(station.printsDir)).toEqual(before);
  await snap('pack-void-done');
  await page.getByRole('tab', { name: 'Queue & history' }).click();
  await expect(page.locator('tr.job').filter({ hasText: 'ORDER-VOID' }).first()).toContainText('Shipment canceled');
});

/** Scan a bookable draft, open the flow and move the rate choice by arrow keys to the first rate matching `wanted`. */
async function openAndChoose(page: import('@playwright/test').Page, reference: string, wanted: RegExp) {
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill(reference);
  await scan.press('Enter');
  await expect(page.getByText('Ready to rate and book.')).toBeVisible();
  await page.keyboard.press('Alt+b');
  const radios = page.getByRole('radiogroup', { name: 'Rates' }).getByRole('radio');
  await expect(radios.first()).toHaveAttribute('aria-checked', 'true');
  const texts = await radios.allTextContents();
  const index = texts.findIndex((t) => wanted.test(t));
  expect(index, `a rate matching ${wanted} among ${texts.join(' | ')}`).toBeGreaterThanOrEqual(0);
  await radios.first().focus();
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await expect(radios.nth(index)).toHaveAttribute('aria-checked', 'true');
  return radios.nth(index);
}

const PARCEL = { quantity: 1, type: 'PACKAGE', weight_kg: 1, width_cm: 20, height_cm: 20, depth_cm: 30 };

test('a non-EU draft is booked after its documents are uploaded as PDFs', async ({ page, station, draft, snap }) => {
  const id = await draft({
    reference_id: 'DRAFT-EXPORT',
    to: {
      name: 'Oslo Butikk AS',
      address: { address_line_1: 'Karl Johans gate 1', postal_code: '0154', city: 'Oslo', country_code: 'NO' },
      contact: { name: 'Ola' },
    },
    packages: [PARCEL],
  });
  await page.goto(station.url);
  const rate = await openAndChoose(page, 'DRAFT-EXPORT', /upload/);
  const needed = (await rate.textContent())!.match(/needs [a-z ]+ upload/g)!;
  const pickers = page.locator('.drop-zone input[type=file]');
  await expect(pickers).toHaveCount(needed.length);
  // A file that is not a PDF is refused before it is sent.
  await pickers.first().setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.locator('.pack-problem')).toContainText('“notes.txt” is not a PDF');
  // Real invoices are bigger than the bridge's usual body limit (64 KiB).
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(150_000, 0x20), Buffer.from('\n%%EOF\n')]);
  for (let i = 0; i < needed.length; i++) {
    await pickers.nth(i).setInputFiles({ name: `doc-${i}.pdf`, mimeType: 'application/pdf', buffer: pdf });
  }
  await expect(page.locator('.pack-needs .ok')).toHaveCount(needed.length);
  await expect(page.locator('.pack-needs')).toContainText('146.5 KB');
  await snap('pack-export-uploaded');
  await page.getByRole('button', { name: /Book and print/ }).press('Enter');
  await expect(page.getByRole('status').first()).toContainText(/Booked DRAFT-EXPORT/);
  await expect.poll(async () => (await labelsOf(station, id)).some((f) => f.includes('_label_'))).toBe(true);
});

test('a service-point rate books with the nearest point chosen', async ({ page, station, draft }) => {
  const id = await draft({
    reference_id: 'DRAFT-POINT',
    to: {
      name: 'Pia Private',
      is_private_individual: true,
      address: { address_line_1: 'Storgatan 1', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
      contact: { name: 'Pia' },
    },
    packages: [PARCEL],
  });
  await page.goto(station.url);
  await openAndChoose(page, 'DRAFT-POINT', /service point/);
  const point = page.getByRole('combobox', { name: 'Service point' });
  await expect(point).toBeVisible();
  const first = await point.locator('option').first().textContent();
  await expect(point.locator('option:checked')).toHaveText(first!);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').first()).toContainText(/Booked DRAFT-POINT/);
  await expect.poll(async () => (await labelsOf(station, id)).length).toBe(1);
});

test('an expired booking token is fetched anew and the same rate is booked', async ({ page, station, draft }) => {
  const id = await draft({ reference_id: 'DRAFT-LATE', to: RECEIVER, packages: [PARCEL] });
  await page.goto(station.url);
  const rate = await openAndChoose(page, 'DRAFT-LATE', /./);
  const title = (await rate.locator('.rate-title').textContent())!;
  // The packer went for lunch: the token is 31 minutes old.
  clockMs += 31 * 60_000;
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').first()).toContainText('the rate had expired and was fetched anew');
  await expect.poll(async () => (await labelsOf(station, id)).length).toBe(1);
  await expect(page.getByRole('article', { name: /DRAFT-LATE/ }).locator('.summary')).toContainText(title.split(' ')[0]!);
});

test('the station shipping rules chosen in Settings shape the rates', async ({ page, station, draft }) => {
  await draft({ reference_id: 'DRAFT-RULES', to: RECEIVER, packages: [PARCEL] });
  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Packing' }).click();
  const rules = page.getByRole('group', { name: 'Shipping rules for rate searches' });
  await rules.getByRole('checkbox', { name: /Only DB Schenker/ }).check();
  await page.getByRole('radio', { name: /No pickup/ }).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Packing saved' })).toContainText('no pickup');
  await page.getByRole('tab', { name: 'Scan' }).click();
  await openAndChoose(page, 'DRAFT-RULES', /./);
  const titles = await page.getByRole('radiogroup', { name: 'Rates' }).locator('.rate-title').allTextContents();
  expect(titles.length).toBeGreaterThan(0);
  // The product names its carrier (DB SCHENKERsystem): the title says it once.
  for (const t of titles) expect(t).toMatch(/^DB Schenker/i);
  await expect(page.locator('.rate-warnings')).toContainText('Shipping rules applied: Only DB Schenker');
});

test('the pack form says the real reason in field and banner alike, takes 1,5 kg, does not jump, picks the matching favorite, and shows the booking at 800x600', async ({
  page,
  station,
  draft,
}) => {
  await draft({ reference_id: 'DRAFT-0005', to: RECEIVER, packages: [{ quantity: 1, type: 'PACKAGE', description: 'Mugs' }] });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill('DRAFT-0005');
  await scan.press('Enter');
  // The receiver is said once on the page.
  await expect(page.getByRole('article', { name: /DRAFT-0005/ })).toBeVisible();
  await expect(page.locator('dt').filter({ hasText: /^Receiver$/ })).toHaveCount(1);
  await page.keyboard.press('Alt+b');

  const field = (name: string) => page.getByRole('textbox', { name: `${name}, parcel line 1` });
  const weight = field('Weight (kg)');
  const banner = page.locator('.pack-problem');
  await field('Width (cm)').fill('20');
  await field('Height (cm)').fill('20');
  await field('Length (cm)').fill('30');
  // 20×20×30 is the team's "Small box": the Box list says so.
  await expect(page.getByRole('combobox', { name: 'Box, parcel line 1' })).toHaveValue(/.+/);
  await expect(page.getByRole('combobox', { name: 'Box, parcel line 1' }).locator('option:checked')).toHaveText(/Small box/);
  await field('Width (cm)').fill('21');
  await expect(page.getByRole('combobox', { name: 'Box, parcel line 1' })).toHaveValue('');
  await field('Width (cm)').fill('20');

  const before = await weight.boundingBox();
  const reasons: Array<[string, RegExp]> = [
    ['-2', /must be more than 0/],
    ['0', /must be more than 0/],
    ['99999', /must be at most 10,000/],
    ['', /is missing/],
  ];
  for (const [typed, reason] of reasons) {
    await weight.fill(typed);
    await weight.press('Enter');
    await expect(weight).toHaveAccessibleDescription(reason);
    await expect(banner).toContainText(reason);
    await expect(banner).not.toContainText('not numbers');
    // The error line had its room already: the field did not move.
    expect((await weight.boundingBox())?.y).toBe(before?.y);
  }

  await weight.fill('1,5 kg');
  await weight.press('Enter');
  await expect(page.getByRole('radiogroup', { name: 'Rates' }).getByRole('radio').first()).toBeFocused();
  const book = page.getByRole('button', { name: /Book and print/ });
  await expect(book).toHaveClass(/primary/);
  await book.click();
  await expect(page.getByRole('status').first()).toContainText(/Booked DRAFT-0005/);
  // The scan box and the note are in the window, not scrolled off.
  await expect(scan).toBeInViewport();
  await expect(page.getByRole('status').first()).toBeInViewport();
  await expect(scan).toBeFocused();
});
