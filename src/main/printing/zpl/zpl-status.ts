/**
 * What a ZPL printer says about itself: `~HS` (host status: paper, pause, head, ribbon, what
 * is still to print) and `~HI` (host identification: model, firmware, resolution). Both
 * answer in strings framed STX…ETX CR LF (Zebra ZPL II Programming Guide, ~HS and ~HI).
 */
import { ZPL_CONDITION_ENGLISH, type ZplCondition } from '../../../shared/agent-messages';

export const STX = 0x02;
export const ETX = 0x03;

/** `~HS`: three strings. */
export interface ZplHostStatus {
  /** String 1, b. */
  readonly paperOut: boolean;
  /** String 1, c. */
  readonly paused: boolean;
  /** String 1, dddd: label length in dots. */
  readonly labelLengthDots: number;
  /** String 1, eee: formats received and not yet printed; NaN when the field is empty or not a number. */
  readonly formatsInBuffer: number;
  /** String 1, f. */
  readonly bufferFull: boolean;
  /** String 1, h: a format is still being received. */
  readonly partialFormat: boolean;
  /** String 1, j. */
  readonly corruptRam: boolean;
  /** String 1, k and l. */
  readonly underTemperature: boolean;
  readonly overTemperature: boolean;
  /** String 2, o: the print head is up (open). */
  readonly headUp: boolean;
  /** String 2, p. */
  readonly ribbonOut: boolean;
  /** String 2, uuuuuuuu: labels still to print in the batch; NaN when the field is empty or not a number. */
  readonly labelsRemaining: number;
}

/** `~HI`: `XXXXXX,V1.0.0,dpm,000KB,X`. */
export interface ZplIdentity {
  readonly model: string;
  readonly firmware: string;
  /** Dots per millimetre: 6, 8 (203 dpi), 12 (300 dpi) or 24 (600 dpi). */
  readonly dotsPerMm: number;
  readonly memory: string;
}

/**
 * The STX…ETX framed strings in `bytes`, and how many bytes they used (a partial frame is
 * left). Some clones answer without STX/ETX, one string a line (CR LF or LF): with no STX
 * in the answer, each complete non-empty line is a string.
 */
export function framedStrings(bytes: Uint8Array): { strings: string[]; used: number } {
  if (!bytes.includes(STX)) return unframedLines(bytes);
  const strings: string[] = [];
  let used = 0;
  let at = 0;
  while (at < bytes.length) {
    const start = bytes.indexOf(STX, at);
    if (start < 0) break;
    const end = bytes.indexOf(ETX, start + 1);
    if (end < 0) break;
    strings.push(Buffer.from(bytes.subarray(start + 1, end)).toString('latin1'));
    at = end + 1;
    used = at;
  }
  return { strings, used };
}

const LF = 0x0a;

function unframedLines(bytes: Uint8Array): { strings: string[]; used: number } {
  const used = bytes.lastIndexOf(LF) + 1;
  const strings = Buffer.from(bytes.subarray(0, used))
    .toString('latin1')
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '');
  return { strings, used };
}

function fields(text: string | undefined, count: number, what: string): string[] {
  const parts = (text ?? '').split(',').map((p) => p.trim());
  if (parts.length < count) throw new Error(`${what} has ${parts.length} fields, ${count} expected: "${text ?? ''}"`);
  return parts;
}

const flag = (value: string | undefined): boolean => value === '1';
const int = (value: string | undefined): number => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : 0;
};

/** A count the printer must state: NaN (not 0) when the field is empty or not digits. */
const count = (value: string | undefined): number => (value !== undefined && /^\d+$/.test(value) ? Number(value) : Number.NaN);

/** Reads `~HS`'s first two strings (the third, password and static RAM, says nothing about printing). */
export function parseHostStatus(strings: readonly string[]): ZplHostStatus {
  const one = fields(strings[0], 12, '~HS string 1');
  const two = fields(strings[1], 11, '~HS string 2');
  return {
    paperOut: flag(one[1]),
    paused: flag(one[2]),
    labelLengthDots: int(one[3]),
    formatsInBuffer: count(one[4]),
    bufferFull: flag(one[5]),
    partialFormat: flag(one[7]),
    corruptRam: flag(one[9]),
    underTemperature: flag(one[10]),
    overTemperature: flag(one[11]),
    headUp: flag(two[2]),
    ribbonOut: flag(two[3]),
    labelsRemaining: count(two[8]),
  };
}

export function parseIdentity(text: string): ZplIdentity {
  const parts = fields(text, 3, '~HI');
  return { model: parts[0]!, firmware: parts[1]!, dotsPerMm: int(parts[2]), memory: parts[3] ?? '' };
}

/** What stops the printer from printing, in the order people are told; empty when nothing does. */
export function statusConditions(status: ZplHostStatus): ZplCondition[] {
  const conditions: ZplCondition[] = [];
  if (status.paperOut) conditions.push('paperOut');
  if (status.headUp) conditions.push('headOpen');
  if (status.ribbonOut) conditions.push('ribbonOut');
  if (status.paused) conditions.push('paused');
  if (status.bufferFull) conditions.push('bufferFull');
  if (status.overTemperature) conditions.push('overTemperature');
  if (status.corruptRam) conditions.push('corruptRam');
  return conditions;
}

/**
 * What stops the printer from printing, in words that say what to do; null when nothing
 * does. Each names its condition ("paper out", "head open", "paused") as the printer does.
 */
export function statusProblem(status: ZplHostStatus): string | null {
  const conditions = statusConditions(status);
  return conditions.length > 0 ? conditions.map((c) => ZPL_CONDITION_ENGLISH[c]).join('; ') : null;
}

/**
 * `~HQES` (host query, error status): newer firmware leaves `~HS` unanswered while the
 * printer is out of media or ribbon or its head is open, but answers this. Its ERRORS line
 * is a flag and two groups of eight hex nibbles; group 1, nibble 1 (the last digit): 1 media
 * out, 2 ribbon out, 4 head open; nibble 2: 1 printhead over temperature.
 */
export function parseErrorStatus(text: string): ZplCondition[] | null {
  const errors = /ERRORS:\s*(\d)\s+([0-9A-Fa-f]{8})\s+([0-9A-Fa-f]{8})/.exec(text);
  if (!errors) return null;
  if (errors[1] === '0') return [];
  const group1 = Number.parseInt(errors[3]!, 16);
  const conditions: ZplCondition[] = [];
  if (group1 & 0x1) conditions.push('paperOut');
  if (group1 & 0x4) conditions.push('headOpen');
  if (group1 & 0x2) conditions.push('ribbonOut');
  if (group1 & 0x10) conditions.push('overTemperature');
  return conditions;
}

/**
 * Whether `~HS` stated what is still to print: both counts are numbers. An answer with empty
 * or garbled counts says nothing about the labels, so it is never read as "drained".
 */
export function statesCounts(status: ZplHostStatus): boolean {
  return Number.isInteger(status.formatsInBuffer) && Number.isInteger(status.labelsRemaining);
}

/** Everything sent has printed: nothing in the buffer, nothing left in the batch, no format half-received. */
export function drained(status: ZplHostStatus): boolean {
  return statesCounts(status) && status.formatsInBuffer === 0 && status.labelsRemaining === 0 && !status.partialFormat;
}
