/**
 * GET /carriers, cached: a webhook names a booking's carrier by its code, a poll by its
 * name. Routing rules may use either; both map to the code here so a rule matches the
 * booking however it arrived.
 */
import type { CarrierChoice } from '../../shared/agent-api';

export interface CarrierSource {
  carriers(): Promise<{ carriers: ReadonlyArray<{ carrier: string; name?: string | null }> }>;
}

export interface CarrierCacheOptions {
  readonly source: () => CarrierSource;
  /** An unknown carrier asks the service again at most this often. @default 60000 */
  readonly refreshMs?: number;
  /** @default Date.now */
  readonly nowMs?: () => number;
  /** A failed load (the station still routes by the words it has). @default ignored */
  readonly onError?: (error: Error) => void;
}

export class CarrierCache {
  private byKey = new Map<string, string>();
  private known: readonly CarrierChoice[] = [];
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | null = null;

  constructor(private readonly options: CarrierCacheOptions) {}

  /** The carrier's code for a code or a name, lower case; an unknown one as given, lower case (and a refresh is started). */
  readonly key = (codeOrName: string): string => {
    const word = codeOrName.trim().toLowerCase();
    const code = this.byKey.get(word);
    if (code !== undefined) return code;
    const now = (this.options.nowMs ?? Date.now)();
    if (now - this.loadedAt >= (this.options.refreshMs ?? 60_000)) void this.refresh();
    return word;
  };

  /** The service's carriers as last read (empty before the first load or when it failed), for choosing one in a rule. */
  list(): readonly CarrierChoice[] {
    return this.known;
  }

  /** Loads the list; concurrent calls share one request. Never throws (onError hears of failures). */
  refresh(): Promise<void> {
    if (this.loading) return this.loading;
    this.loadedAt = (this.options.nowMs ?? Date.now)();
    this.loading = (async () => {
      try {
        const { carriers } = await this.options.source().carriers();
        const next = new Map<string, string>();
        for (const c of carriers) {
          const code = c.carrier.trim().toLowerCase();
          next.set(code, code);
          if (c.name) next.set(c.name.trim().toLowerCase(), code);
        }
        this.byKey = next;
        this.known = carriers.map((c) => ({ code: c.carrier.trim().toLowerCase(), name: c.name?.trim() || null }));
      } catch (error) {
        this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }
}
