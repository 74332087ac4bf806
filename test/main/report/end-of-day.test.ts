import { describe, expect, it } from 'vitest';
import type { StationRules } from '../../../src/shared/domain';
import type { SeenShipment } from '../../../src/main/ledger/intake-store';
import type { JobRecord } from '../../../src/main/ledger/job-record';
import { jobRecord } from '../../support/jobs/records';
import { dayWindow, localDay, ReportDayError } from '../../../src/main/report/day-window';
import { buildEndOfDay, standing, type ListedBooking } from '../../../src/main/report/end-of-day';
import { agentMessage, englishOf, plainMessage } from '../../../src/shared/agent-messages';
import { csvCell, endOfDayCountsLine, endOfDayCsv } from '../../../src/shared/end-of-day-csv';

const window = dayWindow('2026-11-24');
/** An instant `h` hours into the day, station time. */
const at = (h: number): string => new Date(window.start.getTime() + h * 3_600_000).toISOString();
const ALL: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };

let seq = 0;
function job(overrides: Partial<JobRecord>): JobRecord {
  seq++;
  return jobRecord({
    id: `job-${seq}`,
    createdAt: at(9),
    updatedAt: at(9.25),
    seq,
    bookedAt: at(9),
    ...overrides,
  });
}

function listed(id: string, h: number, extra: Partial<ListedBooking['shipment']> = {}): ListedBooking {
  return {
    shipment: {
      id,
      reference_id: `REF-${id}`,
      tracking_id: `TRK-${id}`,
      carrier_name: 'PostNord',
      status: 'BOOKED',
      booked_at: at(h),
      ...extra,
    },
    bookedAt: at(h),
  };
}

const build = (listedRows: ListedBooking[] | null, jobs: JobRecord[], rules = ALL, seen: Record<string, Partial<SeenShipment>> = {}) =>
  buildEndOfDay({
    window,
    listed: listedRows,
    serviceError: listedRows === null ? { code: 'SERVICE_UNAVAILABLE', message: 'down', requestId: 'req-1' } : null,
    jobs,
    seen: (id) => {
      const known = seen[id];
      if (!known) return null;
      return { shipmentId: id, referenceId: null, trackingId: null, carrier: null, source: null, bookedAt: null, data: null, ...known };
    },
    rules,
    now: new Date(at(17)),
  });

