/**
 * The end-of-day report as CSV (RFC 4180, CRLF, a header row), shared by the command line
 * (`report --csv FILE`) and the UI's download so both give the same file. Cells are
 * quoted when needed, and a cell that a spreadsheet would run as a formula (= + - @ at the
 * start: a reference typed by someone else) is prefixed with ' so it stays text.
 */
import type { EndOfDayReport, EndOfDayState } from './domain';

/** The states as the report says them ("not printed", never `not_printed`). */
export const END_OF_DAY_STATE_WORDS: Readonly<Record<EndOfDayState, string>> = {
  printed: 'printed',
  may_have_printed: 'may have printed',
  failed: 'failed',
  not_printed: 'not printed',
  canceled: 'canceled',
};

const HEADER = ['reference', 'carrier', 'tracking_id', 'shipment_id', 'booked_at', 'state', 'printed_at', 'printer', 'detail', 'seen_by'];

export function endOfDayCsv(report: EndOfDayReport): string {
  const lines = [HEADER.join(',')];
  for (const r of report.rows) {
    const state = END_OF_DAY_STATE_WORDS[r.state];
    const cells = [r.reference, r.carrier, r.trackingId, r.shipmentId, r.bookedAt, state, r.printedAt, r.printer, r.detail, r.seenBy];
    lines.push(cells.map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function csvCell(value: string | null): string {
  if (value === null) return '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The counts in one line, the words the contract names: "booked 12 · printed 10 · not printed 2 …". */
export function endOfDayCountsLine(report: EndOfDayReport): string {
  const c = report.counts;
  return [
    `booked ${c.booked}`,
    `printed ${c.printed}`,
    `may have printed ${c.may_have_printed}`,
    `failed ${c.failed}`,
    `not printed ${c.not_printed}`,
    `canceled ${c.canceled}`,
  ].join(' · ');
}
