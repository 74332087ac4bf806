import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/main/ledger/ledger';
import { SEARCH_INDEX_MAX_MATCHES, searchByIndexSql } from '../../../src/main/ledger/job-search';
import type { JobRecord, JobSpec } from '../../../src/main/ledger/job-record';
import { MIGRATIONS } from '../../../src/main/ledger/migrations';

const spec = (shipmentId: string, reference: string | null, trackingId: string | null): JobSpec => ({
  shipmentId,
  reference,
  trackingId,
  documentType: 'label',
  layout: 'printer',
  target: 'folder:/tmp/x',
  trigger: 'webhook',
});

/** What search() must return: exact or prefix matches ignoring (ASCII) case, newest first. */
function expected(all: readonly JobRecord[], text: string, limit: number, state?: string): string[] {
  const t = text.trim().toLowerCase();
  const hit = (v: string | null) => v !== null && v.toLowerCase().startsWith(t);
  return all
    .filter((j) => (hit(j.shipmentId) || hit(j.reference) || hit(j.trackingId)) && (!state || j.state === state))
    .sort((a, b) => b.seq - a.seq)
    .slice(0, limit)
    .map((j) => j.id);
}

describe('Ledger history search', () => {
  it('plans a text search through the three NOCASE indexes, never a scan of jobs', () => {
    const db = new Database(':memory:');
    try {
      db.exec(MIGRATIONS.map((m) => m.sql).join('\n'));
      for (const withState of [false, true]) {
        const plan = (
          db.prepare(`EXPLAIN QUERY PLAN ${searchByIndexSql(withState)}`).all({ lo: 'a', hi: 'a\uffff', state: 'failed', limit: 100 }) as {
            detail: string;
          }[]
        ).map((r) => r.detail);
        expect(plan.filter((d) => /^SCAN jobs\b/.test(d))).toEqual([]);
        for (const index of ['jobs_shipment', 'jobs_reference', 'jobs_tracking'])
          expect(plan.some((d) => d.includes(`INDEX ${index}`))).toBe(true);
        // The outer lookup goes by key (rowid, or state+seq), not through the table.
        expect(plan[0]).toMatch(/^SEARCH jobs USING (INTEGER PRIMARY KEY|INDEX jobs_state)/);
      }
    } finally {
      db.close();
    }
  });

  describe('results', () => {
    let ledger: Ledger;
    let all: JobRecord[];

    beforeAll(() => {
      ledger = Ledger.open({ path: ':memory:', pruneIntervalMs: 0 });
      const created: JobRecord[] = [];
      ledger.transaction(() => {
        // Enough jobs whose tracking ids share "1Z" for that prefix to go past the index path.
        for (let i = 0; i < SEARCH_INDEX_MAX_MATCHES + 500; i++) {
          created.push(
            ledger.createJob(
              spec(
                `shp_${String(i).padStart(6, '0')}`,
                i % 3 === 0 ? null : `Order-${i}`,
                i % 5 === 0 ? null : `1Z${(i * 7919) % 1_000_003}`,
              ),
            ),
          );
        }
        // One job matching the same text on two columns is returned once.
        created.push(ledger.createJob(spec('dup-77', 'DUP-77-ref', 'dup-77-trk')));
        created.push(ledger.createJob(spec('MiXeD_Case', 'wildcard%_ref', null)));
        for (const j of created) if (j.seq % 7 === 0) ledger.transition(j.id, 'failed');
      });
      all = created.map((j) => ledger.get(j.id)!);
    });
    afterAll(() => ledger.close());

    it('finds exact and prefix matches on each column, ignoring case, newest first, each job once', () => {
      const cases = [
        'order-1234',
        'ORDER-123',
        'shp_000042',
        'SHP_0001',
        '1z7919',
        'dup-77',
        'DUP',
        'mixed_case',
        'wildcard%',
        '%',
        'nothing',
        '  order-99  ',
      ];
      for (const text of cases) {
        for (const limit of [1, 5, 100])
          expect(
            ledger.search({ text, limit }).map((j) => j.id),
            `${text} / ${limit}`,
          ).toEqual(expected(all, text, limit));
        expect(
          ledger.search({ text, state: 'failed' }).map((j) => j.id),
          `${text} / failed`,
        ).toEqual(expected(all, text, 100, 'failed'));
      }
      expect(ledger.search({ text: 'dup-77' })).toHaveLength(1);
      expect(ledger.search({ text: '%' })).toEqual([]);
    });

    it('gives the same answer for a prefix matching most of the table', () => {
      for (const text of ['1Z', '1z', 'o', 'shp_']) {
        expect(
          ledger.search({ text, limit: 50 }).map((j) => j.id),
          text,
        ).toEqual(expected(all, text, 50));
        expect(
          ledger.search({ text, limit: 50, state: 'failed' }).map((j) => j.id),
          text,
        ).toEqual(expected(all, text, 50, 'failed'));
      }
    });
  });
});
