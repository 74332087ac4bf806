import path from 'node:path';
import { MIGRATIONS } from '../../../src/main/ledger/migrations';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/main/ledger/ledger';
import type { JobSpec } from '../../../src/main/ledger/job-record';
import { tempDir } from '../../support/jobs/fakes';

const label = (shipmentId: string, extra: Partial<JobSpec> = {}): JobSpec => ({
  shipmentId,
  reference: `REF-${shipmentId}`,
  trackingId: `TRK${shipmentId}`,
  documentType: 'label',
  layout: 'printer',
  target: 'folder:/tmp/x',
  trigger: 'webhook',
  ...extra,
});

describe('Ledger', () => {
  let tmp: ReturnType<typeof tempDir>;
  let file: string;
  let ledger: Ledger;
  let clock: Date;

  beforeEach(() => {
    tmp = tempDir();
    file = path.join(tmp.dir, 'data', 'ledger.sqlite');
    clock = new Date('2026-01-10T12:00:00Z');
    ledger = Ledger.open({ path: file, now: () => clock });
  });
  afterEach(() => {
    ledger.close();
    tmp.cleanup();
  });

  it('runs a transaction all or nothing, a nested one in a savepoint, again and again with the same wrapper', () => {
    for (let round = 0; round < 3; round++) {
      const kept = ledger.transaction(() => {
        const outer = ledger.createJob(label(`keep${round}`));
        expect(() =>
          ledger.intake.transaction(() => {
            ledger.createJob(label(`undone${round}`));
            throw new Error('inner fails');
          }),
        ).toThrow('inner fails');
        return outer;
      });
      expect(ledger.get(kept.id)).toMatchObject({ shipmentId: `keep${round}` });
      expect(ledger.jobsForShipment(`undone${round}`)).toEqual([]);
      expect(() =>
        ledger.transaction(() => {
          ledger.createJob(label(`lost${round}`));
          throw new Error('outer fails');
        }),
      ).toThrow('outer fails');
      expect(ledger.jobsForShipment(`lost${round}`)).toEqual([]);
    }
    expect(() => ledger.transaction(async () => ledger.createJob(label('async')))).toThrow(TypeError);
    expect(ledger.jobsForShipment('async')).toEqual([]);
    expect(ledger.totalJobs()).toBe(3);
  });

  it('opens in WAL mode with the schema at the latest version, and reopens without migrating again', () => {
    ledger.createJob(label('s1'));
    ledger.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    raw.close();
    ledger = Ledger.open({ path: file, now: () => clock });
    expect(ledger.search({ text: 's1' })).toHaveLength(1);
  });

  it('creates an automatic job once per (shipment, document type), whatever its state, layout or printer', () => {
    const a = ledger.createAutoJob(label('s1'));
    expect(a.created).toBe(true);
    expect(a.job).toMatchObject({
      shipmentId: 's1',
      state: 'queued',
      attempts: 0,
      trigger: 'webhook',
      idempotencyKey: 's1|label|printer|folder:/tmp/x',
    });
    ledger.transition(a.job.id, 'completed');
    const b = ledger.createAutoJob(label('s1', { trigger: 'poll' }));
    expect(b).toMatchObject({ created: false, job: { id: a.job.id, state: 'completed', trigger: 'webhook' } });
    // The key names layout and target, but a booking already printed automatically is not
    // printed again after the printer or layout setting changed.
    expect(ledger.createAutoJob(label('s1', { layout: 'a4' }))).toMatchObject({ created: false, job: { id: a.job.id } });
    expect(ledger.createAutoJob(label('s1', { target: 'folder:/tmp/y' }))).toMatchObject({ created: false, job: { id: a.job.id } });
    // Another document type of the same shipment is another automatic job.
    expect(ledger.createAutoJob(label('s1', { documentType: 'waybill', layout: 'a4' })).created).toBe(true);
    // Reprints are never deduplicated.
    const r1 = ledger.createJob(label('s1', { trigger: 'reprint' }));
    const r2 = ledger.createJob(label('s1', { trigger: 'reprint' }));
    expect(r1.id).not.toBe(r2.id);
    expect(r1.idempotencyKey).toBeNull();
    expect(ledger.search({ text: 's1' })).toHaveLength(4);
  });

  it('gives time-ordered ids and increasing sequence numbers', () => {
    const jobs = Array.from({ length: 20 }, (_, i) => ledger.createJob(label(`s${i}`)));
    const ids = jobs.map((j) => j.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(20);
    expect(jobs.map((j) => j.seq)).toEqual([...jobs.map((j) => j.seq)].sort((a, b) => a - b));
  });

  it('transitions keep unpatched fields and set patched ones, including null', () => {
    const job = ledger.createJob(label('s1'));
    clock = new Date('2026-01-10T12:00:05Z');
    const failed = ledger.transition(job.id, 'failed', { reason: 'boom', requestId: 'rq-1', attempts: 3 });
    expect(failed).toMatchObject({
      state: 'failed',
      reason: 'boom',
      requestId: 'rq-1',
      attempts: 3,
      updatedAt: '2026-01-10T12:00:05.000Z',
    });
    const queued = ledger.transition(job.id, 'queued', { reason: null });
    expect(queued).toMatchObject({ reason: null, requestId: 'rq-1', attempts: 3 });
    expect(ledger.get(job.id)).toEqual(queued);
    expect(() => ledger.transition('nope', 'queued')).toThrow(expect.objectContaining({ code: 'JOB_NOT_FOUND' }));
  });

  it('searches history by reference, tracking id and shipment id, exactly or by prefix, ignoring case', () => {
    ledger.createJob(label('shp_AAA1', { reference: 'Order-1001', trackingId: 'JD0001' }));
    ledger.createJob(label('shp_BBB2', { reference: 'Order-1002', trackingId: 'JD0002' }));
    const c = ledger.createJob(label('shp_CCC3', { reference: 'X-9', trackingId: '1Z999' }));
    ledger.transition(c.id, 'failed');
    expect(ledger.search({ text: 'order-100' }).map((j) => j.shipmentId)).toEqual(['shp_BBB2', 'shp_AAA1']);
    expect(ledger.search({ text: 'ORDER-1002' }).map((j) => j.shipmentId)).toEqual(['shp_BBB2']);
    expect(ledger.search({ text: 'jd0001' }).map((j) => j.shipmentId)).toEqual(['shp_AAA1']);
    expect(ledger.search({ text: 'shp_CCC3' }).map((j) => j.shipmentId)).toEqual(['shp_CCC3']);
    expect(ledger.search({ text: '%' })).toEqual([]);
    expect(ledger.search({ state: 'failed' }).map((j) => j.id)).toEqual([c.id]);
    expect(ledger.search({ limit: 2 })).toHaveLength(2);
  });

  it('lists in-flight and pending jobs in creation order, and counts by state', () => {
    const a = ledger.createJob(label('a'));
    const b = ledger.createJob(label('b'));
    const c = ledger.createJob(label('c', { target: 'folder:/other' }));
    const d = ledger.createJob(label('d'));
    ledger.transition(b.id, 'fetching');
    ledger.transition(d.id, 'spooled', { spoolerJobId: 'q-1' });
    expect(ledger.inFlight().map((j) => j.id)).toEqual([b.id, d.id]);
    expect(ledger.pending('folder:/tmp/x').map((j) => j.id)).toEqual([a.id, b.id]);
    expect(ledger.pending('folder:/other').map((j) => j.id)).toEqual([c.id]);
    expect(ledger.open().map((j) => j.id)).toEqual([a.id, b.id, c.id, d.id]);
    expect(ledger.counts()).toMatchObject({ queued: 2, fetching: 1, spooled: 1, completed: 0 });
  });

  it('remembers webhook message ids once', () => {
    expect(ledger.rememberMessage('m1')).toBe(true);
    expect(ledger.rememberMessage('m1')).toBe(false);
    expect(ledger.rememberMessage('m2')).toBe(true);
  });

  it('resolves scans through the local shipment index by id, reference or tracking id', () => {
    ledger.upsertShipment({
      shipmentId: 'shp_1',
      referenceId: 'Order-77',
      trackingId: 'JJD00012345',
      carrier: 'DHL',
      source: 'API',
      bookedAt: null,
      data: { a: 1 },
    });
    ledger.upsertShipment({
      shipmentId: 'shp_1',
      referenceId: null,
      trackingId: null,
      carrier: null,
      source: null,
      bookedAt: '2026-01-01T00:00:00Z',
      data: null,
    });
    expect(ledger.findShipmentIdByScan('shp_1')).toBe('shp_1');
    expect(ledger.findShipmentIdByScan('order-77')).toBe('shp_1');
    expect(ledger.findShipmentIdByScan(' jjd00012345 ')).toBe('shp_1');
    expect(ledger.findShipmentIdByScan('nothing')).toBeNull();
    expect(ledger.lookupShipment('JJD00012345')).toMatchObject({
      matchedBy: 'tracking_id',
      shipment: { referenceId: 'Order-77', data: { a: 1 }, bookedAt: '2026-01-01T00:00:00Z' },
    });
  });

  it('deduplicates tracking events and returns them newest first by occurrence, not arrival', () => {
    const ev = (status: string, occurredAt: string, id: string | null = null) => ({
      id,
      status,
      description: status.toLowerCase(),
      location: null,
      occurredAt,
      url: null,
    });
    expect(ledger.recordTracking('s1', ev('DELIVERED', '2026-01-03T10:00:00+02:00'))).toBe(true);
    expect(ledger.recordTracking('s1', ev('ORDERED', '2026-01-01T10:00:00Z'))).toBe(true);
    expect(ledger.recordTracking('s1', ev('IN_TRANSIT', '2026-01-03T09:00:00Z'))).toBe(true);
    expect(ledger.recordTracking('s1', ev('ORDERED', '2026-01-01T10:00:00Z'))).toBe(false);
    expect(ledger.recordTracking('s2', ev('ORDERED', '2026-01-01T10:00:00Z'))).toBe(true);
    expect(ledger.trackingFor('s1').map((e) => e.status)).toEqual(['IN_TRANSIT', 'DELIVERED', 'ORDERED']);
  });

  it('persists cursors and pauses', () => {
    expect(ledger.getCursor('poll')).toBeNull();
    ledger.setCursor('poll', '2026-01-01T00:00:00Z');
    ledger.setCursor('poll', '2026-01-02T00:00:00Z');
    ledger.setPaused('*', true);
    ledger.close();
    ledger = Ledger.open({ path: file, now: () => clock });
    expect(ledger.getCursor('poll')).toBe('2026-01-02T00:00:00Z');
    expect(ledger.pausedScopes()).toEqual(['*']);
  });

  it('prunes finished jobs by age and by row bound, never unfinished ones, plus old intake data', () => {
    clock = new Date('2025-09-01T00:00:00Z');
    const old = ledger.createJob(label('old'));
    ledger.transition(old.id, 'completed');
    const oldOpen = ledger.createJob(label('old-open'));
    ledger.rememberMessage('old-msg');
    ledger.recordTracking('old', {
      id: 'e1',
      status: 'ORDERED',
      description: null,
      location: null,
      occurredAt: '2025-09-01T00:00:00Z',
      url: null,
    });
    clock = new Date('2026-01-10T12:00:00Z');
    const recent = Array.from({ length: 5 }, (_, i) => {
      const j = ledger.createJob(label(`r${i}`));
      return ledger.transition(j.id, i % 2 ? 'failed' : 'completed');
    });
    ledger.rememberMessage('new-msg');

    const first = ledger.prune({ maxAgeDays: 90 });
    expect(first).toMatchObject({ jobs: 1, messages: 1, tracking: 1 });
    expect(ledger.get(old.id)).toBeNull();
    expect(ledger.get(oldOpen.id)).not.toBeNull();
    expect(ledger.rememberMessage('new-msg')).toBe(false);
    expect(ledger.rememberMessage('old-msg')).toBe(true);

    expect(ledger.prune({ maxRows: 2 }).jobs).toBe(3);
    expect(
      ledger
        .search({ limit: 100 })
        .map((j) => j.id)
        .sort(),
    ).toEqual([oldOpen.id, recent[3]!.id, recent[4]!.id].sort());
  });

  it('prunes at open with the configured retention', () => {
    clock = new Date('2025-01-01T00:00:00Z');
    ledger.transition(ledger.createJob(label('old')).id, 'canceled');
    ledger.close();
    clock = new Date('2025-01-20T00:00:00Z');
    ledger = Ledger.open({ path: file, now: () => clock, retention: { maxAgeDays: 7 } });
    expect(ledger.totalJobs()).toBe(0);
  });
});
