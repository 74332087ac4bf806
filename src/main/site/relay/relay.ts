import { createHash } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { StationRules } from '../../../shared/domain';
import { ServiceConnection, type ServiceConnectionOptions } from '../../api/service-connection';
import { composeIntake } from '../../intake/compose-intake';
import type { Poller } from '../../intake/sources/polling/poller';
import { PollingSource } from '../../intake/sources/polling/polling-source';
import { WebhookSource } from '../../intake/sources/webhooks/webhook-source';
import { Ledger } from '../../ledger/ledger';
import type { Logger } from '../../log';
import { ClaimsBucket } from '../bus/claims';
import { ensureSite, type SiteConnection } from '../bus/connection';
import { joinSiteWithRetries } from './first-join';
import { RejectedInput, type RejectedKind } from '../bus/rejected-input';
import { TakenMarks } from '../bus/taken-marks';
import { Confirmations } from './confirmations';
import { DecisionsBucket, type DecisionRecord } from '../bus/decisions';
import { FallbackMover } from './fallback-mover';
import { HEARTBEAT_MS, OnlineStations, Presence } from '../bus/presence';
import { SitePublisher } from './publisher';
import { SiteRules } from '../bus/site-rules';
import { SITE } from '../../retry/policies';

/**
 * The relay: the site's intake. The agent's own intake parts (the webhook server with its
 * ledger-backed dedup and pending bookings, the poller with its high-water mark) feed a
 * SitePublisher instead of a print pipeline: every booking is decided for the site and
 * published to it once. It prints nothing and has no printer. Two relays on the same site
 * (each with its own data directory) publish each booking once (decisions bucket, message ids).
 */

/** The relay publishes every booking it sees: which station prints it is the site's decision. */
const EVERY_BOOKING: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };

export interface RelayOptions {
  /** nats:// addresses of the site's server(s). */
  readonly servers: readonly string[];
  readonly apiUrl: string;
  readonly apiKey: string;
  /** Holds the relay's own ledger: webhook message ids, pending bookings, the poll mark. */
  readonly dataDir: string;
  readonly log: Logger;
  /** Receive the service's webhooks; null = none. @default null */
  readonly webhook?: { readonly port: number; readonly host?: string; readonly secrets: readonly string[] } | null;
  /** Seconds between polls; 0 = no polling (webhooks only, one reconciling poll at start). @default 2 */
  readonly pollIntervalSeconds?: number;
  /**
   * `--default-station`, in order. Empty: bookings that no scan claim and no station rule
   * decide wait at the relay (logged, `print_station_site_bookings_waiting`) until one does. @default none
   */
  readonly defaultStations: readonly string[];
  /** Longest a scan claim lasts (the claims bucket's TTL). @default 30 */
  readonly claimMinutes?: number;
  /** How long a booking waits for its offline station before its fallback prints it. @default 120000 */
  readonly fallbackAfterMs?: number;
  /**
   * The relay's name in the site (its heartbeat's key in the Site tab). Stable across
   * restarts, so a restarted relay is the same row, not one more "offline" relay each time;
   * two relays on one host differ by their data directories.
   * @default `relay@<host name>/<6 hex of the data directory's path>`
   */
  readonly name?: string;
  readonly credsFile?: string | null;
  /** The CA of the server's TLS certificate (`--site-ca FILE`). @default the system's CAs */
  readonly caFile?: string | null;
  readonly client?: ServiceConnectionOptions['client'];
  /** A booking was published (metrics, tests). @default none */
  readonly onPublished?: (record: DecisionRecord, fresh: boolean) => void;
  /** The link to the site dropped (false) or came back (true). @default none */
  readonly onLink?: (connected: boolean) => void;
  /** The bookings waiting for a station changed (metrics). @default none */
  readonly onWaiting?: (shipmentIds: readonly string[]) => void;
  /** Something from the site did not fit its format and was set aside (metrics). @default none */
  readonly onRejected?: (kind: RejectedKind) => void;
  /** How often the relay checks that the site's stream and buckets exist (recreating what is missing). @default 10000 */
  readonly healEveryMs?: number;
  /**
   * How long one try to set the site up waits for a server that does not answer JetStream
   * (a cluster electing its leader) before it counts as failed and is tried again (SITE_JOIN). @default 60000
   */
  readonly setupTimeoutMs?: number;
  /** Gives up joining the site (a relay stopped before its server answered): startRelay rejects. @default none */
  readonly signal?: AbortSignal;
}

export interface Relay {
  readonly site: SiteConnection;
  readonly webhookUrl: string | null;
  readonly poller: Poller | null;
  readonly fallback: FallbackMover;
  readonly confirmations: Confirmations;
  /** Checks the site's stream and buckets now, recreating what is missing; exposed for tests. */
  readonly heal: () => Promise<string[]>;
  /** The service requests made so far (for the bench's requests a minute). */
  readonly serviceRequests: () => number;
  /** Shipment ids of bookings that nothing decides yet (a relay without a default station). */
  readonly waitingBookings: () => string[];
  stop(): Promise<void>;
}

