/**
 * Station operations in the browser: the End of day tab (counts, the day's list, CSV
 * download, "Print what is missing" printing the booking that never reached the station
 * exactly once) and per-printer Pause/Resume in Settings.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE_STORAGE_KEY } from '../../src/renderer/i18n';
import { expect, stationTest as test } from './fixtures';
import { pdfsIn, type Station } from '../support/station';
const labelsOf = async (station: Station, shipmentId: string): Promise<number> =>
  (await pdfsIn(station.printsDir)).filter((f) => f.startsWith(`${shipmentId}_label_`)).length;

test('End of day shows what printed and what did not, exports CSV and prints what is missing once', async ({ page, station, snap }) => {
  const printed = await station.book({ reference_id: 'EOD-E2E-PRINTED' });
  station.sandbox.setWebhooks([]); // the next booking never reaches the station
  const missing = await station.sandbox.bookShipment({ source: 'API', reference_id: 'EOD-E2E-MISSING' });

  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(station.url);
  await page.getByRole('tab', { name: /End of day/ }).click();
  const counts = page.getByRole('list', { name: 'Counts' });
  await expect(counts).toContainText('2 booked');
  await expect(counts).toContainText('1 printed');
  await expect(counts).toContainText('1 not printed');
  const table = page.getByRole('table', { name: 'Bookings of the day' });
  await expect(table.getByRole('row').filter({ hasText: 'EOD-E2E-PRINTED' })).toContainText(printed.trackingId);
  await expect(table.getByRole('row').filter({ hasText: 'EOD-E2E-PRINTED' })).toContainText(/printed \d\d:\d\d on Folder/);
  await expect(table.getByRole('row').filter({ hasText: 'EOD-E2E-MISSING' })).toContainText('never reached this station');
  await snap('end-of-day-800x600');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^end-of-day-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('reference,carrier,tracking_id,shipment_id,booked_at,state,printed_at,printer,detail,seen_by');
  expect(csv).toContain(`EOD-E2E-MISSING,PostNord,${missing.trackingId},${missing.shipmentId},`);

  await page.getByRole('button', { name: /Print what is missing/ }).click();
  await expect(page.getByRole('status').filter({ hasText: '1 label sent to print' })).toBeVisible();
  await expect.poll(() => labelsOf(station, missing.shipmentId), { timeout: 15_000 }).toBe(1);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(counts).toContainText('2 printed');
  await expect(counts).toContainText('0 not printed');
  await expect(page.getByRole('button', { name: /Print what is missing/ })).toBeDisabled();
  await station.agent.agent.pipeline.idle();
  expect(await labelsOf(station, missing.shipmentId)).toBe(1);
  expect(await labelsOf(station, printed.shipmentId)).toBe(1);
  await snap('end-of-day-done-800x600');
});

test('End of day in Finnish downloads a CSV a Finnish spreadsheet opens: Finnish words, semicolons, UTF-8 BOM', async ({
  page,
  station,
}) => {
  const booking = await station.book({ reference_id: 'EOD-E2E-FI' });
  await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, 'fi'] as const);
  await page.goto(station.url);
  await page.getByRole('tab', { name: /Päivän päätös/ }).click();
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'EOD-E2E-FI' })).toContainText('tulostettu');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Lataa CSV' }).click();
  const bytes = await readFile((await (await downloading).path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe('Viite;Kuljetusyhtiö;Seurantanumero;Lähetystunnus;Varattu;Tila;Tulostettu;Tulostin;Lisätiedot;Kenen tiedossa');
  expect(lines[1]).toMatch(
    new RegExp(`^EOD-E2E-FI;PostNord;${booking.trackingId};${booking.shipmentId};\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d;tulostettu;`),
  );
});

test('Settings pauses one printer: its jobs wait, the other printer prints, Resume releases them', async ({ page, station, snap }) => {
  const booked = await station.book({ reference_id: 'PAUSE-ONE' });
  const documents = `folder:${join(station.dir, 'documents')}`;
  await station.agent.agent.api.saveSettings({ routing: { documentPrinter: documents } });

  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Printers', exact: true }).click();
  const printers = page.getByRole('list', { name: 'Configured printers' });
  const labelItem = printers.getByRole('listitem').filter({ hasText: station.printsDir });
  const documentItem = printers.getByRole('listitem').filter({ hasText: join(station.dir, 'documents') });
  await expect(labelItem).toContainText('labels');
  await expect(documentItem).toContainText('documents');
  await labelItem.getByRole('button', { name: /Pause/ }).click();
  await expect(labelItem.getByRole('button', { name: /Resume/ })).toBeVisible();
  await expect(labelItem).toContainText('paused');
  await expect(documentItem.getByRole('button', { name: /Pause/ })).toBeVisible();
  await snap('settings-printer-paused');

  // A reprint to the paused label printer waits; a document to the other printer prints.
  const [label] = await station.agent.agent.api.reprint({ shipmentId: booked.shipmentId });
  const [doc] = await station.agent.agent.api.reprint({ shipmentId: booked.shipmentId, documentType: 'label', printer: documents });
  await expect.poll(async () => (await pdfsIn(join(station.dir, 'documents'))).length, { timeout: 15_000 }).toBe(1);
  expect(doc!.target).toBe(documents);
  const [waiting] = await station.agent.agent.api.listJobs({ search: booked.shipmentId, state: 'queued' });
  expect(waiting?.id).toBe(label!.id);
  expect(await labelsOf(station, booked.shipmentId)).toBe(1);

  await labelItem.getByRole('button', { name: /Resume/ }).click();
  await expect(labelItem.getByRole('button', { name: /Pause/ })).toBeVisible();
  await expect.poll(() => labelsOf(station, booked.shipmentId), { timeout: 15_000 }).toBe(2);
  await page.reload();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Printers', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Configured printers' }).getByRole('button', { name: /Pause/ })).toHaveCount(2);
  await expect(page.getByRole('list', { name: 'Configured printers' }).getByRole('button', { name: /Resume/ })).toHaveCount(0);

  // Each printer has its own test page (media, layout, ruler).
  const list = page.getByRole('list', { name: 'Configured printers' });
  await list
    .getByRole('listitem')
    .filter({ hasText: join(station.dir, 'documents') })
    .getByRole('button', { name: /Test page/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Test page sent to' })).toBeVisible();
  const testPages = async (): Promise<number> =>
    (await pdfsIn(join(station.dir, 'documents'))).filter((f) => f.includes('testpage')).length;
  await expect.poll(testPages, { timeout: 15_000 }).toBe(1);
});

test('a scan of a printed parcel says when and where its label printed; Alt+R reprints; missing documents print once', async ({
  page,
  station,
  snap,
}) => {
  const booked = await station.book({ reference_id: 'ALREADY-1' });
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill('ALREADY-1');
  await scan.press('Enter');
  await expect(page.locator('.printed-notice')).toHaveText(/^Label printed \d\d:\d\d on .*prints\. Reprint \(Alt\+R\) prints it again\.$/);
  await expect(page.getByRole('button', { name: /Reprint/ })).toBeInViewport();
  const documents = page.getByRole('list', { name: 'Documents to print' });
  // In a window this short the notice says it all: the label's own row would only repeat it.
  await expect(documents.locator('[data-document="label"]')).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(documents.getByRole('listitem').filter({ hasText: 'Label' })).toContainText('printed');
  await page.setViewportSize({ width: 800, height: 600 });
  // The station prints only labels by itself: its waybill is no alarm, only not printed here.
  await expect(documents.getByRole('listitem').filter({ hasText: 'Waybill' })).toContainText('not printed here');
  await expect(documents.locator('.eod-state.not_printed')).toHaveCount(0);
  await snap('scan-already-printed-800x600');
  expect(await labelsOf(station, booked.shipmentId)).toBe(1);

  await page.keyboard.press('Alt+r');
  await expect.poll(() => labelsOf(station, booked.shipmentId), { timeout: 15_000 }).toBe(2);

  await page.getByRole('button', { name: 'Print here (1)' }).click();
  await expect(page.getByRole('status').filter({ hasText: '1 document sent to print' })).toBeVisible();
  const waybills = async (): Promise<number> =>
    (await pdfsIn(station.printsDir)).filter((f) => f.startsWith(`${booked.shipmentId}_waybill_`)).length;
  await expect.poll(waybills, { timeout: 15_000 }).toBe(1);
  await expect(documents.getByRole('listitem').filter({ hasText: 'Waybill' })).toContainText(/printed\s*\d\d:\d\d/);
  await station.agent.agent.pipeline.idle();
  expect(await waybills()).toBe(1);
  expect(await labelsOf(station, booked.shipmentId)).toBe(2);
});
