import { KvWatchInclude } from '@nats-io/kv';
import type { StationRules } from '../../../shared/domain';
import type { SiteDecisionView, SiteStationView, SiteStatusView } from '../../../shared/site';
import { AGENT_ERROR_CODES } from '../../../shared/agent-error-codes';
import { CodedError } from '../../errors';
import type { IntakeSink, IntakeSource } from '../../intake/intake-source';
import type { Logger } from '../../log';
import { backoffDelay } from '../../retry/backoff';
import { SITE_JOIN } from '../../retry/policies';
import { ClaimsBucket } from '../bus/claims';
import { connectSite, type SiteConnection } from '../bus/connection';
import { RejectedInput, type RejectedKind } from '../bus/rejected-input';
import { maskPassword, missingProtections, protectionWarning, type MissingProtection } from '../bus/site-address';
import { TakenMarks } from '../bus/taken-marks';
import { parseDecision } from '../bus/decisions';
import { DecisionsBucket, type DecisionRecord } from '../bus/decisions';
import { HEARTBEAT_MS, Presence, type Heartbeat } from '../bus/presence';
import { SiteRules } from '../bus/site-rules';
import { StationConsumer } from './station-consumer';

/**
 * A station's part in a site (`--site`): the site is one more intake source. It connects in
 * the background (the agent starts, and prints, whether or not the site is up), reads its
 * bookings with its durable consumer, writes its heartbeat and its rules, and claims what
 * is scanned here. When the site stays lost for `lostAfterMs`, `onLost(true)` lets the agent
 * poll the service slowly meanwhile (to keep scans finding shipments; the site still
 * decides who prints, so nothing prints at two tables); `onLost(false)` when it is back and
 * the durable consumer delivers what was decided meanwhile.
 */

export interface SiteStationOptions {
  readonly servers: readonly string[];
  /** This station's name in the site (`--station-name`). */
  readonly station: string;
  /** How long a scan here claims the scanned code. @default 30 */
  readonly claimMinutes?: number;
  /** Where this station's bookings go when it is down. @default none (the site's default stations) */
  readonly fallbackStation?: string | null;
  readonly credsFile?: string | null;
  /** The CA of the server's TLS certificate (`--site-ca FILE`). @default the system's CAs */
  readonly caFile?: string | null;
  readonly log: Logger;
  /** This station's rules as its settings hold them. */
  readonly stationRules: () => StationRules;
  /** The site holds other rules for this station (edited at another station): keep them. @default none */
  readonly onRules?: (rules: StationRules) => void;
  /** What the heartbeat tells the site. */
  readonly heartbeat: () => Heartbeat | Promise<Heartbeat>;
  readonly onLost?: (lost: boolean) => void;
  /** @default 10000 */
  readonly lostAfterMs?: number;
  readonly onTaken?: (record: DecisionRecord) => void;
  readonly onDelivered?: (lagMs: number) => void;
  /** The link went down (false) or came up (true). @default none */
  readonly onLink?: (connected: boolean) => void;
  /** Something from the site did not fit its format and was set aside (metrics). @default none */
  readonly onRejected?: (kind: RejectedKind) => void;
}

const RECENT_DECISIONS = 50;

export class SiteStation implements IntakeSource {
  /** The print pipeline, once started. */
  private sink: IntakeSink | null = null;
  private connection: SiteConnection | null = null;
  private consumer: StationConsumer | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private lostTimer: NodeJS.Timeout | null = null;
  private lost = false;
  private stopped = false;
  private lastRules: string | null = null;
  private readonly recent: SiteDecisionView[] = [];
  private stopWatch: (() => void) | null = null;
  private readonly rejected: RejectedInput;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Why the last try to join failed, while it has not joined yet (the start's waiting line says it). */
  joinProblem: string | null = null;
  /** Resolves once connected and reading bookings. */
  readonly ready: Promise<void>;
  private resolveReady!: () => void;

  constructor(private readonly options: SiteStationOptions) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.rejected = new RejectedInput({ warn: options.log.warn, onRejected: options.onRejected });
  }

  /** The protections this station's link to the site lacks, in words (the Site tab and the start's `warning:` line). */
  protectionWarning(): string | null {
    return protectionWarning('site', this.missingProtections());
  }

  private missingProtections(): MissingProtection[] {
    return missingProtections(this.options.servers, this.options.credsFile, this.connection?.tls ?? false);
  }

  /** The site's address as shown and logged (a password in it masked). */
  get address(): string {
    return maskPassword(this.options.servers.join(','));
  }

