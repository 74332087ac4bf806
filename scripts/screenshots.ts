/**
 * `npm run screenshots`: the README's pictures made from the demo pieces, so they show the UI
 * as it is. Starts the embedded sandbox and a headless agent serving the built UI (a folder
 * printer in a temp directory), books a few shipments and leaves one draft, then drives Debian's
 * Chromium with Playwright:
 *
 * - docs/screenshot.png: a scanned, booked shipment with its tracking timeline (1280x800, English);
 * - docs/pack-and-ship.png: a draft's parcels typed and a rate chosen (1280x800, English);
 * - reports/screenshots/<view>-<language>-<size>.png: every view in English, Swedish and
 *   Finnish at 800x600 and 1280x800, to look at before a release (outside test-results/, which
 *   each Playwright run empties).
 *
 * Needs the built UI (`npm run build:ui`, which the npm script runs first) and /usr/bin/chromium.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { ServiceClient } from '../src/main/api/client';
import { startHeadlessAgent } from '../src/main/headless';
import { createLogger } from '../src/main/log';
import { CATALOGS, LANGUAGE_STORAGE_KEY, type Language } from '../src/renderer/i18n';
import { startSandbox } from '../src/sandbox/server';

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

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'print-station-screenshots-'));
  const staticDir = resolve('out/renderer');
  const docs = resolve('docs');
  const screens = resolve('reports', 'screenshots');
  // The demo's own printer, folder:./demo-prints, as the pictures should show it.
  process.chdir(dir);
  const sandbox = await startSandbox({ port: 0, simulateCarrier: true });
  const agent = await startHeadlessAgent({
    apiUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    dataDir: join(dir, 'data'),
    log: createLogger({ write: () => undefined }),
    environment: 'sandbox',
    printer: 'folder:./demo-prints',
    webhookPort: 0,
    webhookSecrets: ['screenshots'],
    pollIntervalSeconds: 0,
    uiPort: 0,
    uiStaticDir: staticDir,
  });
  sandbox.setWebhooks([{ url: agent.webhookUrl!, secret: 'screenshots' }]);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const booked = [];
    for (const reference of ['ORDER-1001', 'ORDER-1002', 'ORDER-1003'])
      booked.push(await sandbox.bookShipment({ source: 'API', reference_id: reference }));
    const client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
    for (const reference of ['DRAFT-2001', 'DRAFT-2002']) {
      await client.createShipment({
        enable_bookable_validation: false,
        reference_id: reference,
        from: SENDER,
        to: RECEIVER,
        packages: [{ quantity: 1, type: 'PACKAGE', description: 'Mugs' }],
      });
    }
    await client.close();
    // Let the automatic labels print, so the views show a station at work.
    await new Promise((r) => setTimeout(r, 3000));
    await mkdir(screens, { recursive: true });
    const tracking = booked[0]!.trackingId;

    for (const language of LANGUAGES) {
      const context = await browser.newContext({ locale: language === 'en' ? 'en-GB' : language, timezoneId: 'Europe/Stockholm' });
      await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, language] as const);
      const page = await context.newPage();
      const words = CATALOGS[language];
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.goto(agent.uiUrl!);
        await scan(page, words['scan.label'], tracking);
        await page.getByRole('list', { name: words['names.trackingEvents'] }).waitFor();
        await shoot(page, screens, `scan-${language}-${size.width}`);
        if (language === 'en' && size.width === 1280) await page.screenshot({ path: join(docs, 'screenshot.png') });
        await scan(page, words['scan.label'], language === 'en' ? 'DRAFT-2001' : 'DRAFT-2002');
        await page.getByRole('button', { name: words['packPanel.open'] }).click();
        for (const [field, value] of [
          ['parcels.width', '20'],
          ['parcels.height', '20'],
          ['parcels.length', '30'],
          ['parcels.weight', '1,5'],
        ] as const) {
          const name = words['parcels.fieldOfLine'].replace('{field}', words[field]).replace('{n}', '1');
          await page.getByRole('textbox', { name }).fill(value);
        }
        await page.getByRole('button', { name: words['parcels.save'] }).click();
        await page.getByRole('radio').first().waitFor();
        await page.getByRole('radio').nth(1).click();
        // The rates in the middle of the window: what the packer sees while choosing.
        await page.getByRole('radiogroup').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await shoot(page, screens, `pack-${language}-${size.width}`);
        if (language === 'en' && size.width === 1280) await page.screenshot({ path: join(docs, 'pack-and-ship.png') });
        for (const tab of ['tab.queue', 'tab.settings', 'tab.endOfDay'] as const) {
          await page.getByRole('tab', { name: words[tab] }).click();
          await page.waitForTimeout(800);
          await shoot(page, screens, `${tab.slice(4)}-${language}-${size.width}`);
        }
        // Each section of Settings (a tab inside it).
        await page.getByRole('tab', { name: words['tab.settings'] }).click();
        for (const section of ['connection', 'printers', 'packing', 'support'] as const) {
          await page.getByRole('tab', { name: words[`settings.tab.${section}`] }).click();
          await page.waitForTimeout(500);
          await shoot(page, screens, `settings-${section}-${language}-${size.width}`);
        }
      }
      await context.close();
    }
    process.stdout.write(`screenshots: ${join(docs, 'screenshot.png')}, ${join(docs, 'pack-and-ship.png')} and ${screens}/\n`);
  } finally {
    await browser.close();
    await agent.stop();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function scan(page: Page, label: string, value: string): Promise<void> {
  const box = page.getByRole('textbox', { name: label });
  await box.fill(value);
  await box.press('Enter');
  await page.getByRole('article').first().waitFor();
}

/** What the window shows (what a packer sees without scrolling) and the whole page. */
async function shoot(page: Page, dir: string, name: string): Promise<void> {
  // A view wider than the window scrolls sideways: say which element sticks out.
  const wide = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= limit) return [];
    return Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.getBoundingClientRect().right > limit + 0.5 && el.getClientRects().length > 0)
      .slice(-5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: right ${Math.round(el.getBoundingClientRect().right)} > ${limit}`);
  });
  if (wide.length > 0) process.stdout.write(`${name} scrolls sideways:\n  ${wide.join('\n  ')}\n`);
  await page.screenshot({ path: join(dir, `${name}.png`) });
  await page.screenshot({ path: join(dir, `${name}-full.png`), fullPage: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
