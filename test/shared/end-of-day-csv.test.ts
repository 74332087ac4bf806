/**
 * The end-of-day CSV in each language: English byte for byte the documented file; the Nordic
 * languages in their words, with `;`, a UTF-8 BOM and local times a spreadsheet reads. The
 * report words are the UI catalogs' own (one source).
 */
import { describe, expect, it } from 'vitest';
import type { EndOfDayReport, EndOfDayRow } from '../../src/shared/domain';
import { CSV_FORMATS, csvCell, endOfDayCsv, localTime } from '../../src/shared/end-of-day-csv';
import { REPORT_LANGUAGES, REPORT_WORDS, reportDetailWords } from '../../src/shared/report-words';
import { REPORT_WAITING_STATES, agentMessage, englishOf, plainMessage } from '../../src/shared/agent-messages';
import { CATALOGS, LANGUAGES } from '../../src/renderer/i18n';
import { endOfDayRow } from '../support/end-of-day';

// Times in the machine's zone, so the local form is known whatever TZ the test runs in.
const BOOKED = new Date(2026, 10, 24, 8, 5, 9);
const PRINTED = new Date(2026, 10, 24, 9, 14, 3);
const row = (over: Partial<EndOfDayRow>): EndOfDayRow =>
  endOfDayRow({ bookedAt: BOOKED.toISOString(), state: 'printed', printedAt: PRINTED.toISOString(), printer: 'cups:Zebra', ...over });
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
      seenBy: 'service',
    }),
  ],
  manifests: { available: 1, printed: 0 },
  serviceError: null,
};

describe('end-of-day CSV', () => {
  it('keeps the English file exactly as documented: comma, no BOM, RFC 3339 times, English words', () => {
    expect(endOfDayCsv(REPORT)).toBe(
      'reference,carrier,tracking_id,shipment_id,booked_at,state,printed_at,printer,detail,seen_by\r\n' +
        `ORDER-1,PostNord,0037,shp_1,${BOOKED.toISOString()},printed,${PRINTED.toISOString()},cups:Zebra,,both\r\n` +
        `"A;B, ""C""",PostNord,0037,shp_2,${BOOKED.toISOString()},not printed,,,never reached this station,service\r\n`,
    );
    expect(endOfDayCsv(REPORT, { language: 'en' })).toBe(endOfDayCsv(REPORT));
  });

  it('writes Swedish for a Swedish spreadsheet: BOM, semicolons, Swedish words, local times', () => {
    const text = endOfDayCsv(REPORT, { language: 'sv' });
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'Referens;Transportör;Spårnings-id;Sändnings-id;Bokningstid;Läge;Utskriftstid;Skrivare;Detaljer;Känd av',
      'ORDER-1;PostNord;0037;shp_1;2026-11-24 08:05:09;utskriven;2026-11-24 09:14:03;cups:Zebra;;båda',
      // A semicolon is quoted now, a comma need not be.
      '"A;B, ""C""";PostNord;0037;shp_2;2026-11-24 08:05:09;inte utskriven;;;never reached this station;tjänsten',
      '',
    ]);
  });

  it.each(['da', 'nb', 'fi'] as const)('writes %s with its own words and the Nordic spreadsheet format', (lang) => {
    const [header, first] = endOfDayCsv(REPORT, { language: lang }).slice(1).split('\r\n');
    const words = REPORT_WORDS[lang];
    expect(header!.split(';')).toHaveLength(10);
    expect(header!.startsWith(`${words['report.csv.reference']};${words['report.csv.carrier']};`)).toBe(true);
    expect(first!.split(';')[5]).toBe(words['eod.state.printed']);
    expect(first!.split(';')[9]).toBe(words['report.seenBy.both']);
    expect(first!.split(';')[4]).toBe('2026-11-24 08:05:09');
  });

  it('defuses formulas and quotes both separators', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(localTime('not a time')).toBe('not a time');
    expect(CSV_FORMATS.en).toEqual({ separator: ',', bom: false, times: 'iso' });
  });

  // Each of these is text a spreadsheet would run, under one separator or the other.
  it.each([
    ['a formula after a `;` the English file once let through', 'x;=1+1;y', `"x;=1+1;y"`],
    ['a formula after a `,`', 'x,=1+1', `"x,=1+1"`],
    ['a terminal escape (ESC, BEL) written as text', 'A\u001b[2J\u0007B', 'A\\x1b[2J\\x07B'],
    ['a formula behind a NUL', '\u0000=1+1', '\\x00=1+1'],
    ['leading spaces', '   =1+1', "'   =1+1"],
    ['a no-break space', '\u00a0@SUM(A1)', "'\u00a0@SUM(A1)"],
    ['full-width equals', '\uff1d1+1', "'\uff1d1+1"],
    ['full-width plus, minus, at', '\uff0b1', "'\uff0b1"],
    ['full-width minus', '\uff0d1', "'\uff0d1"],
    ['full-width at', '\uff20SUM(A1)', "'\uff20SUM(A1)"],
    ['a zero-width space', '\u200b=1+1', "'\u200b=1+1"],
    ['a word joiner and a BOM', '\u2060\ufeff+1', "'\u2060\ufeff+1"],
    ['a leading tab', '\tx', "'\tx"],
    ['a leading CR', '\r=1', `"'\r=1"`],
    ['a minus', '-2+3', "'-2+3"],
  ])('defuses %s', (_what, value, cell) => {
    expect(csvCell(value)).toBe(cell);
    for (const lang of ['en', 'sv'] as const) {
      const line = endOfDayCsv({ ...REPORT, rows: [row({ reference: value })] }, { language: lang })
        .replace(/^\uFEFF/, '')
        .split('\r\n')[1]!;
      expect(line.startsWith(cell)).toBe(true);
    }
  });

  it('leaves harmless text alone', () => {
    expect(csvCell('ORDER 1 = paid')).toBe('ORDER 1 = paid');
    expect(csvCell('  ORDER-1')).toBe('  ORDER-1');
    expect(csvCell('\u200bORDER-1')).toBe('\u200bORDER-1');
  });
});

