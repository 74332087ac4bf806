/** The terminal lines of `npm run agent -- report`: English exactly as before, other languages with --lang. */
import { describe, expect, it } from 'vitest';
import type { EndOfDayReport, EndOfDayRow } from '../../../src/shared/domain';
import { endOfDayCountsLine } from '../../../src/shared/end-of-day-csv';
import { reportText } from '../../../src/main/cli/report';
import { endOfDayRow } from '../../support/end-of-day';

const PRINTED = new Date(2026, 10, 24, 9, 14, 3);
const row = (over: Partial<EndOfDayRow>): EndOfDayRow =>
  endOfDayRow({ state: 'printed', printedAt: PRINTED.toISOString(), printer: 'cups:Zebra', ...over });
const REPORT: EndOfDayReport = {
  day: '2026-11-24',
  generatedAt: PRINTED.toISOString(),
  counts: { booked: 2, printed: 1, may_have_printed: 0, failed: 0, not_printed: 1, canceled: 0 },
  rows: [
    row({}),
    row({
      shipmentId: 'shp_2',
      reference: 'A;B, "C"',
      state: 'not_printed',
      printedAt: null,
      printer: null,
      detail: 'never reached this station',
    }),
  ],
  manifests: { available: 1, printed: 0 },
  serviceError: null,
};

describe('report text', () => {
  it('give the terminal report in English as before, and in Finnish with --lang fi', () => {
    const english = reportText(REPORT, 'eod.csv');
    expect(english.split('\n')).toEqual([
      'End of day 2026-11-24',
      'booked 2 · printed 1 · may have printed 0 · failed 0 · not printed 1 · canceled 0',
      'manifests: 0 of 1 printed',
      'ORDER-1\tPostNord\t0037\tprinted 09:14 on cups:Zebra',
      'A;B, "C"\tPostNord\t0037\tnot printed: never reached this station',
      'To print what is missing: the End of day tab of the agent\'s UI, "Print what is missing".',
      'csv: eod.csv',
      '',
    ]);
    expect(endOfDayCountsLine(REPORT, 'fi')).toBe(
      'varattua 2 · tulostettu 1 · saattoi tulostua 0 · epäonnistui 0 · tulostamatta 1 · peruttua 0',
    );
    const finnish = reportText({ ...REPORT, serviceError: { code: 'X', message: 'HTTP 503', requestId: 'req-1' } }, 'eod.csv', 'fi');
    expect(finnish).toContain('Päivän päätös 2026-11-24\n');
    expect(finnish).toContain('ORDER-1\tPostNord\t0037\ttulostettu 09:14 tulostimella cups:Zebra\n');
    expect(finnish).toContain(
      'varoitus: palvelun listaa ei voitu lukea, luvut koskevat vain aseman omia töitä: HTTP 503 (pyynnön tunnus req-1)\n',
    );
    expect(finnish).toContain('CSV-tiedosto: eod.csv\n');
  });
});
