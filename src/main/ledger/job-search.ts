import type Database from 'better-sqlite3';
import type { JobState } from '../../shared/domain';
import { rowToRecord, type JobRecord, type JobRow } from './job-record';

export interface JobSearch {
  /** Matches reference, tracking id or shipment id: exactly or as a prefix, ignoring case. */
  readonly text?: string;
  readonly state?: JobState;
  /** @default 100 */
  readonly limit?: number;
}

/**
 * Above this many index entries matching a history search, walking the table newest first
 * is likely to beat collecting and sorting them (about 2 ms at the threshold here, where a
 * full walk of 100k jobs takes 18 ms and one that stops early well under 1 ms).
 */
export const SEARCH_INDEX_MAX_MATCHES = 10_000;

// INDEXED BY: the plan must not depend on statistics (ANALYZE) the planner may or may not have.
const SEARCH_RANGES_SQL = `
  SELECT seq FROM jobs INDEXED BY jobs_shipment WHERE shipment_id >= @lo COLLATE NOCASE AND shipment_id < @hi COLLATE NOCASE
  UNION ALL SELECT seq FROM jobs INDEXED BY jobs_reference WHERE reference >= @lo COLLATE NOCASE AND reference < @hi COLLATE NOCASE
  UNION ALL SELECT seq FROM jobs INDEXED BY jobs_tracking WHERE tracking_id >= @lo COLLATE NOCASE AND tracking_id < @hi COLLATE NOCASE`;

/** Counts matching index entries, stopping at @cap. */
const SEARCH_MATCH_COUNT_SQL = `SELECT COUNT(*) AS n FROM (SELECT seq FROM (${SEARCH_RANGES_SQL}) LIMIT @cap)`;

/** The text search through the three indexes (IN removes a job found by two of them twice). */
export function searchByIndexSql(withState: boolean): string {
  return `SELECT * FROM jobs WHERE seq IN (${SEARCH_RANGES_SQL})${withState ? ' AND state = @state' : ''} ORDER BY seq DESC LIMIT @limit`;
}

/** The text search walking the table newest first: for prefixes that match most of it. */
function searchByWalkSql(withState: boolean): string {
  return `SELECT * FROM jobs WHERE ((shipment_id >= @lo COLLATE NOCASE AND shipment_id < @hi COLLATE NOCASE)
      OR (reference >= @lo COLLATE NOCASE AND reference < @hi COLLATE NOCASE)
      OR (tracking_id >= @lo COLLATE NOCASE AND tracking_id < @hi COLLATE NOCASE))${withState ? ' AND state = @state' : ''}
    ORDER BY seq DESC LIMIT @limit`;
}

/**
 * History, newest first. A text search reads the three NOCASE indexes (shipment id,
 * reference, tracking id) as ranges: exact and prefix matches, no LIKE wildcards to escape
 * in what a scanner typed. The three ranges joined by OR made SQLite scan the whole table
 * (25 ms at 100k jobs); as one IN over a UNION ALL of three index ranges it reads only
 * the matching index entries. A short prefix can match most of the table (every UPS
 * tracking id starts "1Z"), where sorting all matches costs more than walking the table
 * newest first and stopping at `limit`: when the ranges hold more than
 * SEARCH_INDEX_MAX_MATCHES entries, that walk is used instead. Both give the same rows in
 * the same order.
 */
export class JobSearcher {
  /** One prepared statement per search shape (text and/or state filter). */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  search(query: JobSearch = {}): JobRecord[] {
    const limit = Math.max(1, Math.min(10_000, Math.floor(query.limit ?? 100)));
    const text = query.text?.trim();
    const state = query.state ?? null;
    if (!text) {
      const sql = `SELECT * FROM jobs ${state ? 'WHERE state = @state' : ''} ORDER BY seq DESC LIMIT @limit`;
      return (this.statement(sql).all({ state, limit }) as JobRow[]).map(rowToRecord);
    }
    const range = { lo: text, hi: `${text}\uffff` };
    const cap = SEARCH_INDEX_MAX_MATCHES + 1;
    const matches = (this.statement(SEARCH_MATCH_COUNT_SQL).get({ ...range, cap }) as { n: number }).n;
    const sql = matches <= SEARCH_INDEX_MAX_MATCHES ? searchByIndexSql(state !== null) : searchByWalkSql(state !== null);
    return (this.statement(sql).all({ ...range, state, limit }) as JobRow[]).map(rowToRecord);
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}
