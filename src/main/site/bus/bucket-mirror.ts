import { KvWatchInclude, type KV, type KvEntry } from '@nats-io/kv';
import type { RejectedInput, RejectedKind } from './rejected-input';

/**
 * A bucket's current entries kept in memory (each change arrives through a KV watch as it
 * is written), so the relay decides a booking without reading every station's rules,
 * heartbeat and claims from the server each time. The watch starts before the first full
 * read; each key keeps whichever of the two is the newer revision. An entry that does not
 * fit its schema is left out (and reported). A mirror exists only started (`started()`);
 * `restart()` starts over after the bucket was recreated (a server that lost its store).
 */
export class BucketMirror<T> {
  private readonly entries = new Map<string, { value: T; created: Date; revision: number }>();
  private stopWatch: (() => void) | null = null;

  private constructor(
    private readonly kv: KV,
    private readonly parse: (text: string, key: string) => T | null,
    private readonly rejects?: { readonly input: RejectedInput; readonly kind: RejectedKind },
  ) {}

  /**
   * A mirror of `kv` with its first full read done: what fits `parse` (null: it does not) is
   * in all(); what does not is reported to `rejected`, when given, as `kind`.
   */
  static async started<T>(
    kv: KV,
    parse: (text: string, key: string) => T | null,
    rejected: RejectedInput | undefined,
    kind: RejectedKind,
  ): Promise<BucketMirror<T>> {
    const mirror = new BucketMirror<T>(kv, parse, rejected ? { input: rejected, kind } : undefined);
    await mirror.start();
    return mirror;
  }

  private async start(): Promise<void> {
    const watch = await this.kv.watch({ include: KvWatchInclude.UpdatesOnly });
    this.stopWatch = () => watch.stop();
    void (async () => {
      for await (const entry of watch) this.take(entry);
    })().catch(() => undefined);
    const keys: string[] = [];
    for await (const key of await this.kv.keys()) keys.push(key);
    for (const key of keys) {
      const entry = await this.kv.get(key);
      if (entry) this.take(entry);
    }
  }

  /** After the bucket was recreated: the entries read again from the start. */
  async restart(): Promise<void> {
    this.stop();
    this.entries.clear();
    await this.start();
  }

  private take(entry: KvEntry): void {
    const known = this.entries.get(entry.key);
    if (known && known.revision >= entry.revision) return;
    let value: T | null = null;
    if (entry.operation === 'PUT' && entry.length > 0) {
      value = this.parse(entry.string(), entry.key);
      if (value === null) this.rejects?.input.reject(this.rejects.kind, entry.key);
    }
    if (value === null) this.entries.delete(entry.key);
    else this.entries.set(entry.key, { value, created: entry.created, revision: entry.revision });
  }

  /** Key → value and when the server stored it. */
  all(): ReadonlyMap<string, { readonly value: T; readonly created: Date }> {
    return this.entries;
  }

  stop(): void {
    this.stopWatch?.();
    this.stopWatch = null;
  }
}
