/**
 * The command-line options of a start, applied to the stored settings. A start must not fail
 * because the settings file cannot be written (the data directory's disk is full or
 * read-only): the agent then starts with the options given, for this run only, says so once,
 * and the status says what is wrong with the disk (the ledger cannot be written either).
 */
import type { Logger } from '../log';
import { mergeSettings, SettingsNotSavedError, type SettingsPatch, type SettingsStore, type StoredSettings } from './settings-store';

/**
 * Applies `patch` (nothing is written when it changes nothing). If the file cannot be written,
 * returns a store that answers the patched settings until a later update is saved; else the
 * store itself. Invalid settings still throw.
 */
export function applyStartOptions(settings: SettingsStore, patch: SettingsPatch, log: Pick<Logger, 'warn'>): SettingsStore {
  try {
    settings.update(patch);
    return settings;
  } catch (error) {
    if (!(error instanceof SettingsNotSavedError)) throw error;
    log.warn(
      `settings: the options of this start could not be saved to the data directory (${error.errno}); ` +
        'the agent runs with them unsaved: free space on that disk (or make it writable), and the next start saves them',
    );
    return new UnsavedOptions(settings, mergeSettings(settings.get(), patch));
  }
}

/** The stored settings with this start's options over them, until an update is saved. */
class UnsavedOptions implements SettingsStore {
  private unsaved: StoredSettings | null;

  constructor(
    private readonly inner: SettingsStore,
    unsaved: StoredSettings,
  ) {
    this.unsaved = unsaved;
  }

  get(): StoredSettings {
    return this.unsaved ?? this.inner.get();
  }

  update(patch: SettingsPatch): StoredSettings {
    if (this.unsaved === null) return this.inner.update(patch);
    // The start's options and this change, saved together once the disk takes them.
    const next = mergeSettings(this.unsaved, patch);
    const saved = this.inner.update(next);
    this.unsaved = null;
    return saved;
  }

  onChange(listener: (settings: StoredSettings) => void): () => void {
    return this.inner.onChange(listener);
  }
}
