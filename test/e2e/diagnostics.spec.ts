import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, stationTest as test } from './fixtures';

test('Settings → Save diagnostics writes the bundle in the data directory and offers it as a download', async ({ page, station, snap }) => {
  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Language and support' }).click();
  await page.getByRole('button', { name: 'Save diagnostics' }).click();
  const result = page.getByRole('status').filter({ hasText: 'Diagnostics saved to' });
  await expect(result).toBeVisible();
  const text = (await result.textContent()) ?? '';
  const path = /saved to (\S+\.json)\./.exec(text)![1]!;
  expect(path.startsWith(join(station.dir, 'data', 'diagnostics'))).toBe(true);
  const onDisk = await readFile(path, 'utf8');
  expect(JSON.parse(onDisk).kind).toBe('print-station-diagnostics');
  expect(onDisk).not.toContain(station.sandbox.apiKey);
  await snap('diagnostics-saved');

  const [download] = await Promise.all([page.waitForEvent('download'), result.getByRole('link', { name: 'Download it' }).click()]);
  expect(download.suggestedFilename()).toBe(path.split('/').at(-1));
  expect(await readFile((await download.path())!, 'utf8')).toBe(onDisk);
});
