/**
 * Turns what a keyboard-wedge scanner (or a person) typed into the values worth looking
 * up. Pure and total: it never throws, whatever the string, because it sits directly
 * behind the scan box and is fuzzed.
 *
 * Scanners add noise the service never stores: a trailing CR or TAB, GS (0x1D, the
 * GS1 FNC1 separator), AIM symbology identifiers (`]C1` GS1-128, `]d2` GS1 DataMatrix,
 * `]Q3` GS1 QR) and GS1 Application Identifiers in front of the number on the parcel.
 * When the reading is ambiguous (an SSCC with or without its extension digit, a
 * reference typed in lower case) every plausible value is returned as a candidate, most
 * likely first, and the lookup tries them in order.
 */
import type { ScanLayoutMismatch } from '../../shared/agent-api';

export type ScanKind = 'uuid' | 'sscc' | 'text';

export interface NormalizedScan {
  readonly ok: true;
  /** The most likely value: what the lookup tries first. */
  readonly value: string;
  /** Every value worth trying, `value` first, no duplicates. */
  readonly candidates: readonly string[];
  readonly kind: ScanKind;
}

export interface RejectedScan {
  readonly ok: false;
  readonly code: 'SCAN_EMPTY' | 'SCAN_TOO_LONG';
  /** Says what to do, for the packer. */
  readonly message: string;
}

export type ScanReading = NormalizedScan | RejectedScan;

/** Longest raw input accepted (the bridge's schema allows the same). */
export const MAX_RAW_SCAN_LENGTH = 512;
/** Longest cleaned value: no reference, id or barcode the service issues is longer. */
export const MAX_SCAN_VALUE_LENGTH = 128;

const GS = '\u001d';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** AIM symbology identifier: `]`, a symbology letter, a modifier character. */
const SYMBOLOGY_ID = /^\][A-Za-z][0-9A-Za-z]/;
/** GS1 symbologies: the data is an element string with AIs. */
const GS1_SYMBOLOGY = /^\](C1|e0|d2|Q3|J1)/;
// Whitespace and control characters (C0, DEL, C1) and the Unicode format characters
// (zero-width space and friends) that a copy-paste can bring along.
const NOISE = /[\s\p{Cc}\p{Cf}]/gu;
const PARENTHESISED_AI = /\((\d{2,4})\)/;

/**
 * The GS1 Application Identifiers a parcel label carries. `fixed` is the data length;
 * variable-length fields end at GS or at the end of the string.
 */
const KNOWN_AIS: Readonly<Record<string, { readonly fixed?: number; readonly max: number }>> = {
  '00': { fixed: 18, max: 18 }, // SSCC
  '01': { fixed: 14, max: 14 }, // GTIN
  '400': { max: 30 }, // customer's purchase order number
  '401': { max: 30 }, // GINC, consignment number
  '402': { fixed: 17, max: 17 }, // GSIN, shipment identification number
  '403': { max: 30 }, // routing code
  '420': { max: 20 }, // ship-to postal code
  '421': { max: 12 }, // ship-to ISO country code (3 digits) + postal code
};

/** Normalise one scan. Never throws. */
export function normalizeScan(raw: unknown): ScanReading {
  if (typeof raw !== 'string') return rejectEmpty();
  if (raw.length > MAX_RAW_SCAN_LENGTH) return rejectTooLong();

  const trimmed = stripLeadingNoise(raw);
  const symbology = SYMBOLOGY_ID.exec(trimmed)?.[0] ?? null;
  const body = symbology ? trimmed.slice(symbology.length) : trimmed;
  const isGs1Symbology = symbology !== null && GS1_SYMBOLOGY.test(symbology);

  // GS is meaningful inside a GS1 element string, so parse before removing noise.
  const elements = parseElementString(body, isGs1Symbology);
  const cleaned = body.replace(NOISE, '');
  // What is left still starts with an identifier (noise inside it, `] A0`, or a second one,
  // `]A0]A0`): read it again, so the value handed back reads the same when scanned once more.
  if (SYMBOLOGY_ID.test(cleaned)) return normalizeScan(cleaned);
  if (cleaned.length === 0) return rejectEmpty();
  if (cleaned.length > MAX_SCAN_VALUE_LENGTH) return rejectTooLong();

  if (UUID.test(cleaned)) {
    return reading('uuid', [cleaned.toLowerCase(), cleaned]);
  }

  const upper = cleaned.toUpperCase();
  if (elements) {
    const fromElements = candidatesFromElements(elements);
    if (fromElements) {
      return reading(fromElements.kind, [...fromElements.values, upper, cleaned]);
    }
  }

  const usps = stripShipToPostalPrefix(upper);
  if (usps.length > 0) return reading('text', [...usps, upper, cleaned]);

  return reading('text', [upper, cleaned]);
}