  get name(): string {
    return this.options.station;
  }

  get connected(): boolean {
    return this.connection?.connected ?? false;
  }

  /** Joins the site in the background: resolves at once, whether or not the site answers. */
  async start(sink: IntakeSink): Promise<void> {
    this.sink = sink;
    this.armLost();
    this.join(0);
  }

  /**
   * A join that fails (the site not set up yet, a credential refused) is tried again after a
   * random wait up to 2 s doubling to 60 s (SITE_JOIN).
   */
  private join(failures: number): void {
    void this.connect().catch((error: unknown) => {
      if (this.stopped) return;
      const waitMs = backoffDelay(SITE_JOIN, failures);
      this.joinProblem = error instanceof Error ? error.message : String(error);
      this.options.log.error(
        `site: cannot join ${this.address}: ${String(error)}; trying again in ${Math.max(1, Math.round(waitMs / 1000))} s`,
      );
      this.retryTimer = setTimeout(() => this.join(failures + 1), waitMs);
      this.retryTimer.unref();
    });
  }

  private async connect(): Promise<void> {
    const { log, station } = this.options;
    const connection = await connectSite({
      servers: this.options.servers,
      name: station,
      claimMinutes: this.options.claimMinutes,
      credsFile: this.options.credsFile,
      caFile: this.options.caFile,
      onLink: (up) => {
        (up ? log.info : log.warn)(up ? `site: connection back` : `site: connection to ${this.address} lost`);
        if (up) this.found();
        else this.armLost();
        this.options.onLink?.(up);
      },
    });
    if (this.stopped) return void (await connection.close());
    const { buckets } = connection;
    try {
      this.connection = connection;
      await this.syncRules();
    } catch (error) {
      this.connection = null;
      await connection.close();
      throw error;
    }
    this.consumer = new StationConsumer({
      nc: connection.nc,
      js: connection.js,
      decisions: new DecisionsBucket(buckets.decisions, this.rejected),
      taken: new TakenMarks(buckets.taken, this.rejected),
      rejected: this.rejected,
      station,
      sink: this.sink!,
      logger: { info: log.info, warn: log.warn, error: log.error },
      onTaken: this.options.onTaken,
      onDelivered: this.options.onDelivered,
    });
    await this.consumer.start();
    // The site's latest decisions, from before this start as well: the watch resumes a little
    // way back in the bucket's history and then follows each new one.
    const lastSeq = (await buckets.decisions.status()).streamInfo.state.last_seq;
    const watch = await buckets.decisions.watch(
      lastSeq > 0 ? { resumeFromRevision: Math.max(1, lastSeq - RECENT_DECISIONS * 2) } : { include: KvWatchInclude.UpdatesOnly },
    );
    this.stopWatch = () => watch.stop();
    void (async () => {
      for await (const entry of watch) {
        if (entry.operation !== 'PUT' || entry.length === 0) continue;
        const record = parseDecision(entry.string());
        if (record) this.remember(record);
      }
    })().catch(() => undefined);
    await this.beat();
    this.heartbeatTimer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeatTimer.unref();
    this.found();
    this.joinProblem = null;
    this.options.onLink?.(true);
    this.resolveReady();
  }

  private remember(record: DecisionRecord): void {
    const at = this.recent.findIndex((d) => d.shipmentId === record.shipmentId);
    if (at >= 0) this.recent.splice(at, 1);
    this.recent.unshift({
      shipmentId: record.shipmentId,
      referenceId: record.notice.referenceId,
      station: record.station,
      reason: record.reason,
      why: record.why,
      decidedAt: record.decidedAt,
      claimedAt: record.claim?.at ?? null,
      movedFrom: record.movedFrom ?? null,
      takenBy: record.takenBy,
    });
    this.recent.length = Math.min(this.recent.length, RECENT_DECISIONS);
  }

  private armLost(): void {
    if (this.lostTimer || this.lost || this.stopped) return;
    this.lostTimer = setTimeout(() => {
      this.lostTimer = null;
      if (this.connected || this.stopped) return;
      this.lost = true;
      this.options.log.warn(
        `site: ${this.address} out of reach; polling the service slowly until it is back (the site decides what prints)`,
      );
      this.options.onLost?.(true);
    }, this.options.lostAfterMs ?? 10_000);
    this.lostTimer.unref();
  }

