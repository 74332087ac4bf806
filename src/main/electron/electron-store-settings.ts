/**
 * The app's settings, backed by electron-store. electron-store imports electron at
 * module load, so it is loaded dynamically and only from the Electron main process.
 */
import { join } from 'node:path';
import { app } from 'electron';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../data-dir';
import type { Logger } from '../log';
import { BackedSettingsStore } from '../settings/backed-settings-store';
import { defaultSettings, type SettingsStore } from '../settings/settings-store';

export interface ElectronStoreSettingsOptions {
  /** Service base URL used when the file does not name one. */
  readonly apiUrl: string;
  readonly logger: Logger;
  /** File name without extension, in the app's userData folder. @default 'settings' */
  readonly name?: string;
}

export async function createElectronStoreSettings(options: ElectronStoreSettingsOptions): Promise<SettingsStore> {
  const { default: ElectronStore } = await import('electron-store');
  const { logger } = options;
  let warned = false;
  // The userData folder holds the ledger and settings: the owner's alone on macOS and Linux.
  ensurePrivateDir(app.getPath('userData'));
  const store = new ElectronStore<Record<string, unknown>>({
    name: options.name ?? 'settings',
    configFileMode: PRIVATE_FILE_MODE,
    // Validation happens in BackedSettingsStore with zod; a corrupt file must not crash the app at start.
    deserialize: (text: string) => {
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch {
        if (!warned) {
          warned = true;
          logger.warn('settings: the settings file is not valid JSON; using defaults until the next save');
        }
        return {};
      }
    },
  });
  // A started-at-login app's working directory is arbitrary (System32 on Windows): PDFs
  // go to a folder the packer can find until a printer is chosen.
  const printFolder = join(app.getPath('documents'), 'Print Station');
  return new BackedSettingsStore({ backing: store, defaults: defaultSettings(options.apiUrl, printFolder), logger });
}
