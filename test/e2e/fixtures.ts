/**
 * The browser fixture: Debian's Chromium (/usr/bin/chromium, installed by .ci/run) with a fresh
 * profile per test, passed as launchPersistentContext's first argument. Every test ends
 * with a full-page screenshot in test-results/screens/ (kept, and looked at).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, test as base, type BrowserContext, type Page } from '@playwright/test';
import { startStation, type Station } from '../support/station';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENS_DIR = join('test-results', 'screens');

export const test = base.extend<{ context: BrowserContext; page: Page; snap: (name: string) => Promise<string> }>({
  // eslint-disable-next-line no-empty-pattern
  context: async ({}, use) => {
    const profile = await mkdtemp(join(tmpdir(), 'print-station-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
      locale: 'en-GB',
      timezoneId: 'Europe/Stockholm',
    });
    try {
      await use(context);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  },
  page: async ({ context }, use, testInfo) => {
    const page = context.pages()[0] ?? (await context.newPage());
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await use(page);
    await mkdir(SCREENS_DIR, { recursive: true });
    const slug = testInfo.title.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    await page.screenshot({ path: join(SCREENS_DIR, `${slug}-end.png`), fullPage: true }).catch(() => undefined);
    if (problems.length > 0) await testInfo.attach('browser-problems', { body: problems.join('\n'), contentType: 'text/plain' });
    // Script errors and CSP violations are bugs even when the assertions passed. (Failed
    // loads are not: the event stream reconnecting after the agent stopped is expected.)
    const bugs = problems.filter((p) => p.startsWith('pageerror') || /Content Security Policy/i.test(p));
    if (bugs.length > 0) throw new Error(`the page reported:\n${bugs.join('\n')}`);
  },
  snap: async ({ page }, use) => {
    await mkdir(SCREENS_DIR, { recursive: true });
    await use(async (name) => {
      const path = join(SCREENS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    });
  },
});

/** The browser fixtures plus `station`: a sandbox and a real headless agent serving the built UI (support/station.ts). */
export const stationTest = test.extend<{ station: Station }>({
  // eslint-disable-next-line no-empty-pattern
  station: async ({}, use, testInfo) => {
    if (!existsSync('out/renderer/index.html')) throw new Error('Build the UI first: npm run build:ui');
    const station = await startStation();
    try {
      await use(station);
    } finally {
      if (existsSync(station.logFile)) await testInfo.attach('agent.log', { path: station.logFile, contentType: 'text/plain' });
      await station.close();
    }
  },
});

export { expect } from '@playwright/test';
