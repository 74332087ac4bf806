/**
 * Headless settings, backed by conf (electron-store's base; runs in plain Node). The
 * file lives in the agent's data directory.
 */
import { renameSync } from 'node:fs';
import Conf from 'conf';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../data-dir';
import type { Logger } from '../log';
import { BackedSettingsStore } from './backed-settings-store';
import { defaultSettings, type SettingsStore } from './settings-store';

export interface ConfSettingsStoreOptions {
  /** Directory holding the settings file (the agent's `--data-dir`). */
  readonly dataDir: string;
  /** Service base URL used when the file does not name one. */
  readonly apiUrl: string;
  readonly logger: Logger;
  /** File name without extension. @default 'settings' */
  readonly configName?: string;
}

export function createConfSettingsStore(options: ConfSettingsStoreOptions): SettingsStore {
  const { logger } = options;
  let corruptAtStart = false;
  let started = false;
  let warnedLater = false;
  // Station settings are private to the user: created 0700/0600 and tightened if an older version left them open.
  ensurePrivateDir(options.dataDir);
  const conf = new Conf<Record<string, unknown>>({
    cwd: options.dataDir,
    configFileMode: PRIVATE_FILE_MODE,
    configName: options.configName ?? 'settings',
    projectName: 'print-station',
    // Settings are validated with zod on read; a corrupt file must not throw out of conf.
    deserialize: (text: string) => {
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch {
        if (!started) corruptAtStart = true;
        else if (!warnedLater) {
          warnedLater = true;
          logger.warn(`settings: ${conf.path} is not valid JSON; using defaults until the next save`);
        }
        return {};
      }
    },
  });
  // Touch once so corruption is noticed (and the file kept aside) at start, not on the first save.
  void conf.store;
  started = true;
  if (corruptAtStart) {
    // Kept aside rather than overwritten by the next save: a team lead may want to recover printers from it.
    const aside = `${conf.path}.corrupt-${Date.now()}`;
    let kept = aside;
    try {
      renameSync(conf.path, aside);
    } catch {
      kept = conf.path;
    }
    logger.warn(`settings: ${conf.path} is not valid JSON; kept it as ${kept} and started from defaults`);
  }
  return new BackedSettingsStore({ backing: conf, defaults: defaultSettings(options.apiUrl), logger });
}
