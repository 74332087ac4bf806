import type { SettingsPatch, SettingsStore, StoredSettings } from '../settings/settings-store';

/**
 * The settings store with its reads cached. A store's `get()` reads the settings file and
 * validates it with zod every time (30–50 µs), and the hot path asks on every booking and
 * job (station rules, routing, auto-print types, copies, media): five reads a label, a
 * tenth of the agent's work in a burst (docs/BENCHMARKS.md). The cache is
 * replaced on every update (through this store or the one it wraps: its change listeners
 * tell), and re-read once it is older than `maxAgeMs`, so a hand edit of the file still
 * takes effect as before, within that time.
 */

export interface CachedSettingsOptions {
  /** A cached read older than this is read again. @default 1000 */
  readonly maxAgeMs?: number;
  /** Clock in ms, for tests. @default Date.now */
  readonly now?: () => number;
}

export class CachedSettingsStore implements SettingsStore {
  private cached: StoredSettings | null = null;
  private readAt = 0;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: SettingsStore,
    options: CachedSettingsOptions = {},
  ) {
    this.maxAgeMs = Math.max(0, options.maxAgeMs ?? 1000);
    this.now = options.now ?? Date.now;
    store.onChange((settings) => this.keep(settings));
  }

  get(): StoredSettings {
    const now = this.now();
    if (this.cached === null || now - this.readAt >= this.maxAgeMs) this.keep(this.store.get(), now);
    return this.cached!;
  }

  update(patch: SettingsPatch): StoredSettings {
    // Dropped first: a change listener that reads settings while the update is told reads the new ones.
    this.cached = null;
    return this.keep(this.store.update(patch));
  }

  onChange(listener: (settings: StoredSettings) => void): () => void {
    return this.store.onChange(listener);
  }

  private keep(settings: StoredSettings, now: number = this.now()): StoredSettings {
    this.cached = settings;
    this.readAt = now;
    return settings;
  }
}
