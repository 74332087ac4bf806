import type { KV } from '@nats-io/kv';
import type { SitePrinterView, SiteScaleView, SiteStationView } from '../../../shared/site';
import { BucketMirror } from './bucket-mirror';
import { fromToken, token } from './names';
import type { RejectedInput } from './rejected-input';
import { heartbeatSchema, parseJson, stationNameSchema } from './schemas';

/**
 * Heartbeats in the stations bucket: each station (and relay) writes its state every
 * `HEARTBEAT_MS`; one whose last write is older than `OFFLINE_AFTER_MS` is offline, so a
 * station that stops shows offline within 20 s. Entries stay (a stopped station is still
 * listed, as offline).
 */

export const HEARTBEAT_MS = 5_000;
export const OFFLINE_AFTER_MS = 15_000;
/** The most stations a status lists (a site of hundreds fits; a flood of invented names does not grow the answer). */
export const MAX_LISTED_STATIONS = 1_000;

export interface Heartbeat {
  readonly role: 'station' | 'relay';
  readonly printers: readonly SitePrinterView[];
  readonly queued: number;
  /** `reference`: what a packer reads on the parcel (absent from older stations' heartbeats). */
  readonly lastPrint: { readonly shipmentId: string; readonly reference?: string | null; readonly at: string } | null;
  readonly failures30m: number;
  /** The station's scale; absent from stations without one and from those older than scales. */
  readonly scale?: SiteScaleView | null;
}

export class Presence {
  constructor(
    private readonly kv: KV,
    private readonly now: () => number = Date.now,
    private readonly rejected?: RejectedInput,
  ) {}

  async beat(name: string, heartbeat: Heartbeat): Promise<void> {
    await this.kv.put(token(name), JSON.stringify({ ...heartbeat, at: new Date(this.now()).toISOString() }));
  }

  async list(): Promise<SiteStationView[]> {
    const names: string[] = [];
    for await (const key of await this.kv.keys()) if (names.length < MAX_LISTED_STATIONS) names.push(key);
    const views: SiteStationView[] = [];
    for (const key of names) {
      const entry = await this.kv.get(key);
      if (!entry || entry.operation !== 'PUT' || entry.length === 0) continue;
      const beat = parseHeartbeat(entry.string(), key);
      if (!beat) {
        this.rejected?.reject('heartbeat', key);
        continue;
      }
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
        scale: beat.scale ?? null,
        rules: null,
        fallback: null,
      });
    }
    return views.sort((a, b) => a.name.localeCompare(b.name));
  }
}

/**
 * The online stations by name, from the heartbeats mirrored in memory (bucket-mirror.ts):
 * the relay asks for each booking without a round trip. The server's time of each heartbeat
 * decides, as in Presence.list.
 */
export class OnlineStations {
  private mirror: BucketMirror<Heartbeat> | null = null;

  constructor(
    private readonly kv: KV,
    private readonly now: () => number = Date.now,
    private readonly rejected?: RejectedInput,
  ) {}

  /** Mirrors the heartbeats from now on; until then no station is online. */
  async start(): Promise<void> {
    this.mirror = await BucketMirror.started(this.kv, parseHeartbeat, this.rejected, 'heartbeat');
  }

  /** After the bucket was recreated. */
  async restart(): Promise<void> {
    await this.mirror?.restart();
  }

  async online(): Promise<Set<string>> {
    const names = new Set<string>();
    for (const [key, { value, created }] of this.mirror?.all() ?? []) {
      if (value.role === 'station' && this.now() - created.getTime() < OFFLINE_AFTER_MS) names.add(fromToken(key));
    }
    return names;
  }

  stop(): void {
    this.mirror?.stop();
  }
}

/** A heartbeat as stored, checked, with its key a valid station name; null when not. */
function parseHeartbeat(text: string, key: string): Heartbeat | null {
  if (!/^[A-Za-z0-9_-]+$/.test(key) || !stationNameSchema.safeParse(fromToken(key)).success) return null;
  return parseJson(heartbeatSchema, text);
}
