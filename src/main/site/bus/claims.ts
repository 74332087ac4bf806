import type { KV } from '@nats-io/kv';
import { BucketMirror } from './bucket-mirror';
import { claimKey, splitKey, token } from './names';
import type { SiteClaim } from './decision';
import type { RejectedInput } from './rejected-input';
import { parseJson, storedClaimSchema } from './schemas';

/**
 * Scan claims in the site's claims bucket: a scan at a station puts the scanned text there
 * (found or not), and a booking whose reference_id, shipment id or tracking number equals it
 * prints at that station while the claim lasts. The key is `<code>.<station>`, so a
 * protected site lets a station write claims in its own name only; a claim whose value names
 * another station than its key is not believed. The bucket's TTL removes old claims on the
 * server; `minutes` is checked here as well, since a station may claim for less. The relay
 * keeps the bucket mirrored in memory (`mirrored()`): a decision costs no read.
 */

interface StoredClaim {
  readonly station: string;
  readonly at: string;
  readonly minutes: number;
}

export class ClaimsBucket {
  private mirror: BucketMirror<StoredClaim> | null = null;

  constructor(
    private readonly kv: KV,
    private readonly now: () => number = Date.now,
  ) {}

  async mirrored(rejected?: RejectedInput): Promise<this> {
    this.mirror = await BucketMirror.started(this.kv, parseClaim, rejected, 'claim');
    return this;
  }

  /** After the bucket was recreated. */
  async restart(): Promise<void> {
    await this.mirror?.restart();
  }

  stop(): void {
    this.mirror?.stop();
  }

  async claim(code: string, station: string, minutes: number): Promise<void> {
    const text = code.trim();
    if (text === '') return;
    const stored: StoredClaim = { station, at: new Date(this.now()).toISOString(), minutes };
    await this.kv.put(claimKey(text, station), JSON.stringify(stored));
  }

  /** The live claims on any of these codes (from the mirror; without one, read from the server). */
  async find(codes: readonly string[]): Promise<SiteClaim[]> {
    const found: SiteClaim[] = [];
    const live = (claim: StoredClaim): boolean => Date.parse(claim.at) + claim.minutes * 60_000 >= this.now();
    if (this.mirror) {
      const wanted = new Map(codes.map((code) => [token(code), code]));
      for (const [key, { value }] of this.mirror.all()) {
        const code = wanted.get(key.split('.')[0]!);
        if (code !== undefined && live(value)) found.push({ code, station: value.station, at: value.at });
      }
      return found;
    }
    for (const code of codes) {
      const keys: string[] = [];
      for await (const key of await this.kv.keys(`${token(code)}.*`)) keys.push(key);
      for (const key of keys) {
        const entry = await this.kv.get(key);
        if (!entry || entry.operation !== 'PUT' || entry.length === 0) continue;
        const claim = parseClaim(entry.string(), key);
        if (claim && live(claim)) found.push({ code, station: claim.station, at: claim.at });
      }
    }
    return found;
  }
}

/** A claim as stored, checked, with the station of its key the one it names; null when not. */
function parseClaim(text: string, key: string): StoredClaim | null {
  const claim = parseJson(storedClaimSchema, text);
  return claim && splitKey(key)?.station === claim.station ? claim : null;
}
