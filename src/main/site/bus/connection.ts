import { readFile } from 'node:fs/promises';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamClient } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { CodedError } from '../../errors';
import {
  BOOKINGS_STREAM,
  BOOKING_SUBJECT_PREFIX,
  CLAIMS_BUCKET,
  DECISIONS_BUCKET,
  RULES_BUCKET,
  STATIONS_BUCKET,
  TAKEN_BUCKET,
} from './names';
import { splitCredentials } from './site-address';
import { backoffDelay } from '../../retry/backoff';
import { SITE, SITE_SETUP } from '../../retry/policies';

/**
 * One connection to the site's NATS server (or cluster), kept for the life of the process:
 * the client reconnects by itself, to any server of the list, for ever. What the site
 * needs on the server (the bookings stream, five KV buckets) is set up by whoever connects
 * first with the right to: on an open site relay or station, on a protected one
 * (site-setup) the relays only; a station there binds to what exists. `ensureSite` sets up
 * again what is missing (a server that lost its store): relays call it every few seconds.
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
  /** PEM file of the CA that signed the server's TLS certificate (`--site-ca`), trusted for this connection only. @default the system's CAs */
  readonly caFile?: string | null;
  /** How long to keep trying to set the site up on a server that does not answer JetStream yet. @default 60000 */
  readonly setupTimeoutMs?: number;
}

export interface SiteBuckets {
  readonly decisions: KV;
  readonly claims: KV;
  readonly stations: KV;
  readonly rules: KV;
  readonly taken: KV;
}

export interface SiteConnection {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly buckets: SiteBuckets;
  /** True while the client holds a link to a server. */
  readonly connected: boolean;
  /** The server this client is linked to requires TLS (its link is encrypted). */
  readonly tls: boolean;
  readonly servers: readonly string[];
  close(): Promise<void>;
}

/** JetStream's publish de-duplication window: a second relay's publish of a booking inside it is dropped. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
const DAY_MS = 24 * 3_600_000;

export async function connectSite(options: SiteConnectionOptions): Promise<SiteConnection> {
  const authenticator = options.credsFile ? credsAuthenticator(await readFile(options.credsFile)) : undefined;
  const { servers, user, pass } = splitCredentials(options.servers);
  const connectOptions = {
    servers,
    ...(user !== null ? { user, pass: pass ?? '' } : {}),
    name: options.name,
    // A site server that restarts, or one node of a cluster that is lost: keep trying, for ever.
    maxReconnectAttempts: SITE.reconnectAttempts,
    reconnectTimeWait: SITE.reconnectWaitMs,
    pingInterval: 5_000,
    maxPingOut: 2,
    ...(authenticator ? { authenticator } : {}),
    ...(options.caFile ? { tls: { caFile: options.caFile } } : {}),
  };
  // One try first, so a server that answers but refuses (its certificate not trusted here, a
  // credential refused) is said at once; a server not up yet is waited for, as long as it takes.
  const nc = await connect({ ...connectOptions, waitOnFirstConnect: false })
    .catch((error: unknown) => {
      if (isRefusal(error)) throw error;
      return connect({ ...connectOptions, waitOnFirstConnect: true });
    })
    .catch((error: unknown) => {
      if (isUntrustedCertificate(error)) {
        throw new SiteUnavailableError(
          `the site's server presented a TLS certificate that is not trusted here (${String(error)}): ` +
            'give the CA that signed it with --site-ca FILE, or check that the address names the host in the certificate',
          { cause: error },
        );
      }
      if (/authoriz|authentic/i.test(String(error))) {
        throw new SiteUnavailableError(
          `the site's server refused this credential (${String(error)}): use the .creds file site-setup wrote for this name (--site-creds)`,
          { cause: error },
        );
      }
      throw error;
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
      get tls() {
        return nc.info?.tls_required === true;
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
  let attempt = 0;
  for (;;) {
    try {
      return await setUp(nc, options);
    } catch (error) {
      if (Date.now() > deadline || nc.isClosed()) throw new SiteUnavailableError(setupProblem(error), { cause: error });
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(SITE_SETUP, attempt++)));
    }
  }
}

/** What went wrong setting the site up, in words an operator can act on. */
export function setupProblem(error: unknown): string {
  const text = String(error);
  if (/permission|authorization/i.test(text)) {
    return `this credential may not set the site up and a relay has not done it yet (${text}): start a relay with its relay credential`;
  }
  if (/jetstream (is )?not enabled|not enabled for account|503|no responders/i.test(text)) {
    return `the site's NATS server does not answer JetStream requests (${text}): start it with -js (JetStream on), or from site-setup's config`;
  }
  return `the site could not be set up on its NATS server (${text}); for a cluster check that its nodes see each other`;
}

