import type { KV } from '@nats-io/kv';
import { token } from './names';
import type { SiteClaim } from './decision';

/**
 * Scan claims in the site's claims bucket: a scan at a station puts the scanned text there
 * (found or not), and a booking whose reference_id, shipment id or tracking number equals it
 * prints at that station while the claim lasts. The bucket's TTL removes old claims on the
 * server; `minutes` is checked here as well, since a station may claim for less.
 */

interface StoredClaim {
  readonly station: string;
  readonly at: string;
  readonly minutes: number;
}

export class ClaimsBucket {
  constructor(
    private readonly kv: KV,
    private readonly now: () => number = Date.now,
  ) {}

  async claim(code: string, station: string, minutes: number): Promise<void> {
    const text = code.trim();
    if (text === '') return;
    const stored: StoredClaim = { station, at: new Date(this.now()).toISOString(), minutes };
    await this.kv.put(token(text), JSON.stringify(stored));
  }

  /** The live claims on any of these codes. */
  async find(codes: readonly string[]): Promise<SiteClaim[]> {
    const entries = await Promise.all(codes.map(async (code) => ({ code, entry: await this.kv.get(token(code)) })));
    const found: SiteClaim[] = [];
    for (const { code, entry } of entries) {
      if (!entry || entry.operation !== 'PUT' || entry.length === 0) continue;
      const claim = entry.json<StoredClaim>();
      if (Date.parse(claim.at) + claim.minutes * 60_000 < this.now()) continue;
      found.push({ code, station: claim.station, at: claim.at });
    }
    return found;
  }
}