export async function startRelay(options: RelayOptions): Promise<Relay> {
  const { log } = options;
  const logger = { info: log.info, warn: log.warn, error: log.error };
  const name = options.name ?? defaultRelayName(options.dataDir);
  const ledger = Ledger.open({ path: join(options.dataDir, 'ledger.sqlite') });
  let requests = 0;
  const connection = new ServiceConnection({ apiUrl: options.apiUrl, apiKey: options.apiKey, client: options.client });
  let site: SiteConnection;
  try {
    site = await joinSiteWithRetries(
      {
        servers: options.servers,
        name,
        claimMinutes: options.claimMinutes,
        credsFile: options.credsFile,
        caFile: options.caFile,
        setupTimeoutMs: options.setupTimeoutMs,
        onLink: (up) => {
          (up ? log.info : log.warn)(up ? 'relay: site connection back' : 'relay: site connection lost; bookings wait with intake');
          options.onLink?.(up);
        },
      },
      log.error,
      options.signal,
    );
  } catch (error) {
    ledger.close();
    await connection.close();
    throw error;
  }
  const { buckets } = site;
  const rejected = new RejectedInput({ warn: log.warn, onRejected: options.onRejected });
  const presence = new Presence(buckets.stations);
  // Every station's heartbeat, rules and claims kept in memory: a booking is decided without reading them each time.
  const online = new OnlineStations(buckets.stations, Date.now, rejected);
  await online.start();
  const decisions = new DecisionsBucket(buckets.decisions, rejected);
  const taken = new TakenMarks(buckets.taken, rejected);
  const rules = await new SiteRules(buckets.rules, rejected).mirrored();
  const claims = await new ClaimsBucket(buckets.claims).mirrored(rejected);
  // Every call the relay makes to the service goes through here, counted for the site's requests a minute.
  const shipments = {
    listShipments: (query: Parameters<ServiceConnection['current']['listShipments']>[0]) => {
      requests++;
      return connection.current.listShipments(query);
    },
    getShipment: (id: string) => {
      requests++;
      return connection.current.getShipment(id);
    },
    tracking: (id: string) => {
      requests++;
      return connection.current.tracking(id);
    },
  };
  // After the site was set up again, deciding waits two heartbeats: stations write their rules back.
  let holdUntil = 0;
  const publisher = new SitePublisher({
    holdUntil: () => holdUntil,
    js: site.js,
    decisions,
    claims,
    rules,
    online,
    defaults: options.defaultStations,
    shipments,
    logger,
    onPublished: (record, fresh, ack) => {
      confirmations.published(record, ack);
      options.onPublished?.(record, fresh);
    },
    onWaiting: options.onWaiting,
  });
  const confirmations = new Confirmations({
    js: site.js,
    jsm: () => jetstreamManager(site.nc),
    decisions: () => decisions,
    taken: () => taken,
    logger,
  });
  await confirmations.start();
  const fallback = new FallbackMover({
    js: site.js,
    decisions,
    taken,
    rules,
    online,
    defaults: options.defaultStations,
    afterMs: options.fallbackAfterMs,
    logger,
  });
  await fallback.start();

  const interval = options.pollIntervalSeconds ?? 2;
  // The agent's own intake, composed the same way (intake/compose-intake.ts), feeding the publisher.
  const intake = composeIntake({
    ledger: ledger.intake,
    shipments,
    stationRules: EVERY_BOOKING,
    logger,
    webhook: options.webhook ?? null,
    polling: () => ({
      intervalSeconds: interval,
      busyIntervalSeconds: Math.max(Math.min(interval, 3), 1),
      cursorName: `site-relay:${options.apiUrl}`,
      // A failed poll here is mostly the site out of reach: try again soon once it is back.
      maxBackoffSeconds: SITE.relayPollMaxMs / 1000,
    }),
  });
  await intake.start(publisher);

  // Work cut off by the stop (a heartbeat, a sweep in flight when the connection closes) says nothing.
  let stopping = false;
  const beat = (): void =>
    void presence.beat(name, { role: 'relay', printers: [], queued: 0, lastPrint: null, failures30m: 0 }).catch((error: unknown) => {
      if (!stopping) log.warn(`relay: heartbeat failed: ${String(error)}`);
    });
  beat();
  const heartbeat = setInterval(beat, HEARTBEAT_MS);
  heartbeat.unref();

  // A server that lost its store (restarted empty, a stream or bucket deleted by hand): set
  // up again what is missing, and follow the new buckets.
  let healing = false;
  const heal = async (): Promise<string[]> => {
    if (healing || !site.connected) return [];
    healing = true;
    const created: string[] = [];
    try {
      await ensureSite(site.nc, { servers: options.servers, claimMinutes: options.claimMinutes }, created);
      if (created.length > 0) {
        holdUntil = Date.now() + 2 * HEARTBEAT_MS;
        log.warn(`relay: the site's server had lost ${created.join(', ')}: set up again`);
        await Promise.all([online.restart(), rules.restart(), claims.restart(), fallback.watch(), confirmations.watch()]);
        await confirmations.sweep();
      }
    } catch (error) {
      log.warn(`relay: checking the site's stream and buckets failed (${String(error)}); trying again`);
    } finally {
      healing = false;
    }
    return created;
  };
  const healer = setInterval(() => void heal(), options.healEveryMs ?? 10_000);
  healer.unref();

  return {
    site,
    webhookUrl: intake.find(WebhookSource)?.url ?? null,
    poller: intake.find(PollingSource)?.poller ?? null,
    fallback,
    confirmations,
    heal,
    serviceRequests: () => requests,
    waitingBookings: () => publisher.waitingBookings(),
    async stop() {
      stopping = true;
      clearInterval(heartbeat);
      clearInterval(healer);
      confirmations.stop();
      claims.stop();
      fallback.stop();
      online.stop();
      rules.stop();
      await intake.stop();
      await site.close();
      await connection.close();
      ledger.close();
    },
  };
}

/** `relay@HOST/abc123`: the same after a restart with the same data directory. */
export function defaultRelayName(dataDir: string): string {
  const place = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 6);
  return `relay@${hostname()}/${place}`;
}
