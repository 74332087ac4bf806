/** The terminal lines of `npm run agent -- report`: English exactly as before, other languages with --lang. */
import { describe, expect, it } from 'vitest';
import type { EndOfDayReport, EndOfDayRow } from '../../../src/shared/domain';
import { endOfDayCountsLine } from '../../../src/shared/end-of-day-csv';
import { printerShown, reportText } from '../../../src/main/cli/report';
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

  it('shows control characters from outside text escaped, as the log file does', () => {
    const hostile = reportText({
      ...REPORT,
      rows: [
        row({ reference: '\u001b[2J\u001b[HORDER-1\u0007', carrier: 'Post\rNord', trackingId: '00\u009b37' }),
        row({ reference: 'X\nORDER-2\t\tprinted 09:14 on cups:Zebra', state: 'failed', printedAt: null, detail: 'gone\u001b]0;t\u0007' }),
      ],
      serviceError: { code: 'X', message: 'HTTP\n503', requestId: 'req\r1' },
    });
    // eslint-disable-next-line no-control-regex
    expect(hostile.replaceAll('\n', '').replaceAll('\t', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    const lines = hostile.split('\n');
    expect(lines).toContain('\\u001b[2J\\u001b[HORDER-1\\u0007\tPost\\rNord\t00\\u009b37\tprinted 09:14 on cups:Zebra');
    expect(lines).toContain('X\\nORDER-2\\t\\tprinted 09:14 on cups:Zebra\tPostNord\t0037\tfailed: gone\\u001b]0;t\\u0007');
    expect(hostile).toContain('HTTP\\n503 (request id req\\r1)');
  });
});

describe('printers in the report', () => {
  it('are named as docs/OPERATIONS.md names them: a folder by its folder, others by their URI', () => {
    expect(printerShown('folder:./prints')).toBe('./prints');
    expect(printerShown('folder:/srv/hot?shared')).toBe('/srv/hot');
    expect(printerShown('cups:Zebra')).toBe('cups:Zebra');
  });
});
