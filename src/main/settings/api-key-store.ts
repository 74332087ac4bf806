/**
 * Where the agent gets and keeps the API key. The app keeps it encrypted in the
 * settings file; the headless agent only holds it in memory (from --api-key, the
 * environment or a config file) and never writes it anywhere.
 */
import type { Logger } from '../log';
import type { SecretBox } from './secret-box';
import type { SettingsStore } from './settings-store';

export interface ApiKeyStore {
  /** The plain key, or null when none is set (or it cannot be decrypted). Never send it to a UI. */
  read(): string | null;
  /** Throws (SecretStorageUnavailableError) instead of storing the key unprotected. */
  write(plain: string): void;
  clear(): void;
  isSet(): boolean;
  /** The key is held in memory for this session only (no secure storage): the UI says so. */
  sessionOnly?(): boolean;
}

/**
 * The app's key store: ciphertext in the settings file, via the platform's SecretBox. Where
 * the platform offers no secure storage (Linux without a keyring), the key is kept in memory
 * for this session only, never written in plain text: the app can connect, and the settings
 * view says the key must be entered again after a restart.
 */
export class EncryptedApiKeyStore implements ApiKeyStore {
  readonly #settings: SettingsStore;
  readonly #box: SecretBox;
  readonly #logger: Logger;
  #sessionKey: string | null = null;

  constructor(options: { readonly settings: SettingsStore; readonly box: SecretBox; readonly logger: Logger }) {
    this.#settings = options.settings;
    this.#box = options.box;
    this.#logger = options.logger;
  }

  read(): string | null {
    if (this.#sessionKey !== null) return this.#sessionKey;
    const cipher = this.#settings.get().encryptedApiKey;
    if (cipher === undefined) return null;
    try {
      const plain = this.#box.decrypt(cipher);
      this.#logger.redact(plain);
      return plain;
    } catch (error) {
      this.#logger.warn(
        `settings: the stored API key cannot be decrypted (${error instanceof Error ? error.message : 'unknown error'}); enter it again in Settings`,
      );
      return null;
    }
  }

  write(plain: string): void {
    this.#logger.redact(plain);
    if (!this.#box.available()) {
      // The new key replaces any stored one, which must not come back after a restart.
      if (this.#settings.get().encryptedApiKey !== undefined) this.#settings.update({ encryptedApiKey: null });
      this.#sessionKey = plain;
      this.#logger.warn(
        'settings: no secure storage for the API key (no system keyring): it is kept in memory for this session only; enter it again after a restart',
      );
      return;
    }
    const cipher = this.#box.encrypt(plain);
    this.#settings.update({ encryptedApiKey: cipher });
    this.#sessionKey = null;
  }

  clear(): void {
    this.#sessionKey = null;
    this.#settings.update({ encryptedApiKey: null });
  }

  isSet(): boolean {
    return this.#sessionKey !== null || this.#settings.get().encryptedApiKey !== undefined;
  }

  sessionOnly(): boolean {
    return this.#sessionKey !== null;
  }
}

/** Headless: the key lives only in this process. */
export class MemoryApiKeyStore implements ApiKeyStore {
  #key: string | null;
  readonly #logger: Logger | undefined;

  constructor(initial: string | null, logger?: Logger) {
    this.#key = initial;
    this.#logger = logger;
    if (initial) logger?.redact(initial);
  }

  read(): string | null {
    return this.#key;
  }

  write(plain: string): void {
    this.#logger?.redact(plain);
    this.#key = plain;
  }

  clear(): void {
    this.#key = null;
  }

  isSet(): boolean {
    return this.#key !== null;
  }
}
