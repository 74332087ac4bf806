/**
 * Encryption of secrets at rest (the API key). The app uses Electron safeStorage
 * (src/main/electron/safe-storage-secret-box.ts); the headless agent has no SecretBox
 * and never persists the key.
 */
import { CodedError } from '../errors';

export interface SecretBox {
  /** Returns printable ciphertext (base64). Throws SecretStorageUnavailableError rather than storing plain text. */
  encrypt(plain: string): string;
  decrypt(cipher: string): string;
  /** Whether encrypt() would succeed now. */
  available(): boolean;
}

export class SecretStorageUnavailableError extends CodedError {
  constructor(detail: string) {
    super(
      'SECRET_STORAGE_UNAVAILABLE',
      `The API key cannot be stored securely: ${detail}. Unlock your system keyring (or log in to a desktop session with one) and enter the key again.`,
    );
  }
}

export class SecretDecryptError extends CodedError {
  constructor(options?: { cause?: unknown }) {
    super(
      'SECRET_UNREADABLE',
      'The stored API key cannot be decrypted on this computer or user account. Enter the API key again in Settings.',
      options,
    );
  }
}
