import type Database from 'better-sqlite3';

/**
 * Versioned schema migrations. `PRAGMA user_version` holds the number of the last one
 * applied; each runs in its own transaction, so a crash mid-migration leaves the file at
 * the previous version. Append new migrations; never edit a released one.
 */
export const MIGRATIONS: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE jobs (
        -- Creation order: FIFO per target follows it, independent of the wall clock.
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        shipment_id TEXT NOT NULL,
        reference TEXT,
        tracking_id TEXT,
        document_type TEXT NOT NULL,
        layout TEXT NOT NULL,
        target TEXT NOT NULL,
        copies INTEGER NOT NULL DEFAULT 1,
        trigger TEXT NOT NULL,
        state TEXT NOT NULL,
        reason TEXT,
        request_id TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        spooler_job_id TEXT,
        -- Automatic jobs only (shipment|document type|layout|target); NULL for reprints,
        -- and SQLite lets any number of NULLs share a UNIQUE column.
        idempotency_key TEXT UNIQUE,
        booked_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        next_attempt_at TEXT,
        held INTEGER NOT NULL DEFAULT 0,
        -- 1 once spool() was called: from then on the job may be at the spooler, so it is
        -- looked up by title (findSpooled) before it is ever sent again.
        spool_attempted INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX jobs_shipment ON jobs(shipment_id COLLATE NOCASE);
      CREATE INDEX jobs_reference ON jobs(reference COLLATE NOCASE);
      CREATE INDEX jobs_tracking ON jobs(tracking_id COLLATE NOCASE);
      CREATE INDEX jobs_state ON jobs(state, seq);
      CREATE INDEX jobs_open ON jobs(target, seq) WHERE state IN ('queued', 'fetching', 'spooling', 'spooled');
      CREATE INDEX jobs_finished ON jobs(updated_at) WHERE state IN ('completed', 'failed', 'canceled');

      CREATE TABLE webhook_messages (
        message_id TEXT PRIMARY KEY,
        received_at TEXT NOT NULL
      );
      CREATE INDEX webhook_messages_received ON webhook_messages(received_at);

      CREATE TABLE shipments_seen (
        shipment_id TEXT PRIMARY KEY,
        reference_id TEXT,
        tracking_id TEXT,
        carrier TEXT,
        source TEXT,
        booked_at TEXT,
        data TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX shipments_seen_reference ON shipments_seen(reference_id COLLATE NOCASE);
      CREATE INDEX shipments_seen_tracking ON shipments_seen(tracking_id COLLATE NOCASE);
      CREATE INDEX shipments_seen_updated ON shipments_seen(updated_at);

      CREATE TABLE tracking_events (
        shipment_id TEXT NOT NULL,
        event_key TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        description TEXT,
        location TEXT,
        occurred_at TEXT NOT NULL,
        -- occurred_at as epoch ms: ISO strings with different offsets do not sort as text.
        occurred_ms INTEGER NOT NULL,
        data TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      );
      CREATE INDEX tracking_events_shipment ON tracking_events(shipment_id, occurred_ms);
      CREATE INDEX tracking_events_recorded ON tracking_events(recorded_at);

      CREATE TABLE cursors (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      -- Pauses survive a restart: '*' = automatic printing as a whole, else a printer URI.
      CREATE TABLE pauses (
        scope TEXT PRIMARY KEY,
        paused_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    sql: `
      -- Webhook bookings accepted (acknowledged) but not yet decided by the station rules:
      -- written in the same transaction as the message id, before the 2xx, and removed once
      -- the booking is decided (submitted as a job, or not printed with the facts its rules
      -- need). A failed shipment fetch keeps the row, retried at next_attempt_at.
      CREATE TABLE intake_pending (
        shipment_id TEXT PRIMARY KEY,
        notice TEXT NOT NULL,
        data TEXT,
        received_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        reason TEXT
      );
    `,
  },
  {
    version: 3,
    sql: `
      -- Every parcel's own tracking number (packages[].tracking_ids): a scan of any parcel
      -- of a multi-parcel shipment finds the shipment, not only the first one's.
      CREATE TABLE shipment_parcels (
        tracking_id TEXT NOT NULL,
        shipment_id TEXT NOT NULL,
        PRIMARY KEY (tracking_id, shipment_id)
      );
      CREATE INDEX shipment_parcels_tracking ON shipment_parcels(tracking_id COLLATE NOCASE);
      CREATE INDEX shipment_parcels_shipment ON shipment_parcels(shipment_id);
      -- 1 once the service's full record (with its packages) was indexed; a webhook booking
      -- carries no packages, so its parcel numbers are fetched on the first scan that misses.
      ALTER TABLE shipments_seen ADD COLUMN parcels_known INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 4,
    sql: `
      -- Batches (jobs/batching.ts): consecutive jobs of one lane with the same document type,
      -- layout and copies, fetched with one print call and spooled as one job titled with the
      -- batch id, which crash recovery looks up (findSpooled) for every member.
      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        target TEXT NOT NULL,
        document_type TEXT NOT NULL,
        layout TEXT NOT NULL,
        -- claimed, spooling, spooled, dissolved
        state TEXT NOT NULL,
        spooler_job_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      ALTER TABLE jobs ADD COLUMN batch_id TEXT;
      CREATE INDEX jobs_batch ON jobs(batch_id) WHERE batch_id IS NOT NULL;
    `,
  },
  {
    version: 5,
    sql: `
      -- A reason's message code and parameters as JSON (src/shared/agent-messages.ts), next to
      -- its English text in reason, so the UI words history in its language. Older rows keep
      -- NULL and show their stored English.
      ALTER TABLE jobs ADD COLUMN reason_message TEXT;
      ALTER TABLE intake_pending ADD COLUMN reason_message TEXT;
    `,
  },
  {
    version: 6,
    sql: `
      -- Shipments known to be canceled (ledger/shipment-cancels.ts): by this station's "Cancel
      -- shipment" (source station) or seen at the service (source service: a CANCELED
      -- tracking event, a poll, the check before spooling, the end-of-day list). End of day
      -- and the report command read it, so a cancel outlives a restart and a service that cannot be read.
      CREATE TABLE shipment_cancels (
        shipment_id TEXT PRIMARY KEY COLLATE NOCASE,
        source TEXT NOT NULL,
        canceled_at TEXT NOT NULL,
        request_id TEXT,
        recorded_at TEXT NOT NULL
      );
      CREATE INDEX shipment_cancels_recorded ON shipment_cancels(recorded_at);
    `,
  },
  {
    version: 7,
    sql: `
      -- A site station's jobs keep the site's decision (JSON of JobSiteDecision in
      -- src/shared/domain.ts): why the booking prints at this station, for its history.
      -- NULL outside a site and on older rows.
      ALTER TABLE jobs ADD COLUMN site_decision TEXT;
    `,
  },
];

export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
