import { defineConfig } from '@playwright/test';

// Browser launch (Debian Chromium, fresh profile) lives in the fixture of
// test/e2e/fixtures.ts: launchPersistentContext takes the profile directory as its first
// argument, which the `use.launchOptions` route cannot express.
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  workers: 1,
  retries: 0,
  fullyParallel: false,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  use: {
    screenshot: 'on',
    trace: 'retain-on-failure',
  },
});
