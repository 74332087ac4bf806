/**
 * Keyboard-wedge scanners end a code with Enter, Tab, CR, CR+LF or nothing. Each is typed here
 * as a scanner types it (keyboard.type without delay: a burst), then the suffix.
 */
import { expect, stationTest as test } from './fixtures';

const SUFFIXES: ReadonlyArray<{ name: string; suffix: (page: import('@playwright/test').Page) => Promise<void> }> = [
  { name: 'Enter', suffix: (page) => page.keyboard.press('Enter') },
  { name: 'Tab', suffix: (page) => page.keyboard.press('Tab') },
  { name: 'CR', suffix: (page) => page.keyboard.type('\r') },
  { name: 'CR+LF', suffix: (page) => page.keyboard.type('\r\n') },
  { name: 'nothing', suffix: async () => undefined },
];

for (const { name, suffix } of SUFFIXES) {
  test(`a scan ended by ${name} is looked up, and the next scan replaces the box's text`, async ({ page, station }) => {
    const first = await station.book({ reference_id: `SUFFIX-${name.replace(/\W/g, '')}-1` });
    const second = await station.book({ reference_id: `SUFFIX-${name.replace(/\W/g, '')}-2` });
    await page.goto(station.url);
    const scan = page.getByRole('textbox', { name: /Scan/ });
    await expect(scan).toBeFocused();

    // Whether the page kept Tab from moving the caret on (it takes Tab as the code's end).
    await page.evaluate(() =>
      document.addEventListener('keydown', (event) => {
        if (event.key === 'Tab') (window as unknown as { tabKept?: boolean }).tabKept = event.defaultPrevented;
      }),
    );
    await page.keyboard.type(first.referenceId);
    await suffix(page);
    if (name === 'Tab') expect(await page.evaluate(() => (window as unknown as { tabKept?: boolean }).tabKept)).toBe(true);
    await expect(page.getByRole('article', { name: new RegExp(first.referenceId) })).toBeVisible();
    await expect(scan).toBeFocused();
    await expect(scan).toHaveValue('');
    // CR+LF's second half is no empty scan.
    await expect(page.getByText(/Nothing was scanned/)).toHaveCount(0);

    await page.keyboard.type(second.referenceId);
    await suffix(page);
    await expect(page.getByRole('article', { name: new RegExp(second.referenceId) })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(scan).toHaveValue('');
  });
}

test('a person typing slowly is not cut short by the pause rule', async ({ page, station }) => {
  const booked = await station.book({ reference_id: 'SLOW-TYPIST-1' });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.pressSequentially(booked.referenceId, { delay: 120 });
  await page.waitForTimeout(600);
  await expect(scan).toHaveValue(booked.referenceId);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article', { name: /SLOW-TYPIST-1/ })).toBeVisible();
});

test('a scan replaces text a person left in the box', async ({ page, station }) => {
  const booked = await station.book({ reference_id: 'REPLACE-1' });
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.pressSequentially('abc', { delay: 120 });
  // A pause, then the scanner's burst.
  await page.waitForTimeout(1000);
  await page.keyboard.type(booked.referenceId);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article', { name: /REPLACE-1/ })).toBeVisible();
});

test('a US-layout scanner on a Nordic keyboard (- typed as +) still finds the shipment and says what to change', async ({
  page,
  station,
}) => {
  const booked = await station.book({ reference_id: 'LAYOUT-77' });
  await page.goto(station.url);
  await page.keyboard.type('LAYOUT+77');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article', { name: /LAYOUT-77/ })).toBeVisible();
  await expect(page.locator('.layout-mismatch')).toContainText('US layout');
  expect(booked.referenceId).toBe('LAYOUT-77');
});

test('an empty scan says what to do', async ({ page, station }) => {
  await page.goto(station.url);
  const scan = page.getByRole('textbox', { name: /Scan/ });
  await scan.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Nothing was scanned' })).toBeVisible();
});

test('the scanner test sheet shows Code 128 barcodes that scan back to the test codes, and a test code is answered by the station', async ({
  page,
  station,
}) => {
  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Language and support' }).click();
  await page.getByRole('button', { name: 'Show scanner test sheet' }).click();
  const codes = page.locator('#scanner-test-sheet img');
  await expect(codes).toHaveCount(4);
  await expect(page.getByRole('button', { name: 'Print test sheet' })).toBeVisible();
  // Each barcode decodes (zbarimg) to its code and the suffix it carries.
  const decoded: string[] = [];
  for (let i = 0; i < 4; i += 1) {
    const png = await codes.nth(i).screenshot();
    decoded.push(await zbar(png));
  }
  expect(decoded).toEqual(['PS-TEST-1', 'PS-TEST-2\t', 'PS-TEST-3\r', 'PS-TEST-4\r\n']);

  await page.getByRole('tab', { name: 'Scan' }).click();
  await page.keyboard.type('PS+TEST+2');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('status').filter({ hasText: 'US layout' })).toBeVisible();
  await page.keyboard.type('PS-TEST-3\r');
  await expect(page.getByRole('status').filter({ hasText: 'read correctly' })).toBeVisible();
});

async function zbar(png: Buffer): Promise<string> {
  const { execFile } = await import('node:child_process');
  const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'scanner-sheet-'));
  try {
    const file = join(dir, 'code.png');
    await writeFile(file, png);
    return await new Promise((resolve, reject) =>
      execFile('zbarimg', ['--quiet', '--raw', '-Sbinary', file], { encoding: 'latin1' }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
