import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The Electron binary is not available here: safeStorage is the one thing mocked. The
// mock really transforms the bytes so a plain key on disk would be visible.
const safeStorage = vi.hoisted(() => ({
  isEncryptionAvailable: vi.fn(() => true),
  getSelectedStorageBackend: vi.fn((): string => 'gnome_libsecret'),
  encryptString: vi.fn((plain: string) => Buffer.from(`enc:${[...plain].reverse().join('')}`, 'utf8')),
  decryptString: vi.fn((cipher: Buffer) => {
    const text = cipher.toString('utf8');
    if (!text.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return [...text.slice(4)].reverse().join('');
  }),
}));
vi.mock('electron', () => ({ safeStorage }));

const { safeStorage: mockedSafeStorage } = await import('electron');
const { SafeStorageSecretBox } = await import('../../../src/main/electron/safe-storage-secret-box');
const { EncryptedApiKeyStore } = await import('../../../src/main/settings/api-key-store');
const { createConfSettingsStore } = await import('../../../src/main/settings/conf-settings-store');
const { createSettingsOperations } = await import('../../../src/main/settings/settings-operations');
const { SecretStorageUnavailableError } = await import('../../../src/main/settings/secret-box');
const { silentLogger } = await import('../../../src/main/log');

const KEY = 'sk_live_0123456789abcdef';

describe('SafeStorageSecretBox', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-secret-'));
    safeStorage.isEncryptionAvailable.mockReturnValue(true);
    safeStorage.getSelectedStorageBackend.mockReturnValue('gnome_libsecret');
    vi.clearAllMocks();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function setup(platform: NodeJS.Platform = 'linux') {
    const settings = createConfSettingsStore({ dataDir: dir, apiUrl: 'http://127.0.0.1:9/external/v1', logger: silentLogger });
    const box = new SafeStorageSecretBox({ safeStorage: mockedSafeStorage as never, platform });
    const apiKeys = new EncryptedApiKeyStore({ settings, box, logger: silentLogger });
    return { settings, box, apiKeys, ops: createSettingsOperations({ settings, apiKeys }) };
  }

  it('encrypts the key with safeStorage on save and stores only base64 ciphertext', async () => {
    const { apiKeys, ops } = setup();
    const view = ops.saveSettings({ apiKey: KEY, routing: { labelPrinter: 'cups:Zebra' } });
    expect(safeStorage.encryptString).toHaveBeenCalledWith(KEY);
    expect(view.apiKeySet).toBe(true);
    const file = await readFile(join(dir, 'settings.json'), 'utf8');
    expect(file).not.toContain(KEY);
    const stored = JSON.parse(file) as { encryptedApiKey: string };
    expect(Buffer.from(stored.encryptedApiKey, 'base64').toString('utf8')).toBe(`enc:${[...KEY].reverse().join('')}`);
    expect(apiKeys.read()).toBe(KEY);
  });

  it('never returns the key or its ciphertext from getSettings or saveSettings', () => {
    const { ops } = setup();
    const saved = ops.saveSettings({ apiKey: KEY });
    const read = ops.getSettings();
    for (const view of [saved, read]) {
      const json = JSON.stringify(view);
      expect(json).not.toContain(KEY);
      expect(json).not.toContain('encryptedApiKey');
      expect(Object.keys(view).sort()).toEqual([
        'apiKeySet',
        'apiUrl',
        'environment',
        'intake',
        'paused',
        'routing',
        'scale',
        'stationRules',
      ]);
      expect(view.apiKeySet).toBe(true);
    }
  });

  it('keeps the key for this session only when encryption is unavailable: never written, in plain text or at all', async () => {
    safeStorage.isEncryptionAvailable.mockReturnValue(false);
    const { settings, box, apiKeys, ops } = setup('win32');
    expect(box.available()).toBe(false);
    const view = ops.saveSettings({ apiKey: KEY, routing: { labelPrinter: 'cups:Zebra' } });
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
    expect(view).toMatchObject({ apiKeySet: true, apiKeySessionOnly: true });
    expect(apiKeys.read()).toBe(KEY);
    expect(settings.get().encryptedApiKey).toBeUndefined();
    expect(settings.get().routing.labelPrinter).toBe('cups:Zebra');
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).not.toContain(KEY);
    // A later start (a new store on the same file) has no key: it must be entered again.
    expect(setup('win32').apiKeys.read()).toBeNull();
  });

  it('on Linux without a keyring (basic_text, a hard-coded password) keeps a session-only key with a notice', async () => {
    safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
    const lines: string[] = [];
    const settings = createConfSettingsStore({ dataDir: dir, apiUrl: 'http://127.0.0.1:9/external/v1', logger: silentLogger });
    const box = new SafeStorageSecretBox({ safeStorage: mockedSafeStorage as never, platform: 'linux' });
    const logger = { ...silentLogger, warn: (l: string) => lines.push(l) };
    const apiKeys = new EncryptedApiKeyStore({ settings, box, logger });
    expect(box.available()).toBe(false);
    expect(() => box.encrypt(KEY)).toThrow(SecretStorageUnavailableError);
    apiKeys.write(KEY);
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
    expect(apiKeys.read()).toBe(KEY);
    expect(apiKeys.sessionOnly()).toBe(true);
    expect(settings.get().encryptedApiKey).toBeUndefined();
    expect(lines.join('\n')).toMatch(/session only/);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(createSettingsOperations({ settings, apiKeys }).getSettings()).toMatchObject({ apiKeySet: true, apiKeySessionOnly: true });
    expect(await readFile(join(dir, 'settings.json'), 'utf8').catch(() => '')).not.toContain(KEY);
  });

  it('validates the whole patch before it saves the key: an invalid field saves nothing', () => {
    const { settings, apiKeys, ops } = setup();
    expect(() => ops.saveSettings({ apiKey: KEY, routing: { labelPrinter: 'nonsense:x' } })).toThrow();
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
    expect(apiKeys.read()).toBeNull();
    expect(settings.get().encryptedApiKey).toBeUndefined();
    expect(() => ops.saveSettings({ apiKey: KEY, apiUrl: 'http://api.example.com/external/v1' })).toThrow(
      expect.objectContaining({ code: 'INSECURE_SERVICE_ADDRESS' }),
    );
    expect(apiKeys.read()).toBeNull();
  });

  it('accepts basic_text-free backends on Linux and ignores the backend check elsewhere', () => {
    safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
    expect(setup('darwin').box.available()).toBe(true);
    safeStorage.getSelectedStorageBackend.mockReturnValue('kwallet6');
    expect(setup('linux').box.available()).toBe(true);
  });

  it('reads an undecryptable key as not set (re-enter), without throwing', () => {
    const { settings, apiKeys } = setup();
    settings.update({ encryptedApiKey: Buffer.from('garbage').toString('base64') });
    expect(apiKeys.read()).toBeNull();
  });
});