  private found(): void {
    if (this.lostTimer) clearTimeout(this.lostTimer);
    this.lostTimer = null;
    if (!this.lost) return;
    this.lost = false;
    this.options.log.info('site: back; bookings decided meanwhile arrive now');
    this.options.onLost?.(false);
  }

  /**
   * Keeps this station's rules and the site's copy as one: at the first sync the site's copy
   * wins (it may have been edited at another station meanwhile), later a change written at
   * another station is taken into this station's settings, and a change in this station's
   * settings is written to the site. Last write wins.
   */
  private async syncRules(): Promise<void> {
    const rules = new SiteRules(this.connection!.buckets.rules);
    const stored = await rules.get(this.options.station);
    const storedText = stored ? JSON.stringify(stored.rules) : null;
    const local = this.options.stationRules();
    const localText = JSON.stringify(local);
    // `--fallback-station` when given, else whatever the site holds.
    const fallback = this.options.fallbackStation ?? stored?.fallback ?? null;
    if (stored && storedText !== this.lastRules && (this.lastRules === null || storedText !== localText)) {
      // Written at another station (or before this start): this station takes it.
      this.lastRules = storedText;
      if (storedText !== localText) this.options.onRules?.(stored.rules);
      if (stored.fallback !== fallback) await rules.put(this.options.station, { rules: stored.rules, fallback });
      return;
    }
    if (stored && localText === this.lastRules && stored.fallback === fallback) return;
    if (stored && localText === storedText && stored.fallback === fallback) {
      this.lastRules = localText;
      return;
    }
    await rules.put(this.options.station, { rules: local, fallback });
    this.lastRules = localText;
  }

  /** Writes a station's rules into the site (Settings of any station); this station's own go through its settings too. */
  async saveRules(station: string, value: StationRules): Promise<void> {
    const connection = this.connection;
    if (!connection || !this.connected) {
      throw new CodedError(AGENT_ERROR_CODES.SITE_UNAVAILABLE, `The site ${this.address} is out of reach: save the rules once it is back.`);
    }
    const rules = new SiteRules(connection.buckets.rules);
    const existing = await rules.get(station);
    await rules.put(station, {
      rules: value,
      fallback: existing?.fallback ?? (station === this.options.station ? (this.options.fallbackStation ?? null) : null),
    });
    if (station === this.options.station) {
      this.lastRules = JSON.stringify(value);
      this.options.onRules?.(value);
    }
  }

  /** This station's settings changed its rules: write them to the site now (never throws). */
  async rulesChanged(): Promise<void> {
    const connection = this.connection;
    if (!connection) return; // written when it connects
    try {
      await this.syncRules();
    } catch (error) {
      this.options.log.warn(`site: could not write this station's rules (${String(error)}); written with the next heartbeat`);
    }
  }

  private async beat(): Promise<void> {
    const connection = this.connection;
    if (!connection || this.stopped) return;
    try {
      await this.syncRules();
      await new Presence(connection.buckets.stations).beat(this.options.station, await this.options.heartbeat());
    } catch (error) {
      this.options.log.warn(`site: heartbeat failed: ${String(error)}`);
    }
  }

  /** A scan here: the scanned text is this station's for claimMinutes. Waits at most 1 s; never throws. */
  async claim(code: string): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    const put = new ClaimsBucket(connection.buckets.claims).claim(code, this.options.station, this.options.claimMinutes ?? 30);
    const timeout = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 1_000).unref());
    try {
      if ((await Promise.race([put, timeout])) === 'late') this.options.log.warn(`site: claim of ${code} is late (site slow or lost)`);
    } catch (error) {
      this.options.log.warn(`site: could not claim ${code}: ${String(error)}`);
    }
  }

  async status(): Promise<SiteStatusView> {
    const connection = this.connection;
    let stations: SiteStationView[] = [];
    if (connection && this.connected) {
      try {
        const [listed, rules] = await Promise.all([
          new Presence(connection.buckets.stations, Date.now, this.rejected).list(),
          new SiteRules(connection.buckets.rules, this.rejected).all(),
        ]);
        stations = listed.map((s) => ({ ...s, rules: rules.get(s.name)?.rules ?? null, fallback: rules.get(s.name)?.fallback ?? null }));
      } catch {
        stations = [];
      }
    }
    return {
      enabled: true,
      address: this.address,
      station: this.options.station,
      connected: this.connected,
      missingProtection: this.missingProtections(),
      stations,
      decisions: [...this.recent],
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.lostTimer) clearTimeout(this.lostTimer);
    this.stopWatch?.();
    await this.consumer?.stop();
    await this.connection?.close();
  }
}