/**
 * Which keyboard layout mismatch turned a scan into `typed`: a scanner sends key positions,
 * and the computer reads them in its own layout. A US-layout scanner on a Nordic (Swedish,
 * Danish, Norwegian, Finnish) keyboard types `+` for `-` and `-` for `/`; a Nordic-layout
 * scanner on a US keyboard the other way round. Letters and digits sit where they sit.
 */
export type LayoutMismatch = ScanLayoutMismatch;

const LAYOUT_MAPS: ReadonlyArray<{ readonly mismatch: LayoutMismatch; readonly map: Readonly<Record<string, string>> }> = [
  // What the computer showed → what the barcode holds.
  { mismatch: 'us-scanner-nordic-keyboard', map: { '+': '-', '-': '/' } },
  { mismatch: 'nordic-scanner-us-keyboard', map: { '/': '-', '-': '+' } },
];

/**
 * The values `value` would be had the scanner's layout matched the computer's, one per
 * mismatch that changes it (none when it holds no character a mismatch moves). Tried only
 * after the literal value missed, so a correct setup never pays for them.
 */
export function layoutVariants(value: string): Array<{ readonly mismatch: LayoutMismatch; readonly value: string }> {
  const variants: Array<{ mismatch: LayoutMismatch; value: string }> = [];
  for (const { mismatch, map } of LAYOUT_MAPS) {
    const mapped = [...value].map((ch) => map[ch] ?? ch).join('');
    if (mapped !== value && !variants.some((v) => v.value === mapped)) variants.push({ mismatch, value: mapped });
  }
  return variants;
}

function reading(kind: ScanKind, values: readonly string[]): NormalizedScan {
  const candidates = [...new Set(values.filter((v) => v.length > 0))];
  // Callers rely on at least one candidate; values always holds a non-empty one here.
  return { ok: true, value: candidates[0] ?? '', candidates, kind };
}

function rejectEmpty(): RejectedScan {
  return { ok: false, code: 'SCAN_EMPTY', message: 'Nothing was scanned: scan the barcode again or type the reference.' };
}

function rejectTooLong(): RejectedScan {
  return {
    ok: false,
    code: 'SCAN_TOO_LONG',
    message: `That scan is too long to be a reference, shipment id or tracking number (at most ${MAX_SCAN_VALUE_LENGTH} characters): scan the shipping label's barcode.`,
  };
}

function stripLeadingNoise(value: string): string {
  let start = 0;
  while (start < value.length && /[\s\p{Cc}\p{Cf}]/u.test(value.charAt(start))) start += 1;
  return value.slice(start);
}

type Elements = ReadonlyMap<string, string>;
/** Key for non-AI data that follows a ship-to postal code. */
const TAIL = 'tail';

/**
 * Parse a GS1 element string: the human-readable `(00)1234…(420)…` form always, the
 * raw `00…` form only when the symbology says GS1 or the string holds GS (otherwise a
 * reference that happens to start with `00` would be mangled; the raw form is still
 * tried as a candidate for SSCCs below).
 */
