import { readFile } from 'node:fs/promises';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamClient } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { CodedError } from '../../errors';
import { BOOKINGS_STREAM, BOOKING_SUBJECT_PREFIX, CLAIMS_BUCKET, DECISIONS_BUCKET, RULES_BUCKET, STATIONS_BUCKET } from './names';
import { SITE } from '../../retry/policies';

/**
 * One connection to the site's NATS server (or cluster), kept for the life of the process:
 * the client reconnects by itself, to any server of the list, for ever. What the site
 * needs on the server (the bookings stream, four KV buckets) is set up by whoever connects
 * first, relay or station, with the same settings, so the start order does not matter.
 */

export interface SiteConnectionOptions {
  /** nats:// addresses (site-address.ts). */
  readonly servers: readonly string[];
  /** Shown to the server's monitoring (`connz`). */
  readonly name: string;
  /** Longest a scan claim may last: the claims bucket's TTL. @default 30 minutes */
  readonly claimMinutes?: number;
  /**
   * How long decided bookings stay in the stream and the decisions bucket. Longer than any
   * outage a station should catch up on after it returns. @default 7 days
   */
  readonly keepDays?: number;
  /** Called when the link drops (true) and comes back (false). @default none */
  readonly onLink?: (connected: boolean) => void;
  /** NATS user credentials file (`--site-creds`), for a server with accounts. @default none */
  readonly credsFile?: string | null;
  /** How long to keep trying to set the site up on a server that does not answer JetStream yet. @default 60000 */
  readonly setupTimeoutMs?: number;
}

export interface SiteBuckets {
  readonly decisions: KV;
  readonly claims: KV;
  readonly stations: KV;
  readonly rules: KV;
}

export interface SiteConnection {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly buckets: SiteBuckets;
  /** True while the client holds a link to a server. */
  readonly connected: boolean;
  readonly servers: readonly string[];
  close(): Promise<void>;
}

/** JetStream's publish de-duplication window: a second relay's publish of a booking inside it is dropped. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
const DAY_MS = 24 * 3_600_000;

export async function connectSite(options: SiteConnectionOptions): Promise<SiteConnection> {
  const authenticator = options.credsFile ? credsAuthenticator(await readFile(options.credsFile)) : undefined;
  const nc = await connect({
    servers: [...options.servers],
    name: options.name,
    // A site server that restarts, or one node of a cluster that is lost: keep trying, for ever.
    maxReconnectAttempts: SITE.reconnectAttempts,
    reconnectTimeWait: SITE.reconnectWaitMs,
    waitOnFirstConnect: true,
    pingInterval: 5_000,
    maxPingOut: 2,
    ...(authenticator ? { authenticator } : {}),
  });
  let connected = true;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        connected = false;
        options.onLink?.(false);
      } else if (status.type === 'reconnect') {
        connected = true;
        options.onLink?.(true);
      }
    }
  })().catch(() => undefined);

  try {
    const buckets = await setUpWithRetries(nc, options);
    return {
      nc,
      js: jetstream(nc),
      buckets,
      servers: options.servers,
      get connected() {
        return connected && !nc.isClosed();
      },
      async close() {
        if (nc.isClosed()) return;
        await nc.drain().catch(() => nc.close());
      },
    };
  } catch (error) {
    await nc.close().catch(() => undefined);
    throw error;
  }
}

/**
 * A cluster answers JetStream requests only once it has elected its meta leader (a few
 * seconds after its servers start, or after one is lost): the setup is tried again until
 * `setupTimeoutMs`.
 */
async function setUpWithRetries(nc: NatsConnection, options: SiteConnectionOptions): Promise<SiteBuckets> {
  const deadline = Date.now() + (options.setupTimeoutMs ?? 60_000);
  for (;;) {
    try {
      return await setUp(nc, options);
    } catch (error) {
      if (Date.now() > deadline || nc.isClosed()) {
        throw new SiteUnavailableError(
          `the site's NATS server at ${options.servers.join(',')} does not answer JetStream requests (${String(error)}): ` +
            'start it with -js (JetStream on), and for a cluster check that its nodes see each other',
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

async function setUp(nc: NatsConnection, options: SiteConnectionOptions): Promise<SiteBuckets> {
  // One replica a server, up to three: a three-node cluster keeps every booking on all three.
  const replicas = Math.min(3, options.servers.length);
  const keepMs = (options.keepDays ?? 7) * DAY_MS;
  const jsm = await jetstreamManager(nc);
  const config = {
    name: BOOKINGS_STREAM,
    subjects: [`${BOOKING_SUBJECT_PREFIX}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: keepMs * 1_000_000,
    duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
    num_replicas: replicas,
  };
  try {
    await jsm.streams.info(BOOKINGS_STREAM);
  } catch {
    await jsm.streams.add(config).catch(async (error: unknown) => {
      // Another process added it between our look and our add.
      if (!(await jsm.streams.info(BOOKINGS_STREAM).catch(() => null))) throw error;
    });
  }
  const js = jetstream(nc);
  const kvm = new Kvm(js);
  const bucket = (name: string, opts: { ttl?: number; history?: number }): Promise<KV> =>
    kvm.create(name, { replicas, history: opts.history ?? 1, ttl: opts.ttl ?? 0, storage: StorageType.File });
  return {
    decisions: await bucket(DECISIONS_BUCKET, { ttl: keepMs }),
    claims: await bucket(CLAIMS_BUCKET, { ttl: (options.claimMinutes ?? 30) * 60_000 }),
    stations: await bucket(STATIONS_BUCKET, {}),
    rules: await bucket(RULES_BUCKET, {}),
  };
}

export class SiteUnavailableError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SITE_UNAVAILABLE', message, options);
  }
}
