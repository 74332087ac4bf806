/**
 * The end-of-day report as CSV (RFC 4180, CRLF, a header row), shared by the command line
 * (`report --csv FILE [--lang L]`) and the UI's download so both give the same file. Cells
 * are quoted when needed, and a cell that a spreadsheet would run as a formula (= + - @ at
 * the start: a reference typed by someone else) is prefixed with ' so it stays text.
 *
 * In a language other than English the file is written for a spreadsheet of that locale
 * (CSV_FORMATS): Excel splits a double-clicked .csv on the locale's list separator, which is
 * `;` wherever the decimal separator is a comma (Swedish, Danish, Norwegian, Finnish), and
 * reads a file without a byte-order mark as the Windows code page, which garbles å, ä, ø. So
 * those files start with a UTF-8 BOM and separate with `;`, and times are the station's local
 * `YYYY-MM-DD HH:MM:SS`, which Excel and LibreOffice read as a date-time in every one of these
 * locales (their own formats are not read back reliably: Finnish writes "klo", Danish `09.14`).
 * English stays the original file: `,`, no BOM, RFC 3339 times; a cell holding `;` is quoted
 * in it too (see csvCell).
 */
import { END_OF_DAY_STATES, type EndOfDayReport, type EndOfDayRow, type EndOfDayState } from './domain';
import { REPORT_WORDS, countWord, reportDetailWords, seenByWord, stateWord, type ReportKey, type ReportLanguage } from './report-words';

/** The states as the report says them in English ("not printed", never `not_printed`). */
export const END_OF_DAY_STATE_WORDS: Readonly<Record<EndOfDayState, string>> = Object.fromEntries(
  END_OF_DAY_STATES.map((state) => [state, stateWord('en', state)]),
) as Record<EndOfDayState, string>;

/** How a spreadsheet in a language's locale wants the file. */
export interface CsvFormat {
  readonly separator: ',' | ';';
  /** Starts with U+FEFF, so Excel reads UTF-8. */
  readonly bom: boolean;
  /** `iso`: the RFC 3339 text as the report has it; `local`: `YYYY-MM-DD HH:MM:SS` in the station's time zone. */
  readonly times: 'iso' | 'local';
}

const NORDIC: CsvFormat = { separator: ';', bom: true, times: 'local' };
export const CSV_FORMATS: Readonly<Record<ReportLanguage, CsvFormat>> = {
  en: { separator: ',', bom: false, times: 'iso' },
  sv: NORDIC,
  da: NORDIC,
  nb: NORDIC,
  fi: NORDIC,
};

const COLUMNS: readonly ReportKey[] = [
  'report.csv.reference',
  'report.csv.carrier',
  'report.csv.trackingId',
  'report.csv.shipmentId',
  'report.csv.bookedAt',
  'report.csv.state',
  'report.csv.printedAt',
  'report.csv.printer',
  'report.csv.detail',
  'report.csv.seenBy',
];

export interface EndOfDayCsvOptions {
  /** The words and the spreadsheet format. @default 'en' (the documented file) */
  readonly language?: ReportLanguage;
  /**
   * The detail column's words. @default the report's own words in `language` for the report's
   * codes ("waiting in the queue"), a job's reason in English (the command line; the UI passes
   * its catalogs' wording of every code)
   */
  readonly detailWords?: (row: EndOfDayRow) => string | null;
}

export function endOfDayCsv(report: EndOfDayReport, options: EndOfDayCsvOptions = {}): string {
  const language = options.language ?? 'en';
  const detail = options.detailWords ?? ((row: EndOfDayRow): string | null => reportDetailWords(language, row));
  const format = CSV_FORMATS[language];
  const time = (iso: string | null): string | null => (iso !== null && format.times === 'local' ? localTime(iso) : iso);
  const lines = [COLUMNS.map((key) => csvCell(REPORT_WORDS[language][key])).join(format.separator)];
  for (const r of report.rows) {
    const cells = [
      r.reference,
      r.carrier,
      r.trackingId,
      r.shipmentId,
      time(r.bookedAt),
      stateWord(language, r.state),
      time(r.printedAt),
      r.printer,
      detail(r),
      seenByWord(language, r.seenBy),
    ];
    lines.push(cells.map(csvCell).join(format.separator));
  }
  return `${format.bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}

// What a spreadsheet skips before it looks for a formula sign: spaces (also no-break and the
// other Unicode spaces) and the zero-width and format characters nobody sees (U+200B–U+200F,
// U+2060–U+2064, the BOM U+FEFF, U+180E).
const INVISIBLE_LEAD = /^[\s\u180e\u200b-\u200f\u2060-\u2064\ufeff]*/u;
// C0 controls but tab, LF and CR (a cell may hold lines; tab and CR are defused below), DEL, C1.
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/gu;
// The signs that start a formula, in ASCII and full width (Excel and LibreOffice read ＝ ＋ － ＠
// typed on an East Asian keyboard as = + - @), and tab / CR, which some import paths strip.
const FORMULA_SIGN = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/u;

/**
 * One cell, inert under either separator: quoted when it holds `,` or `;` (the file may be
 * opened by a spreadsheet that splits on the other one: a `;` in the English file would
 * otherwise become a new cell that starts with `=`), a quote or a line break; a cell that a
 * spreadsheet would evaluate (a formula sign at the start, after any spaces or invisible
 * characters) is prefixed with ' so it stays text.
 */
export function csvCell(raw: string | null): string {
  if (raw === null) return '';
  // Other control characters (ESC, BEL, NUL …) are written as text (`\x1b`), as the log does:
  // a cell shown by `cat` or `type` can then neither colour nor clear the terminal.
  const value = raw.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const lead = INVISIBLE_LEAD.exec(value)?.[0].length ?? 0;
  const evaluated = FORMULA_SIGN.test(value.slice(lead)) || /[\t\r]/.test(value.slice(0, lead));
  const text = evaluated ? `'${value}` : value;
  return /[,;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `2026-11-24 09:14:03` in this machine's time zone; the text itself when it is no time. */
export function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The counts in one line, the words the contract names: "booked 12 · printed 10 · not printed 2 …". */
export function endOfDayCountsLine(report: EndOfDayReport, language: ReportLanguage = 'en'): string {
  const c = report.counts;
  const what = ['booked', ...END_OF_DAY_STATES] as const;
  return what.map((w) => `${countWord(language, w, c[w])} ${c[w]}`).join(' · ');
}
