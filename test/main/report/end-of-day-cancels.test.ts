import { describe, expect, it } from 'vitest';
import type { StationRules } from '../../../src/shared/domain';
import type { JobRecord } from '../../../src/main/ledger/job-record';
import { jobRecord } from '../../support/jobs/records';
import { dayWindow } from '../../../src/main/report/day-window';
import { buildEndOfDay, type ListedBooking } from '../../../src/main/report/end-of-day';

const window = dayWindow('2026-11-24');
const at = (h: number): string => new Date(window.start.getTime() + h * 3_600_000).toISOString();
const ALL: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };

function printed(shipmentId: string): JobRecord {
  return jobRecord({
    id: `job-${shipmentId}`,
    shipmentId,
    reference: `REF-${shipmentId}`,
    createdAt: at(9),
    updatedAt: at(9.25),
    idempotencyKey: `k-${shipmentId}`,
    bookedAt: at(9),
  });
}

const listed = (id: string, status: string): ListedBooking => ({
  shipment: { id, reference_id: `REF-${id}`, tracking_id: null, carrier_name: 'PostNord', status, booked_at: at(9) },
  bookedAt: at(9),
});

const build = (list: ListedBooking[] | null, cancels: Record<string, 'station' | 'service'>) =>
  buildEndOfDay({
    window,
    listed: list,
    serviceError: list === null ? { code: 'SERVICE_UNAVAILABLE', message: 'down', requestId: 'req-1' } : null,
    jobs: [printed('A'), printed('B')],
    seen: () => null,
    canceled: (id) => (cancels[id] ? { source: cancels[id] } : null),
    rules: ALL,
    now: new Date(at(17)),
  });

describe('end-of-day report and the ledger’s cancels', () => {
  it('without the service, a shipment canceled at this station after its label printed counts as canceled, not printed', () => {
    const report = build(null, { A: 'station' });
    expect(report.counts).toMatchObject({ booked: 2, canceled: 1, printed: 1 });
    expect(report.rows.find((r) => r.shipmentId === 'A')).toMatchObject({
      state: 'canceled',
      detail: 'shipment canceled at this station',
      detailMessage: { code: 'report.canceledAtStation' },
    });
  });

  it('with the service, says where it was canceled: the ledger’s station cancel, or the service’s status', () => {
    const report = build([listed('A', 'CANCELED'), listed('B', 'CANCELED')], { A: 'station' });
    expect(report.counts).toMatchObject({ canceled: 2, printed: 0 });
    expect(report.rows.map((r) => [r.shipmentId, r.detail])).toEqual([
      ['A', 'shipment canceled at this station'],
      ['B', 'shipment canceled at the service'],
    ]);
  });

  it('a cancel the ledger holds counts even while the service’s list still lags behind', () => {
    const report = build([listed('A', 'BOOKED'), listed('B', 'BOOKED')], { B: 'service' });
    expect(report.rows.map((r) => r.state)).toEqual(['printed', 'canceled']);
  });
});
