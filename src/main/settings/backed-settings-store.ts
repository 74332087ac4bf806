/**
 * The SettingsStore over any conf-like backing (conf headless, electron-store in the
 * app: electron-store extends conf, so both expose the whole document as `store`).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from '../log';
import {
  mergeSettings,
  readStoredSettings,
  SettingsNotSavedError,
  type SettingsPatch,
  type SettingsStore,
  type StoredSettings,
} from './settings-store';

/** The part of conf / electron-store this store uses. */
export interface SettingsBacking {
  store: Record<string, unknown>;
}

export interface BackedSettingsStoreOptions {
  readonly backing: SettingsBacking;
  /** What a missing or invalid section falls back to. */
  readonly defaults: StoredSettings;
  readonly logger: Logger;
}

export class BackedSettingsStore implements SettingsStore {
  readonly #backing: SettingsBacking;
  readonly #defaults: StoredSettings;
  readonly #logger: Logger;
  readonly #listeners = new Set<(settings: StoredSettings) => void>();

  constructor(options: BackedSettingsStoreOptions) {
    this.#backing = options.backing;
    this.#defaults = options.defaults;
    this.#logger = options.logger;
  }

  get(): StoredSettings {
    let raw: unknown;
    try {
      raw = this.#backing.store;
    } catch (error) {
      // conf throws on unreadable files (permissions, encryption); settings must never crash the agent.
      this.#logger.warn(
        `settings: cannot read the settings file (${error instanceof Error ? error.message : String(error)}); using defaults`,
      );
      return this.#defaults;
    }
    return readStoredSettings(raw, this.#defaults, this.#logger);
  }

  update(patch: SettingsPatch): StoredSettings {
    const current = this.get();
    const next = mergeSettings(current, patch);
    // Nothing changed, nothing written: a restart with the same options must not need a
    // writable disk (a full data disk still lets the agent start and say what is wrong).
    // Compared with what the file holds, so a first update still creates the file.
    if (isDeepStrictEqual(JSON.parse(JSON.stringify(next)), this.stored())) return current;
    try {
      this.#backing.store = { ...next };
    } catch (error) {
      // A full or read-only disk: say so and what to do, not the file system's bare words.
      const path = (this.#backing as { path?: unknown }).path;
      throw SettingsNotSavedError.from(error, typeof path === 'string' ? path : null) ?? error;
    }
    for (const listener of this.#listeners) {
      try {
        listener(next);
      } catch (error) {
        this.#logger.error(`settings: a change listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return next;
  }

  /** The document as the file holds it; null when it cannot be read. */
  private stored(): unknown {
    try {
      return JSON.parse(JSON.stringify(this.#backing.store)) as unknown;
    } catch {
      return null;
    }
  }

  onChange(listener: (settings: StoredSettings) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