function parseElementString(body: string, isGs1Symbology: boolean): Elements | null {
  const compact = body.replace(/[\s\p{Cc}\p{Cf}]/gu, (ch) => (ch === GS ? GS : ''));
  if (PARENTHESISED_AI.test(compact) && compact.startsWith('(')) return parseParenthesised(compact);
  if (isGs1Symbology || compact.includes(GS)) return parseRaw(compact);
  if (/^00\d{18}$/.test(compact)) return parseRaw(compact);
  return null;
}

function parseParenthesised(value: string): Elements | null {
  const result = new Map<string, string>();
  const pattern = /\((\d{2,4})\)([^(]*)/g;
  let consumed = 0;
  for (let match = pattern.exec(value); match; match = pattern.exec(value)) {
    if (match.index !== consumed) return null;
    const ai = match[1] ?? '';
    const data = (match[2] ?? '').replaceAll(GS, '');
    if (!result.has(ai)) result.set(ai, data);
    consumed = match.index + match[0].length;
  }
  return consumed === value.length && result.size > 0 ? result : null;
}

function parseRaw(value: string): Elements | null {
  const result = new Map<string, string>();
  let rest = value.replace(new RegExp(`^${GS}+`), '');
  while (rest.length > 0) {
    const ai = ['00', '01'].find((a) => rest.startsWith(a)) ?? ['400', '401', '402', '403', '420', '421'].find((a) => rest.startsWith(a));
    if (!ai) {
      // Data after the ship-to postal code that is no AI: the carrier's own number.
      if (result.has('420') || result.has('421')) result.set(TAIL, rest.replaceAll(GS, ''));
      return result.size > 0 ? result : null;
    }
    const spec = KNOWN_AIS[ai];
    if (!spec) return null;
    rest = rest.slice(ai.length);
    let data: string;
    if (spec.fixed !== undefined) {
      data = rest.slice(0, spec.fixed);
      if (data.length !== spec.fixed || !/^\d+$/.test(data)) return null;
      rest = rest.slice(spec.fixed);
    } else {
      const end = rest.indexOf(GS);
      data = end === -1 ? rest : rest.slice(0, end);
      rest = end === -1 ? '' : rest.slice(end);
    }
    if (!result.has(ai)) result.set(ai, data);
    rest = rest.replace(new RegExp(`^${GS}+`), '');
  }
  return result.size > 0 ? result : null;
}

function candidatesFromElements(elements: Elements): { kind: ScanKind; values: string[] } | null {
  const sscc = elements.get('00');
  if (sscc && /^\d{18}$/.test(sscc)) {
    // Some carriers print the SSCC as the tracking number, others drop the extension
    // digit; the AI-prefixed form is tried last in case a carrier used it verbatim.
    return { kind: 'sscc', values: [sscc, sscc.slice(1), `00${sscc}`] };
  }
  const values: string[] = [];
  for (const ai of ['401', '402', '400', '403']) {
    const data = elements.get(ai);
    if (data) values.push(data.toUpperCase());
  }
  // A ship-to postal code (420/421) is routing data; what follows it is the tracking
  // number when the carrier put one there (USPS IMpb: 420 ZIP, GS, then the number).
  const tail = elements.get(TAIL);
  if (tail && tail.length >= 8) values.unshift(tail.toUpperCase());
  return values.length > 0 ? { kind: 'text', values } : null;
}

/**
 * USPS and DHL eCommerce barcodes prefix the tracking number with `420` + ZIP (5 or 9
 * digits). Returns the tracking numbers it could be, most likely first (USPS numbers
 * are 20 to 22 digits and start with 9), or none when the value does not look like one.
 */
function stripShipToPostalPrefix(value: string): string[] {
  if (!/^420\d{25,40}$/.test(value)) return [];
  const afterZip5 = value.slice(8);
  const afterZip9 = value.slice(12);
  const looksLikeTracking = (v: string): boolean => /^9\d{19,25}$/.test(v);
  const ordered = looksLikeTracking(afterZip9) && !looksLikeTracking(afterZip5) ? [afterZip9, afterZip5] : [afterZip5, afterZip9];
  return ordered.filter((v) => v.length >= 10);
}