function isUntrustedCertificate(error: unknown): boolean {
  return /certificate|self[- ]signed|altname|CERT_/i.test(String(error));
}

/** The server answered and turned this client away: waiting for it changes nothing. */
function isRefusal(error: unknown): boolean {
  return isUntrustedCertificate(error) || /authoriz|authentic/i.test(String(error));
}

function isPermissionError(error: unknown): boolean {
  return /permission|authorization/i.test(String(error));
}

async function setUp(nc: NatsConnection, options: SiteConnectionOptions): Promise<SiteBuckets> {
  try {
    return await ensureSite(nc, options);
  } catch (error) {
    // A station of a protected site may not create: it binds to what the relays set up,
    // once the bookings stream is there.
    if (!isPermissionError(error)) throw error;
    const jsm = await jetstreamManager(nc);
    await jsm.streams.info(BOOKINGS_STREAM);
    return bindBuckets(nc);
  }
}

/** The buckets by name, without asking the server (a station of a protected site). */
export async function bindBuckets(nc: NatsConnection): Promise<SiteBuckets> {
  const kvm = new Kvm(jetstream(nc));
  return {
    decisions: await kvm.open(DECISIONS_BUCKET),
    claims: await kvm.open(CLAIMS_BUCKET),
    stations: await kvm.open(STATIONS_BUCKET),
    rules: await kvm.open(RULES_BUCKET),
    taken: await kvm.open(TAKEN_BUCKET),
  };
}

/**
 * Creates what is missing of the site (the stream, the buckets) and binds the rest; returns
 * which were created, so a relay can restart its watches of a bucket that was recreated.
 */
export async function ensureSite(
  nc: NatsConnection,
  options: Pick<SiteConnectionOptions, 'servers' | 'keepDays' | 'claimMinutes'>,
  created: string[] = [],
): Promise<SiteBuckets> {
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
  const exists = async (stream: string): Promise<boolean> => {
    try {
      await jsm.streams.info(stream);
      return true;
    } catch (error) {
      if (/not found|10059/i.test(String(error))) return false;
      throw error;
    }
  };
  if (!(await exists(BOOKINGS_STREAM))) {
    await jsm.streams.add(config).catch(async (error: unknown) => {
      // Another process added it between our look and our add.
      if (!(await exists(BOOKINGS_STREAM))) throw error;
    });
    created.push(BOOKINGS_STREAM);
  }
  const js = jetstream(nc);
  const kvm = new Kvm(js);
  const bucket = async (name: string, opts: { ttl?: number; history?: number }): Promise<KV> => {
    if (await exists(`KV_${name}`)) return kvm.open(name);
    created.push(name);
    return kvm.create(name, { replicas, history: opts.history ?? 1, ttl: opts.ttl ?? 0, storage: StorageType.File });
  };
  return {
    decisions: await bucket(DECISIONS_BUCKET, { ttl: keepMs }),
    claims: await bucket(CLAIMS_BUCKET, { ttl: (options.claimMinutes ?? 30) * 60_000 }),
    stations: await bucket(STATIONS_BUCKET, {}),
    rules: await bucket(RULES_BUCKET, {}),
    taken: await bucket(TAKEN_BUCKET, { ttl: keepMs }),
  };
}

export class SiteUnavailableError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SITE_UNAVAILABLE', message, options);
  }
}
