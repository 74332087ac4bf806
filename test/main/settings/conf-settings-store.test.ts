import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/main/log';
import { createConfSettingsStore } from '../../../src/main/settings/conf-settings-store';
import { InvalidSettingsError, defaultSettings } from '../../../src/main/settings/settings-store';

const API_URL = 'http://127.0.0.1:9/external/v1';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m), redact() {} };
}

describe('createConfSettingsStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-settings-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('starts from the documented defaults', () => {
    const store = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger: recordingLogger() });
    expect(store.get()).toEqual({
      environment: 'sandbox',
      apiUrl: API_URL,
      routing: {
        labelPrinter: 'folder:./prints',
        documentPrinter: 'folder:./prints',
        labelPrinterMedia: 'label',
        sheetLayout: 'a4',
        autoPrint: ['label'],
        copies: 1,
      },
      intake: { webhooksEnabled: true, pollIntervalSeconds: 5 },
      stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
      paused: false,
    });
  });

  it('round-trips an update through the file, merging nested sections', async () => {
    const first = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger: recordingLogger() });
    first.update({ routing: { labelPrinter: 'cups:Zebra 4x6' }, intake: { pollIntervalSeconds: 0 }, paused: true });
    first.update({ environment: 'production', apiUrl: 'https://api.example.com/external/v1', encryptedApiKey: 'Y2lwaGVy' });

    const reopened = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger: recordingLogger() });
    const settings = reopened.get();
    expect(settings.routing.labelPrinter).toBe('cups:Zebra 4x6');
    expect(settings.routing.documentPrinter).toBe('folder:./prints');
    expect(settings.intake).toEqual({ webhooksEnabled: true, pollIntervalSeconds: 0 });
    expect(settings.paused).toBe(true);
    expect(settings.environment).toBe('production');
    expect(settings.encryptedApiKey).toBe('Y2lwaGVy');
    const onDisk = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(onDisk.apiUrl).toBe('https://api.example.com/external/v1');

    reopened.update({ encryptedApiKey: null });
    expect(createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger: recordingLogger() }).get().encryptedApiKey).toBeUndefined();
  });

  it('notifies listeners after an update and stops after unsubscribe', () => {
    const store = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger: recordingLogger() });
    const seen: boolean[] = [];
    const off = store.onChange((s) => seen.push(s.paused));
    store.update({ paused: true });
    off();
    store.update({ paused: false });
    expect(seen).toEqual([true]);
  });

  it('rejects an invalid update, naming the field, and stores nothing', () => {
    const store = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger: recordingLogger() });
    let caught: unknown;
    try {
      store.update({ routing: { copies: 99 }, paused: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidSettingsError);
    expect((caught as InvalidSettingsError).code).toBe('INVALID_SETTINGS');
    expect((caught as InvalidSettingsError).field).toBe('routing.copies');
    expect(store.get()).toEqual(defaultSettings(API_URL));
  });

  it('recovers from a corrupt file: defaults, a warning, and the bad file kept aside', async () => {
    await writeFile(join(dir, 'settings.json'), '{"environment": "production", "routing": {', 'utf8');
    const logger = recordingLogger();
    const store = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger });
    expect(store.get()).toEqual(defaultSettings(API_URL));
    expect(logger.warnings.some((w) => w.includes('not valid JSON'))).toBe(true);
    const files = await readdir(dir);
    expect(files.some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
    // And it is usable again.
    store.update({ paused: true });
    expect(createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger }).get().paused).toBe(true);
  });

  it('keeps valid sections and defaults only the invalid ones, with a warning naming them', async () => {
    const good = { ...defaultSettings(API_URL), routing: { ...defaultSettings(API_URL).routing, labelPrinter: 'cups:Zebra' } };
    await writeFile(
      join(dir, 'settings.json'),
      JSON.stringify({ ...good, intake: { pollIntervalSeconds: 'often' }, environment: 'moon' }),
      'utf8',
    );
    const logger = recordingLogger();
    const settings = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger }).get();
    expect(settings.routing.labelPrinter).toBe('cups:Zebra');
    expect(settings.intake).toEqual({ webhooksEnabled: true, pollIntervalSeconds: 5 });
    expect(settings.environment).toBe('sandbox');
    expect(logger.warnings.some((w) => w.includes('"intake"'))).toBe(true);
    expect(logger.warnings.some((w) => w.includes('"environment"'))).toBe(true);
  });

  it('treats a file holding a non-object as defaults', async () => {
    await writeFile(join(dir, 'settings.json'), '[1,2,3]', 'utf8');
    const logger = recordingLogger();
    expect(createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger }).get()).toEqual(defaultSettings(API_URL));
  });
});
