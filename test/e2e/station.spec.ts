import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, stationTest as test } from './fixtures';
import { startPrivateCups } from '../support/cups';
import { pdfsIn } from '../support/station';

test('scanning a tracking number shows the shipment and its timeline', async ({ page, station, snap }) => {
  const booked = await station.book({ reference_id: 'ORDER-1001' });
  await page.goto(station.url);
  // The token moved from the query (sent to the server) to the fragment (never sent), where a bookmark keeps it.
  await expect(page).not.toHaveURL(/\?token=/);
  await expect(page).toHaveURL(/\/#token=[A-Za-z0-9_-]+$/);
  const bookmark = page.url();

  const scan = page.getByRole('textbox', { name: /Scan/ });
  await expect(scan).toBeFocused();
  // A keyboard-wedge scanner: lower case noise, a burst of keys, then Enter.
  await scan.pressSequentially(` ${booked.trackingId.toLowerCase()} `, { delay: 5 });
  await scan.press('Enter');

  const events = page.getByRole('list', { name: 'Tracking events' });
  await expect(events.getByRole('listitem').first()).toContainText('ORDERED');
  await expect(page.getByRole('status').first()).toContainText('by tracking number');
  await expect(page.getByText(booked.trackingId, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /Reprint/ })).toBeVisible();
  await expect(scan).toBeFocused();
  await expect(scan).toHaveValue('');
  // The bookmarked address opens the app, authorised, in a tab that never saw the printed one.
  const other = await page.context().browser()!.newPage();
  await other.goto(bookmark);
  await expect(other.getByRole('textbox', { name: /Scan/ })).toBeVisible();
  await other.getByRole('textbox', { name: /Scan/ }).fill(booked.trackingId);
  await other.getByRole('textbox', { name: /Scan/ }).press('Enter');
  await expect(other.getByRole('list', { name: 'Tracking events' }).getByRole('listitem').first()).toContainText('ORDERED');
  await other.close();
  // The caret comes back after a click elsewhere and after a choice is made.
  await page.getByRole('heading', { level: 2 }).click();
  await expect(scan).toBeFocused();
  await page.getByLabel('Label layout').selectOption('a4');
  await expect(scan).toBeFocused();
  await snap('scan-tracking-id');
});

test('scanning a reference finds the shipment', async ({ page, station, snap }) => {
  const booked = await station.book({ reference_id: 'order-2002' });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill('order-2002');
  await scan.press('Enter');
  await expect(page.getByRole('article', { name: /order-2002/ })).toBeVisible();
  await expect(page.getByRole('status').first()).toContainText('by reference');
  await expect(page.getByText(booked.shipmentId, { exact: true })).toBeVisible();
  await snap('scan-reference');
});

test('scanning garbage says what was scanned', async ({ page, station, snap }) => {
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill('XYZ-NOT-A-PARCEL');
  await scan.press('Enter');
  await expect(page.getByRole('alert')).toContainText('Nothing found for “XYZ-NOT-A-PARCEL”');
  await expect(page.getByRole('list', { name: 'Tracking events' })).toHaveCount(0);
  await expect(scan).toBeFocused();
  await snap('scan-not-found');
});

test('reprint sends the label and a PDF arrives in the folder', async ({ page, station, snap }) => {
  const booked = await station.book({ reference_id: 'ORDER-3003' });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.fill(booked.trackingId);
  await scan.press('Enter');
  // The booking's own automatic label first, so the count below sees only the reprint.
  await expect.poll(async () => (await pdfsIn(station.printsDir)).filter((f) => f.includes(booked.shipmentId)).length).toBe(1);
  const before = await pdfsIn(station.printsDir);
  await page.getByRole('button', { name: /Reprint/ }).click();
  // A folder printer: the status says the PDF was saved, not that paper came out.
  await expect(page.locator('.reprint-status')).toContainText(/: saved$/);
  await expect(scan).toBeFocused();
  await expect.poll(async () => (await pdfsIn(station.printsDir)).length).toBe(before.length + 1);
  const [file] = (await pdfsIn(station.printsDir)).filter((f) => !before.includes(f));
  expect(file).toContain(booked.shipmentId);
  const pdf = await readFile(join(station.printsDir, file!));
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await snap('reprint-done');
});

