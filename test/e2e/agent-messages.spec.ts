/**
 * Messages the agent composes reach the UI as codes and read in the UI's language: the real
 * headless agent's label printer (a folder) is blocked by a file in its place, a booking's
 * label waits for it, and the queue and the printer list say why in Swedish.
 */
import { rm, writeFile } from 'node:fs/promises';
import { LANGUAGE_STORAGE_KEY } from '../../src/renderer/i18n';
import { expect, stationTest as test } from './fixtures';

test('sv: a label waiting for a stopped printer says why in Swedish, in the queue and the printer list', async ({ page, station }) => {
  // A file where the label folder should be: the printer is down as a whole until it is moved.
  await rm(station.printsDir, { recursive: true, force: true });
  await writeFile(station.printsDir, 'not a folder');
  const booked = await station.sandbox.bookShipment({ source: 'API' });

  await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, 'sv'] as const);
  await page.goto(station.url);
  await page.getByRole('tab', { name: 'Kö och historik' }).click();
  const row = page.locator('tr.job', { hasText: booked.referenceId });
  await expect(row.locator('.reason')).toContainText('är ingen mapp (en fil ligger i vägen): flytta den eller välj en annan mapp', {
    timeout: 15_000,
  });
  await expect(row.locator('.reason')).toContainText('väntar på skrivaren (kontrollerar igen om');
  // The agent's own English stays in its payload (logs, CLI, --json): only the UI words it anew.
  const jobs = await station.agent.agent.api.listJobs({});
  const job = jobs.find((j) => j.reference === booked.referenceId);
  expect(job?.reason).toContain('is not a folder (a file is in the way)');
  expect(job?.reasonMessage?.code).toBe('job.waitingForPrinter');

  await page.getByRole('tab', { name: 'Inställningar' }).click();
  await page.getByRole('tab', { name: 'Skrivare', exact: true }).click();
  await expect(page.getByText(/inte redo: .* är ingen mapp \(en fil ligger i vägen\)/).first()).toBeVisible();
});