describe('end-of-day report', () => {
  it('puts every booking in exactly one state, a booking only the service knows as not printed', () => {
    const report = build(
      [
        listed('A', 8),
        listed('B', 9),
        listed('C', 10),
        listed('D', 11),
        listed('E', 12),
        listed('F', 13),
        listed('G', 14, { status: 'CANCELED' }),
        listed('H', 15),
      ],
      [
        job({ shipmentId: 'A', state: 'completed', trigger: 'webhook', updatedAt: at(8.5) }),
        job({ shipmentId: 'B', state: 'spooled' }),
        job({ shipmentId: 'C', state: 'failed', reason: 'printer gone; it may have printed: check the printer, then retry by hand' }),
        job({ shipmentId: 'D', state: 'failed', reason: 'the service refused the label (request id r-9)' }),
        job({ shipmentId: 'E', state: 'queued', held: true }),
        // F: booked at the service, never reached the station.
        job({ shipmentId: 'G', state: 'completed' }),
        job({ shipmentId: 'H', state: 'canceled', reason: 'canceled by hand' }),
      ],
    );
    const states = Object.fromEntries(report.rows.map((r) => [r.shipmentId, r.state]));
    expect(states).toEqual({
      A: 'printed',
      B: 'may_have_printed',
      C: 'may_have_printed',
      D: 'failed',
      E: 'not_printed',
      F: 'not_printed',
      G: 'canceled',
      H: 'canceled',
    });
    expect(report.counts).toEqual({ booked: 8, printed: 1, may_have_printed: 2, failed: 1, not_printed: 2, canceled: 2 });
    const f = report.rows.find((r) => r.shipmentId === 'F')!;
    expect(f).toMatchObject({ reference: 'REF-F', carrier: 'PostNord', trackingId: 'TRK-F', seenBy: 'service' });
    expect(f.detail).toBe('never reached this station');
    expect(report.rows.find((r) => r.shipmentId === 'A')).toMatchObject({ printedAt: at(8.5), printer: 'folder:/prints', seenBy: 'both' });
    expect(report.rows.find((r) => r.shipmentId === 'E')!.detail).toBe('held: automatic printing is paused');
    expect(report.rows.find((r) => r.shipmentId === 'D')!.detail).toContain('request id r-9');
    expect(report.rows.map((r) => r.shipmentId)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']);
  });

  it('carries each detail as a message code beside the English it composes', () => {
    const gaveUp = agentMessage('job.gaveUp', { cause: plainMessage('service.unreachable'), attempts: 5 });
    const report = build(
      [listed('F', 8), listed('Q', 9), listed('E', 10), listed('D', 11), listed('T', 12), listed('G', 13, { status: 'CANCELED' })],
      [
        job({ shipmentId: 'Q', state: 'fetching' }),
        job({ shipmentId: 'E', state: 'queued', held: true }),
        job({ shipmentId: 'D', state: 'failed', reason: englishOf(gaveUp), reasonMessage: gaveUp }),
        job({ shipmentId: 'T', state: 'failed', reason: 'typed by an older build' }),
      ],
    );
    const of = (id: string) => report.rows.find((r) => r.shipmentId === id)!;
    expect(of('F')).toMatchObject({ detail: 'never reached this station', detailMessage: { code: 'report.neverReached', params: {} } });
    expect(of('Q')).toMatchObject({
      detail: 'waiting in the queue (fetching)',
      detailMessage: { code: 'report.waiting', params: { state: 'fetching' } },
    });
    expect(of('E').detailMessage).toEqual(plainMessage('report.held'));
    expect(of('D')).toMatchObject({ detail: englishOf(gaveUp), detailMessage: gaveUp });
    expect(of('T').detail).toBe('typed by an older build');
    expect(of('T')).not.toHaveProperty('detailMessage');
    expect(of('G')).toMatchObject({ detail: 'shipment canceled at the service', detailMessage: plainMessage('report.canceledAtService') });
    for (const row of report.rows) if (row.detailMessage) expect(row.detail).toBe(englishOf(row.detailMessage));
  });

  it('a reprint that completed makes a failed automatic label printed', () => {
    const report = build(
      [listed('A', 8)],
      [
        job({ shipmentId: 'A', state: 'failed', reason: 'paper out' }),
        job({ shipmentId: 'A', state: 'completed', trigger: 'reprint', idempotencyKey: null }),
      ],
    );
    expect(report.rows[0]!.state).toBe('printed');
  });

  it("keeps the station's own bookings when the service list cannot be read, and says so", () => {
    const report = build(
      null,
      [
        job({ shipmentId: 'P', trigger: 'poll', reference: 'ONLY-POLL', bookedAt: at(10) }),
        job({ shipmentId: 'Q', trigger: 'webhook', state: 'failed', reason: 'x', bookedAt: at(11) }),
        job({ shipmentId: 'YESTERDAY', bookedAt: at(-2) }),
        job({ shipmentId: 'TEST', trigger: 'manual', idempotencyKey: null, bookedAt: null }),
      ],
      ALL,
      { P: { carrier: 'dhl_express' } },
    );
    expect(report.rows.map((r) => [r.shipmentId, r.state, r.seenBy])).toEqual([
      ['P', 'printed', 'station'],
      ['Q', 'failed', 'station'],
    ]);
    expect(report.rows[0]).toMatchObject({ reference: 'ONLY-POLL', carrier: 'dhl_express' });
    expect(report.serviceError).toMatchObject({ requestId: 'req-1' });
  });

  it('keeps a pack-and-ship booking made here when the service list cannot be read, but not a scan-to-track copy', () => {
    const report = build(null, [
      job({ shipmentId: 'PACKED', trigger: 'scan', reference: 'PACK-1', bookedAt: at(10) }),
      job({ shipmentId: 'PACKED-WAITING', trigger: 'scan', state: 'queued', bookedAt: at(11) }),
      job({ shipmentId: 'OLD-SCANNED', trigger: 'scan', idempotencyKey: null, bookedAt: null, createdAt: at(12) }),
    ]);
    expect(report.rows.map((r) => [r.shipmentId, r.state, r.seenBy])).toEqual([
      ['PACKED', 'printed', 'station'],
      ['PACKED-WAITING', 'not_printed', 'station'],
    ]);
    expect(report.rows[0]).toMatchObject({ reference: 'PACK-1' });
  });

  it("leaves out bookings this station's rules do not print, unless it printed them anyway", () => {
    const rules: StationRules = { mode: 'filtered', sources: [], carriers: ['postnord'], matches: [] };
    const service = [
      listed('MINE', 9),
      listed('OTHER', 9, { carrier_name: 'DHL Express' }),
      listed('SCANNED', 10, { carrier_name: 'UPS' }),
    ];
    const report = build(service, [job({ shipmentId: 'SCANNED', trigger: 'scan', idempotencyKey: null })], rules);
    expect(report.rows.map((r) => r.shipmentId)).toEqual(['MINE', 'SCANNED']);
    expect(report.rows[0]!.state).toBe('not_printed');
  });

  it('applies a source rule with the source a webhook brought (a poll knows none)', () => {
    const rules: StationRules = { mode: 'filtered', sources: ['API'], carriers: [], matches: [] };
    const report = build([listed('W', 9), listed('X', 9)], [], rules, { W: { source: 'API' } });
    expect(report.rows.map((r) => r.shipmentId)).toEqual(['W']);
  });

  it('counts the manifests offered for the day and those printed', () => {
    const docs = { available_documents_types: ['label', 'manifest'] };
    const report = build(
      [listed('M1', 9, docs), listed('M2', 9, docs), listed('N', 9)],
      [job({ shipmentId: 'M1', documentType: 'manifest', state: 'completed' })],
    );
    expect(report.manifests).toEqual({ available: 2, printed: 1 });
    expect(report.rows.filter((r) => r.manifest).map((r) => r.shipmentId)).toEqual(['M1', 'M2']);
  });

  it('writes CSV that a spreadsheet reads as text', () => {
    const service = [listed('A', 8, { reference_id: '=HYPERLINK("x")' }), listed('B', 9, { reference_id: 'a,b' })];
    const report = build(service, [job({ shipmentId: 'A' })]);
    const lines = endOfDayCsv(report).split('\r\n');
    expect(lines[0]).toBe('reference,carrier,tracking_id,shipment_id,booked_at,state,printed_at,printer,detail,seen_by');
    expect(lines[1]).toBe(`"'=HYPERLINK(""x"")",PostNord,TRK-A,A,${at(8)},printed,${at(9.25)},folder:/prints,,both`);
    expect(lines[2]!.startsWith('"a,b",PostNord,TRK-B,B,')).toBe(true);
    expect(lines[2]).toContain(',not printed,');
    expect(csvCell('-1')).toBe("'-1");
    expect(endOfDayCountsLine(report)).toBe('booked 2 · printed 1 · may have printed 0 · failed 0 · not printed 1 · canceled 0');
  });

  it("takes a day in the station's time zone and refuses one that does not exist", () => {
    expect(window.end.getTime() - window.start.getTime()).toBeGreaterThanOrEqual(23 * 3_600_000);
    expect(window.start.getHours()).toBe(0);
    expect(localDay(window.start)).toBe('2026-11-24');
    expect(() => dayWindow('2026-02-30')).toThrow(ReportDayError);
    expect(() => dayWindow('24.11.2026')).toThrow(/YYYY-MM-DD/);
  });
});

describe('a reprinted label', () => {
  it('stands printed at its latest print: the reprint summary shows when paper last came out', () => {
    const first = job({ updatedAt: at(9.25), target: 'folder:/prints' });
    const reprint = job({ trigger: 'reprint', updatedAt: at(14.5), target: 'folder:/office' });
    const result = standing([first, reprint], null, plainMessage('report.held'));
    expect(result).toMatchObject({ state: 'printed', printedAt: at(14.5), printer: 'folder:/office' });
  });
});
