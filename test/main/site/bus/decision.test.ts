import { describe, expect, it } from 'vitest';
import { bookingCodes, decideStation } from '../../../../src/main/site/bus/decision';
import type { BookingNotice } from '../../../../src/main/ledger/booking-notice';
import type { StationRules } from '../../../../src/shared/domain';

const notice: BookingNotice = {
  shipmentId: 'S-1',
  referenceId: 'ORDER-1',
  trackingId: 'TRK-1',
  carrier: 'dhl',
  source: 'API',
  senderReference: null,
  system: null,
  bookedAt: '2026-11-26T10:00:00Z',
  trigger: 'webhook',
};
const filtered = (pattern: string): StationRules => ({
  mode: 'filtered',
  sources: [],
  carriers: [],
  matches: [{ field: 'reference_id', pattern }],
});
const ALL: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };

describe('decideStation', () => {
  it('claims every code the booking may be scanned by', () => {
    expect(bookingCodes(notice)).toEqual(['S-1', 'ORDER-1', 'TRK-1']);
  });

  it('takes the newest scan claim over rules and defaults', () => {
    const decision = decideStation(notice, {
      claims: [
        { code: 'ORDER-1', station: 'A', at: '2026-11-26T09:00:00Z' },
        { code: 'TRK-1', station: 'B', at: '2026-11-26T09:30:00Z' },
      ],
      rules: new Map([['C', filtered('ORDER-')]]),
      defaults: ['D'],
      online: () => true,
    });
    expect(decision).toMatchObject({ station: 'B', reason: 'claim' });
  });

  it('then the first station, by name, whose filtered rules match; rules in mode all decide nothing', () => {
    const decision = decideStation(notice, {
      claims: [],
      rules: new Map([
        ['Z', filtered('ORDER-')],
        ['A', ALL],
        ['M', filtered('ORDER-1')],
        ['B', filtered('OTHER-')],
      ]),
      defaults: ['D'],
      online: () => true,
    });
    expect(decision).toMatchObject({ station: 'M', reason: 'rule' });
  });

  it('else the first online default station, else the first', () => {
    const inputs = { claims: [], rules: new Map([['A', ALL]]), defaults: ['D1', 'D2'] };
    expect(decideStation(notice, { ...inputs, online: (s) => s === 'D2' })).toMatchObject({ station: 'D2', reason: 'default' });
    expect(decideStation(notice, { ...inputs, online: () => false })).toMatchObject({ station: 'D1', reason: 'default' });
    expect(decideStation(notice, { ...inputs, defaults: [], online: () => true })).toBeNull();
  });
});
