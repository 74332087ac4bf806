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
      expect(Object.keys(view).sort()).toEqual(['apiKeySet', 'apiUrl', 'environment', 'intake', 'paused', 'routing', 'stationRules']);
      expect(view.apiKeySet).toBe(true);
    }
  });

  it('refuses to store the key when encryption is unavailable, and changes nothing else', () => {
    safeStorage.isEncryptionAvailable.mockReturnValue(false);
    const { settings, box, ops } = setup('win32');
    expect(box.available()).toBe(false);
    expect(() => ops.saveSettings({ apiKey: KEY, routing: { labelPrinter: 'cups:Zebra' } })).toThrow(SecretStorageUnavailableError);
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
    expect(settings.get().encryptedApiKey).toBeUndefined();
    expect(settings.get().routing.labelPrinter).toBe('folder:./prints');
  });

  it("refuses Linux's basic_text backend (a hard-coded password) with a message about the keyring", () => {
    safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
    const { settings, box, apiKeys } = setup('linux');
    expect(box.available()).toBe(false);
    let caught: unknown;
    try {
      apiKeys.write(KEY);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SecretStorageUnavailableError);
    expect((caught as Error & { code: string }).code).toBe('SECRET_STORAGE_UNAVAILABLE');
    expect((caught as Error).message).toMatch(/keyring/i);
    expect((caught as Error).message).not.toContain(KEY);
    expect(settings.get().encryptedApiKey).toBeUndefined();
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
