import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/log';
import { MemoryApiKeyStore } from '../../../src/main/settings/api-key-store';
import { createConfSettingsStore } from '../../../src/main/settings/conf-settings-store';
import { createSettingsOperations } from '../../../src/main/settings/settings-operations';

const KEY = 'sk_headless_abcdef123456';

describe('headless API key (MemoryApiKeyStore)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-keys-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the key in memory only: saving settings never writes it to disk', async () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (line) => lines.push(line), timestamps: false });
    const settings = createConfSettingsStore({ dataDir: dir, apiUrl: 'http://127.0.0.1:9/external/v1', logger });
    const apiKeys = new MemoryApiKeyStore(null, logger);
    const ops = createSettingsOperations({ settings, apiKeys });

    expect(ops.getSettings().apiKeySet).toBe(false);
    const view = ops.saveSettings({ apiKey: KEY, routing: { labelPrinter: 'cups:Zebra' } });
    expect(view.apiKeySet).toBe(true);
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(apiKeys.read()).toBe(KEY);

    const file = await readFile(join(dir, 'settings.json'), 'utf8');
    expect(file).toContain('cups:Zebra');
    expect(file).not.toContain(KEY);
    expect(JSON.parse(file)).not.toHaveProperty('encryptedApiKey');

    // The key is registered for redaction as soon as it is known.
    logger.error(`request failed with x-api-key ${KEY}`);
    expect(lines.at(-1)).not.toContain(KEY);

    apiKeys.clear();
    expect(ops.getSettings().apiKeySet).toBe(false);
  });

  it('starts from the key given on the command line or environment', () => {
    const store = new MemoryApiKeyStore(KEY);
    expect(store.isSet()).toBe(true);
    expect(store.read()).toBe(KEY);
  });
});
