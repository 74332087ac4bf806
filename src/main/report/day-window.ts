import { CodedError } from '../errors';

/** A day given in bad form or that does not exist (2026-02-30). */
export class ReportDayError extends CodedError {
  constructor(message: string) {
    super('INVALID_REPORT_DAY', message);
  }
}

export interface DayWindow {
  readonly day: string;
  /** Local midnight that starts the day (the station's time zone, TZ). */
  readonly start: Date;
  /** Local midnight that ends it: 23 or 25 hours later on a DST change. */
  readonly end: Date;
}

/** The day as the station's clock has it: a team lead closes "today" in local time, not UTC. */
export function dayWindow(day: string): DayWindow {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new ReportDayError(`"${day}" is not a day: write it YYYY-MM-DD, e.g. 2026-11-24`);
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const start = new Date(year, month, date);
  if (start.getFullYear() !== year || start.getMonth() !== month || start.getDate() !== date) {
    throw new ReportDayError(`${day} is not a day of the calendar: check the month and the day`);
  }
  return { day, start, end: new Date(year, month, date + 1) };
}

/** Today in the station's time zone, YYYY-MM-DD. */
export function localDay(at: Date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
