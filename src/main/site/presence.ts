import type { KV } from '@nats-io/kv';
import type { SitePrinterView, SiteStationView } from '../../shared/site';
import { fromToken, token } from './names';

/**
 * Heartbeats in the stations bucket: each station (and relay) writes its state every
 * `HEARTBEAT_MS`; one whose last write is older than `OFFLINE_AFTER_MS` is offline, so a
 * station that stops shows offline within 20 s. Entries stay (a stopped station is still
 * listed, as offline).
 */

export const HEARTBEAT_MS = 5_000;
export const OFFLINE_AFTER_MS = 15_000;

export interface Heartbeat {
  readonly role: 'station' | 'relay';
  readonly printers: readonly SitePrinterView[];
  readonly queued: number;
  readonly lastPrint: { readonly shipmentId: string; readonly at: string } | null;
  readonly failures30m: number;
}

export class Presence {
  constructor(
    private readonly kv: KV,
    private readonly now: () => number = Date.now,
  ) {}

  async beat(name: string, heartbeat: Heartbeat): Promise<void> {
    await this.kv.put(token(name), JSON.stringify({ ...heartbeat, at: new Date(this.now()).toISOString() }));
  }

  async list(): Promise<SiteStationView[]> {
    const names: string[] = [];
    for await (const key of await this.kv.keys()) names.push(key);
    const views: SiteStationView[] = [];
    for (const key of names) {
      const entry = await this.kv.get(key);
      if (!entry || entry.operation !== 'PUT' || entry.length === 0) continue;
      const beat = entry.json<Heartbeat & { at: string }>();
      // The server's time of the write, not the writer's clock: stations' clocks may differ.
      const seen = entry.created.getTime();
      views.push({
        name: fromToken(key),
        role: beat.role,
        online: this.now() - seen < OFFLINE_AFTER_MS,
        lastSeen: entry.created.toISOString(),
        printers: beat.printers,
        queued: beat.queued,
        lastPrint: beat.lastPrint,
        failures30m: beat.failures30m,
      });
    }
    return views.sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** Online stations by name, read at most every `maxAgeMs` (the relay asks for each booking). */
export class OnlineStations {
  private cached: { at: number; names: Set<string> } | null = null;
  constructor(
    private readonly presence: Presence,
    private readonly maxAgeMs = 2_000,
    private readonly now: () => number = Date.now,
  ) {}

  async online(): Promise<Set<string>> {
    if (this.cached && this.now() - this.cached.at < this.maxAgeMs) return this.cached.names;
    const list = await this.presence.list();
    const names = new Set(list.filter((s) => s.online && s.role === 'station').map((s) => s.name));
    this.cached = { at: this.now(), names };
    return names;
  }
}
