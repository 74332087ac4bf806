import type { BackoffPolicy } from './backoff';

/*
 * The agent's retry policies, by name. Each is the default of the options that tune it
 * (the option names are given); a caller overrides the bounds with withBounds(), never the
 * formula. One layer owns each retry: a job's PDF fetch is retried by the job (JOB_FETCH),
 * never by the service client under it as well (its client makes no retries of its own).
 */

/**
 * A safe call to the service (reads, print as `url`/`file`): retried inside the call by the
 * client's transport. A Retry-After up to `maxMs` is waited out exactly; a longer one ends the
 * call with `retryAfterMs` so its caller reschedules. Options: ServiceClientOptions `retries`,
 * `retryBaseMs`, `retryMaxMs`.
 */
export const SERVICE_CALL: BackoffPolicy & { readonly retries: number } = {
  /** Extra attempts after the first. @default 3 */
  retries: 3,
  /** @default 250 */
  baseMs: 250,
  /** @default 10000 */
  maxMs: 10_000,
  jitter: 'full',
};

/**
 * A job's fetch or spool that failed transiently: the job goes back to the head of its line
 * and waits (showing why: "label not ready yet; retrying in 2 s"); the service's Retry-After
 * wins. The retry index is the job's tries so far, less one. Options: PrintPipelineOptions
 * `maxAttempts`, `retryBaseMs`, `retryMaxMs`.
 */
export const JOB_FETCH: BackoffPolicy & { readonly maxAttempts: number; readonly clientRetries: number } = {
  /** Tries before a transient failure fails the job. @default 8 */
  maxAttempts: 8,
  /** @default 500 */
  baseMs: 500,
  /** @default 30000 */
  maxMs: 30_000,
  jitter: 'full',
  /** The service client a job fetches with retries nothing itself: this policy owns the retries. */
  clientRetries: 0,
};

/**
 * A printer down as a whole, or a line parked on an unexpected step failure: one readiness
 * probe per line, after a wait that doubles with each probe that finds it still down (each
 * fault in a row). It shares the pipeline's `retryBaseMs` and `retryMaxMs` with JOB_FETCH.
 */
export const PRINTER_PROBE: BackoffPolicy = {
  /** @default 500 */
  baseMs: 500,
  /** @default 30000 */
  maxMs: 30_000,
  jitter: 'none',
};

/**
 * A ledger write that failed (disk full, read-only): the pump parks and the guard tries a
 * write again after a wait that doubles with each failure in a row. Options:
 * PrintPipelineOptions `ledgerRetryBaseMs`, `ledgerRetryMaxMs`.
 */
export const LEDGER: BackoffPolicy = {
  /** @default 1000 */
  baseMs: 1000,
  /** @default 30000 */
  maxMs: 30_000,
  jitter: 'none',
};

/**
 * A poll of GET /shipments that failed: the next one waits the interval doubled per failure
 * in a row (its `baseMs` is the poller's interval), ±1 %, at least the service's Retry-After.
 * The same ±1 % spreads the normal interval: enough that stations of one team drift out of step. Options: PollerOptions `maxBackoffSeconds`.
 */
export const POLL: BackoffPolicy = {
  /** Replaced by the poll interval. */
  baseMs: 60_000,
  /** @default 300000 (maxBackoffSeconds 300) */
  maxMs: 300_000,
  jitter: { spread: 0.01 },
  maxDoublings: 16,
};

/**
 * A webhook booking whose decision was put off (its shipment could not be fetched): tried
 * again, across restarts, after a wait that doubles per failure, ±10 %. Options:
 * DecisionRetryOptions `baseMs`, `maxMs`.
 */
export const PENDING_DECISION: BackoffPolicy = {
  /** @default 2000 */
  baseMs: 2000,
  /** @default 300000 (5 minutes) */
  maxMs: 300_000,
  jitter: { spread: 0.1 },
};

/**
 * The spooler follower's poll of the jobs it follows: every `baseMs` (its interval) while
 * anything moves, doubling with each tick in which nothing moved (once nothing has moved for
 * `backOffAfterMs`) up to `maxMs`. The retry index is those still ticks in a row. Options:
 * SpoolerFollowerOptions `intervalMs`, `maxIntervalMs`, `backOffAfterMs`.
 */
export const SPOOLER_FOLLOW: BackoffPolicy = {
  /** Replaced by the follower's interval. @default 500 */
  baseMs: 500,
  /** @default 5000 */
  maxMs: 5_000,
  jitter: 'none',
};

/**
 * A scale's serial port that could not be opened (unplugged, missing): opened again after a
 * wait that doubles from `baseMs` up to `maxMs`, so a scale plugged back in is found within
 * `maxMs`, and a missing one costs one open every `maxMs`. The retry index is the failed
 * opens in a row. Options: ScaleMonitorOptions `reopenMinMs`, `reopenMaxMs`.
 */
export const SCALE_REOPEN: BackoffPolicy = {
  /** @default 250 */
  baseMs: 250,
  /** @default 2000 */
  maxMs: 2_000,
  jitter: 'none',
  maxDoublings: 16,
};

/**
 * A station's join of the site that failed (the site not set up yet, a credential refused),
 * and a relay's first setup of the site that failed (no JetStream yet, a credential or
 * certificate refused): tried again after a random wait up to 2 s doubling to 60 s. Full
 * jitter: after a nats-server restart every station of a site fails its join at the same
 * moment, and equal waits would bring them all back at the same moment, again and again.
 * The retry index is the failed joins.
 */
export const SITE_JOIN: BackoffPolicy = {
  baseMs: 2_000,
  maxMs: 60_000,
  jitter: 'full',
};

/**
 * The site's setup on a connection (streams and buckets), while the cluster elects its meta
 * leader: tried again every second until SiteConnectionOptions `setupTimeoutMs`. A constant
 * wait: the election ends within seconds, and a longer wait would only delay the join.
 */
export const SITE_SETUP: BackoffPolicy = {
  baseMs: 1_000,
  maxMs: 1_000,
  jitter: 'none',
};

/**
 * A station's reading of the bookings stream that stopped on an error: read again after
 * 1 s doubling to 10 s. The retry index is the failures in a row, less one.
 */
export const SITE_CONSUMER: BackoffPolicy = {
  baseMs: 1_000,
  maxMs: 10_000,
  jitter: 'none',
  maxDoublings: 4,
};

/**
 * The site: the NATS client reconnects by itself, to any server of the list, for ever, every
 * `reconnectWaitMs`; the relay's poller comes back within `relayPollMaxMs` of the site
 * returning (its failed polls are mostly the site out of reach).
 */
export const SITE = {
  /** NATS `reconnectTimeWait`. @default 500 */
  reconnectWaitMs: 500,
  /** NATS `maxReconnectAttempts`: -1, for ever. */
  reconnectAttempts: -1,
  /** The relay poller's `maxBackoffSeconds`, in ms. @default 15000 */
  relayPollMaxMs: 15_000,
} as const;