describe('the detail column in the report words', () => {
  const waiting = agentMessage('report.waiting', { state: 'queued' });
  const aborted = agentMessage('job.canceledAtPrinter', { spoolerJobId: 'zebra-12' });
  const detailed: EndOfDayReport = {
    ...REPORT,
    rows: [
      row({ state: 'not_printed', printedAt: null, detail: englishOf(waiting), detailMessage: waiting }),
      row({
        state: 'not_printed',
        printedAt: null,
        detail: 'never reached this station',
        detailMessage: plainMessage('report.neverReached'),
      }),
      row({ state: 'failed', printedAt: null, detail: englishOf(aborted), detailMessage: aborted }),
    ],
  };
  const details = (text: string): string[] =>
    text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(';')[8]!);

  it("words the report's own codes in the language, and leaves a job's reason in English (the command line)", () => {
    expect(details(endOfDayCsv(detailed, { language: 'sv' }))).toEqual([
      'väntar i kön (köad)',
      'nådde aldrig den här stationen',
      englishOf(aborted),
    ]);
    expect(details(endOfDayCsv(detailed, { language: 'fi' })).slice(0, 2)).toEqual([
      'odottaa jonossa (ei vielä aloitettu)',
      'ei koskaan tullut tälle asemalle',
    ]);
    const english = endOfDayCsv(detailed).split('\r\n');
    expect(english[1]).toContain(',waiting in the queue (queued),');
    expect(english[2]).toContain(',never reached this station,');
  });

  it("takes the caller's wording of every detail (the UI words the job reasons too)", () => {
    const text = endOfDayCsv(detailed, { language: 'da', detailWords: (r) => `<${r.detailMessage?.code ?? r.detail}>` });
    expect(details(text)).toEqual(['<report.waiting>', '<report.neverReached>', '<job.canceledAtPrinter>']);
  });

  it('has words for every waiting state in every language', () => {
    for (const language of REPORT_LANGUAGES) {
      for (const state of REPORT_WAITING_STATES) {
        const message = agentMessage('report.waiting', { state });
        const words = reportDetailWords(language, { detail: englishOf(message), detailMessage: message });
        if (language === 'en') expect(words).toBe(englishOf(message));
        else expect(words, `${language} ${state}`).not.toBe(englishOf(message));
      }
    }
  });
});

describe('report words', () => {
  it('are the UI catalogs’ own words in every UI language', () => {
    expect([...REPORT_LANGUAGES]).toEqual([...LANGUAGES]);
    for (const lang of LANGUAGES) {
      for (const [key, word] of Object.entries(REPORT_WORDS[lang])) expect(CATALOGS[lang][key as keyof (typeof CATALOGS)['en']]).toBe(word);
    }
  });

  it('name the same columns as the End of day table, and the tab and button the hint sends people to', () => {
    for (const lang of LANGUAGES) {
      const words = REPORT_WORDS[lang];
      const ui = CATALOGS[lang];
      expect(words['report.printMissingHint'], lang).toContain(ui['tab.endOfDay']);
      expect(words['report.printMissingHint'], lang).toContain(`"${ui['eod.printMissing']}"`);
      if (lang === 'en') continue; // English keeps the documented snake_case header
      expect([
        words['report.csv.reference'],
        words['report.csv.carrier'],
        words['report.csv.trackingId'],
        words['report.csv.state'],
      ]).toEqual([ui['eod.col.reference'], ui['eod.col.carrier'], ui['eod.col.trackingId'], ui['eod.col.state']]);
    }
  });
});
