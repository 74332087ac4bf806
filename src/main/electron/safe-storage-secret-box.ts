/**
 * SecretBox over Electron safeStorage (DPAPI on Windows, Keychain on macOS, libsecret or
 * kwallet on Linux). On Linux without a keyring Electron falls back to 'basic_text',
 * which is a hard-coded password: we refuse that rather than pretend the key is safe.
 */
import type { SafeStorage } from 'electron';
import { SecretDecryptError, SecretStorageUnavailableError, type SecretBox } from '../settings/secret-box';

export interface SafeStorageSecretBoxOptions {
  readonly safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
    Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
}

export class SafeStorageSecretBox implements SecretBox {
  readonly #safeStorage: SafeStorageSecretBoxOptions['safeStorage'];
  readonly #platform: NodeJS.Platform;

  constructor(options: SafeStorageSecretBoxOptions) {
    this.#safeStorage = options.safeStorage;
    this.#platform = options.platform ?? process.platform;
  }

  available(): boolean {
    return this.#unavailableReason() === null;
  }

  encrypt(plain: string): string {
    const reason = this.#unavailableReason();
    if (reason !== null) throw new SecretStorageUnavailableError(reason);
    return this.#safeStorage.encryptString(plain).toString('base64');
  }

  decrypt(cipher: string): string {
    try {
      return this.#safeStorage.decryptString(Buffer.from(cipher, 'base64'));
    } catch (error) {
      throw new SecretDecryptError({ cause: error });
    }
  }

  #unavailableReason(): string | null {
    if (!this.#safeStorage.isEncryptionAvailable()) return 'the operating system offers no encryption for this user right now';
    if (this.#platform === 'linux') {
      const backend = this.#safeStorage.getSelectedStorageBackend?.();
      if (backend === 'basic_text')
        return 'no system keyring (GNOME Keyring or KWallet) is available, so the key would be stored as plain text';
    }
    return null;
  }
}