test('a failed job shows its reason, and retry prints it once the printer exists', async ({ page, station, snap }) => {
  test.skip(process.getuid?.() !== 0, 'the private CUPS scheduler needs root');
  const booked = await station.book({ reference_id: 'ORDER-4004' });
  // A real CUPS scheduler of our own, without the queue the station is set up for yet.
  const cups = await startPrivateCups();
  try {
    const printer = `cups:Labels@${cups.server}`;
    await page.goto(station.url);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Printers', exact: true }).click();
    // A printer URI discovery does not list is typed under "Advanced".
    await page.getByText('Advanced: type a printer URI').click();
    await page.getByLabel('Label printer URI', { exact: true }).fill(printer);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();

    await page.getByRole('tab', { name: 'Scan' }).click();
    const scan = page.getByRole('textbox', { name: /Scan/ });
    await expect(scan).toBeFocused();
    await scan.fill(booked.trackingId);
    await scan.press('Enter');
    await page.getByRole('button', { name: /Reprint/ }).click();
    await expect(page.locator('.reprint-status')).toContainText('failed');
    await expect(page.locator('.reprint-status')).toContainText('does not exist');

    await page.getByRole('tab', { name: 'Queue & history' }).click();
    // The reprint's row: its trigger says so (a finished job's Reprint button is in other rows too).
    const row = page
      .locator('tr.job')
      .filter({ hasText: 'ORDER-4004' })
      .filter({ has: page.locator('td.document', { hasText: 'reprint' }) });
    await expect(row).toHaveCount(1);
    await expect(row.locator('.badge')).toHaveText('failed');
    await expect(row.locator('.reason')).toContainText('CUPS queue "Labels" does not exist');
    await snap('queue-failed');

    // The packer fixes the printer, then presses Retry.
    await cups.addQueue('Labels', 'sink');
    await row.getByRole('button', { name: /Retry/ }).click();
    await expect(row.locator('.badge')).toHaveText(/spooled|completed/);
    const [output] = await cups.waitForOutputs('Labels', 1, 15_000);
    expect((await readFile(output!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(row.locator('.badge')).toHaveText(/completed/, { timeout: 15_000 });
    await expect(row.locator('.reason')).toHaveCount(0);
    await snap('queue-retried');

    const search = page.getByLabel('Search jobs');
    await search.fill('no-such-parcel');
    await expect(page.getByText('No job matches.')).toBeVisible();
    await search.fill(booked.trackingId);
    await expect(page.locator('tr.job')).toHaveCount(2); // the automatic print and the reprint
  } finally {
    await cups.stop();
  }
});

test('settings are saved and survive a reload', async ({ page, station, snap }) => {
  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByText('Key set')).toBeVisible();
  await page.locator('#view-settings').getByLabel('Poll interval (seconds, 0 = off)').fill('42');
  await page.locator('#view-settings').getByLabel('This station prints').selectOption('filtered');
  await page.locator('#view-settings').getByLabel('Field matches').fill('reference_id SHOP-');
  // One Save saves what was changed in every section.
  await page.getByRole('tab', { name: 'Printers', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Waybill' }).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await snap('settings-saved');

  await page.reload();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Printers', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: 'Waybill' })).toBeChecked();
  await page.getByRole('tab', { name: 'Connection and intake' }).click();
  await expect(page.locator('#view-settings').getByLabel('Poll interval (seconds, 0 = off)')).toHaveValue('42');
  await expect(page.locator('#view-settings').getByLabel('This station prints')).toHaveValue('filtered');
  await expect(page.locator('#view-settings').getByLabel('Field matches')).toHaveValue('reference_id SHOP-');
  // The key is write-only: the field is empty, only "Key set" is shown.
  await expect(page.getByLabel('API key')).toHaveValue('');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText(/Connected: team Sandbox Team/)).toBeVisible();
});
