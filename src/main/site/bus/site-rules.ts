import type { KV } from '@nats-io/kv';
import type { StationRules } from '../../../shared/domain';
import { BucketMirror } from './bucket-mirror';
import { fromToken, token } from './names';
import type { RejectedInput } from './rejected-input';
import { parseJson, siteStationRulesSchema } from './schemas';

/**
 * Each station's routing rules, kept in the site's rules bucket under the station's name,
 * with the station its bookings go to when it is down (its fallback). A station writes its
 * own rules when they change; on an open site any station may write another's (Settings), on
 * a protected one only its own.
 */

export interface SiteStationRules {
  readonly rules: StationRules;
  /** Where its undelivered bookings go after the relay's fallback time. @default none */
  readonly fallback: string | null;
}

export class SiteRules {
  private mirror: BucketMirror<SiteStationRules> | null = null;

  constructor(
    private readonly kv: KV,
    private readonly rejected?: RejectedInput,
  ) {}

  /** Keeps every station's rules in memory from now on (the relay, deciding each booking): all() reads them there. */
  async mirrored(): Promise<this> {
    this.mirror = await BucketMirror.started(this.kv, parse, this.rejected, 'rules');
    return this;
  }

  /** After the bucket was recreated. */
  async restart(): Promise<void> {
    await this.mirror?.restart();
  }

  stop(): void {
    this.mirror?.stop();
  }

  async put(station: string, value: SiteStationRules): Promise<void> {
    await this.kv.put(token(station), JSON.stringify(value));
  }

  async get(station: string): Promise<SiteStationRules | null> {
    const entry = await this.kv.get(token(station));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    return parse(entry.string());
  }

  async all(): Promise<Map<string, SiteStationRules>> {
    if (this.mirror) return new Map([...this.mirror.all()].map(([key, entry]) => [fromToken(key), entry.value]));
    const keys: string[] = [];
    for await (const key of await this.kv.keys()) keys.push(key);
    const result = new Map<string, SiteStationRules>();
    for (const key of keys) {
      const entry = await this.kv.get(key);
      if (!entry || entry.operation !== 'PUT' || entry.length === 0) continue;
      const value = parse(entry.string());
      if (value) result.set(fromToken(key), value);
      else this.rejected?.reject('rules', key);
    }
    return result;
  }
}

function parse(text: string): SiteStationRules | null {
  return parseJson(siteStationRulesSchema, text);
}
