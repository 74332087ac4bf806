/**
 * The station's packing settings (pickup, shipping rules), kept in the ledger's key-value
 * table: they belong to this station's data directory, next to its jobs, and need no
 * change to the settings file other parts of the agent share.
 */
import { packSettingsSchema, type PackSettings } from '../../shared/domain';
import type { Ledger } from '../ledger/ledger';

const KEY = 'pack-settings';

export class PackSettingsStore {
  constructor(private readonly ledger: Pick<Ledger, 'getCursor' | 'setCursor'>) {}

  get(): PackSettings {
    const raw = this.ledger.getCursor(KEY);
    let stored: unknown;
    try {
      stored = raw ? JSON.parse(raw) : {};
    } catch {
      stored = {};
    }
    const parsed = packSettingsSchema.safeParse(stored);
    // A damaged entry degrades to the defaults rather than stopping rate searches.
    return parsed.success ? parsed.data : packSettingsSchema.parse({});
  }

  save(patch: Partial<PackSettings>): PackSettings {
    const next = packSettingsSchema.parse({ ...this.get(), ...patch });
    this.ledger.setCursor(KEY, JSON.stringify(next));
    return next;
  }
}
