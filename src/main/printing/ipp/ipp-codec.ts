/**
 * The IPP message codec (RFC 8010 §3): requests out, responses in, every value tag read as
 * what it is. Collections (`media-col`, `media-col-database`) keep their members inside
 * them instead of spilling into the parent group; rangeOfInteger, resolution and dateTime
 * are numbers and a Date, not text; octetString stays bytes; the `…WithLanguage` strings
 * are their text. The npm packages were checked (2026-11): `ipp-encoder` 5.0.0 reads no
 * collections, ranges or resolutions; `ipp` 2.0.1 reads dateTime a month late (a 1-based
 * month into `new Date`) and octetString as text. So the codec stays here, tested on
 * responses recorded from ippeveprinter and cupsd (test/fixtures/ipp/).
 */

export const TAG = {
  operation: 0x01,
  job: 0x02,
  end: 0x03,
  printer: 0x04,
  unsupportedGroup: 0x05,
  unsupported: 0x10,
  unknown: 0x12,
  noValue: 0x13,
  integer: 0x21,
  boolean: 0x22,
  enum: 0x23,
  octetString: 0x30,
  dateTime: 0x31,
  resolution: 0x32,
  rangeOfInteger: 0x33,
  begCollection: 0x34,
  textWithLanguage: 0x35,
  nameWithLanguage: 0x36,
  endCollection: 0x37,
  text: 0x41,
  name: 0x42,
  keyword: 0x44,
  uri: 0x45,
  charset: 0x47,
  language: 0x48,
  mimeMediaType: 0x49,
  memberAttrName: 0x4a,
} as const;

/** A rangeOfInteger value, e.g. `copies-supported` 1-999. */
export interface IppRange {
  readonly lower: number;
  readonly upper: number;
}

/** A resolution value, e.g. `printer-resolution-supported` 203dpi. */
export interface IppResolution {
  readonly x: number;
  readonly y: number;
  readonly units: 'dpi' | 'dpcm';
}

/** A collection's members by name, each with its values (a member may itself be a collection). */
export type IppCollection = ReadonlyMap<string, readonly Value[]>;

/**
 * One decoded value. Out-of-band values (unsupported, unknown, no-value) are null;
 * octetString is the bytes.
 */
export type Value = string | number | boolean | Date | Uint8Array | IppRange | IppResolution | IppCollection | null;

/** A value to encode: a collection is written as its member attributes. */
export type OutValue = string | number | boolean | IppRange | IppResolution | readonly Attr[];

export interface Attr {
  readonly tag: number;
  readonly name: string;
  readonly values: readonly OutValue[];
}

export interface IppGroup {
  readonly tag: number;
  readonly attrs: Map<string, Value[]>;
}

export interface IppResponse {
  /** The status-code (the operation-id when a request is decoded). */
  readonly status: number;
  readonly requestId: number;
  /** One record per attribute group, in order, with the group's delimiter tag. */
  readonly groups: readonly IppGroup[];
}

/** The IPP message could not be read (cut short, or a length pointing past its end). */
export class IppDecodeError extends Error {
  readonly code = 'IPP_DECODE';
  constructor(message: string) {
    super(message);
    this.name = 'IppDecodeError';
  }
}

export function isCollection(value: Value | undefined): value is IppCollection {
  return value instanceof Map;
}

export function isRange(value: Value | undefined): value is IppRange {
  return typeof value === 'object' && value !== null && 'lower' in value && 'upper' in value;
}

export function isResolution(value: Value | undefined): value is IppResolution {
  return typeof value === 'object' && value !== null && 'units' in value;
}

// ---- encoding ----

function valueBytes(tag: number, value: OutValue): Buffer {
  if (tag === TAG.integer || tag === TAG.enum) {
    const body = Buffer.alloc(4);
    body.writeInt32BE(value as number);
    return body;
  }
  if (tag === TAG.boolean) return Buffer.from([value ? 1 : 0]);
  if (tag === TAG.rangeOfInteger) {
    const range = value as IppRange;
    const body = Buffer.alloc(8);
    body.writeInt32BE(range.lower, 0);
    body.writeInt32BE(range.upper, 4);
    return body;
  }
  if (tag === TAG.resolution) {
    const res = value as IppResolution;
    const body = Buffer.alloc(9);
    body.writeInt32BE(res.x, 0);
    body.writeInt32BE(res.y, 4);
    body.writeInt8(res.units === 'dpi' ? 3 : 4, 8);
    return body;
  }
  if (tag >= TAG.unsupported && tag <= 0x1f) return Buffer.alloc(0);
  return Buffer.from(String(value), 'utf8');
}

function field(tag: number, name: string, body: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const head = Buffer.alloc(3);
  head.writeUInt8(tag, 0);
  head.writeUInt16BE(nameBytes.length, 1);
  const len = Buffer.alloc(2);
  len.writeUInt16BE(body.length);
  return Buffer.concat([head, nameBytes, len, body]);
}

function encodeValues(attr: Attr, firstName: string): Buffer[] {
  return attr.values.flatMap((value, i) => {
    const name = i === 0 ? firstName : '';
    if (attr.tag !== TAG.begCollection) return [field(attr.tag, name, valueBytes(attr.tag, value))];
    // RFC 8010 §3.1.6: begCollection, then per member a memberAttrName naming it followed by
    // its values (all with empty names), then endCollection.
    const members = (value as readonly Attr[]).flatMap((member) => [
      field(TAG.memberAttrName, '', Buffer.from(member.name, 'utf8')),
      ...encodeValues(member, ''),
    ]);
    return [field(TAG.begCollection, name, Buffer.alloc(0)), ...members, field(TAG.endCollection, '', Buffer.alloc(0))];
  });
}

export function encodeAttr(attr: Attr): Buffer {
  return Buffer.concat(encodeValues(attr, attr.name));
}

/** An IPP/1.1 request: the operation group, then any further groups (e.g. job attributes). */
export function encodeIppRequest(
  operation: number,
  requestId: number,
  attrs: readonly Attr[],
  groups: ReadonlyArray<{ readonly tag: number; readonly attrs: readonly Attr[] }> = [],
): Buffer {
  const head = Buffer.alloc(9);
  head.writeUInt8(1, 0);
  head.writeUInt8(1, 1);
  head.writeUInt16BE(operation, 2);
  head.writeUInt32BE(requestId, 4);
  head.writeUInt8(TAG.operation, 8);
  const rest = groups.flatMap((g) => [Buffer.from([g.tag]), ...g.attrs.map(encodeAttr)]);
  return Buffer.concat([head, ...attrs.map(encodeAttr), ...rest, Buffer.from([TAG.end])]);
}

// ---- decoding ----

function dateTime(raw: Buffer): Date | string {
  if (raw.length !== 11) return raw.toString('latin1');
  // RFC 2579 DateAndTime: local time plus its offset from UTC.
  const utc = Date.UTC(raw.readUInt16BE(0), raw.readUInt8(2) - 1, raw.readUInt8(3), raw.readUInt8(4), raw.readUInt8(5), raw.readUInt8(6));
  const offsetMin = (raw.readUInt8(9) * 60 + raw.readUInt8(10)) * (raw.toString('latin1', 8, 9) === '-' ? -1 : 1);
  return new Date(utc + raw.readUInt8(7) * 100 - offsetMin * 60_000);
}

function withLanguage(raw: Buffer): string {
  if (raw.length < 4) return '';
  const langLen = raw.readUInt16BE(0);
  const textLen = raw.length >= 4 + langLen ? raw.readUInt16BE(2 + langLen) : 0;
  return raw.toString('utf8', 4 + langLen, 4 + langLen + textLen);
}

function simpleValue(tag: number, raw: Buffer): Value {
  switch (tag) {
    case TAG.integer:
    case TAG.enum:
      return raw.length === 4 ? raw.readInt32BE(0) : raw.toString('utf8');
    case TAG.boolean:
      return raw.length === 1 ? raw.readUInt8(0) !== 0 : raw.toString('utf8');
    case TAG.dateTime:
      return dateTime(raw);
    case TAG.resolution:
      return raw.length === 9
        ? { x: raw.readInt32BE(0), y: raw.readInt32BE(4), units: raw.readInt8(8) === 4 ? 'dpcm' : 'dpi' }
        : Buffer.from(raw);
    case TAG.rangeOfInteger:
      return raw.length === 8 ? { lower: raw.readInt32BE(0), upper: raw.readInt32BE(4) } : Buffer.from(raw);
    case TAG.textWithLanguage:
    case TAG.nameWithLanguage:
      return withLanguage(raw);
    default:
      if (tag >= TAG.unsupported && tag <= 0x1f) return null;
      // octetString, the other binary tags and extensions (0x7f) keep their bytes; 0x40–0x5f are strings.
      if (tag >= 0x40 && tag <= 0x5f) return raw.toString('utf8');
      return Buffer.from(raw);
  }
}

class Reader {
  at = 0;
  constructor(private readonly buf: Buffer) {}

  more(): boolean {
    return this.at < this.buf.length;
  }

  peekTag(): number {
    return this.buf.readUInt8(this.at);
  }

  take(n: number): Buffer {
    if (this.at + n > this.buf.length) throw new IppDecodeError(`IPP message cut short at byte ${this.at} (wanted ${n} more)`);
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  /** One attribute field after its tag byte: its name and raw value. */
  field(): { name: string; raw: Buffer } {
    const name = this.take(this.take(2).readUInt16BE(0)).toString('utf8');
    const raw = this.take(this.take(2).readUInt16BE(0));
    return { name, raw };
  }
}

/**
 * The most values (attributes, their additional values and collection members) one message
 * may carry. A printer's attributes are a few thousand values, a Get-Jobs of the jobs in
 * flight fewer; a 4 MB answer of tiny attributes would be hundreds of thousands, each a Map
 * entry and an array (about 80 MB decoded), so decoding stops here instead.
 */
export const IPP_MAX_VALUES = 50_000;

/** The deepest collections may nest (media-col is two levels deep); deeper would exhaust the stack. */
export const IPP_MAX_COLLECTION_DEPTH = 16;

/** Counts what a message decodes to, refusing it past the limits. */
class Budget {
  private values = 0;
  count(): void {
    if (++this.values > IPP_MAX_VALUES) {
      throw new IppDecodeError(`the IPP answer has more than ${IPP_MAX_VALUES} attributes and values: not a printer's answer`);
    }
  }
}

/** Reads a collection's members up to and including its endCollection. */
function readCollection(reader: Reader, budget: Budget, depth: number): IppCollection {
  if (depth > IPP_MAX_COLLECTION_DEPTH) {
    throw new IppDecodeError(`the IPP answer has collections nested deeper than ${IPP_MAX_COLLECTION_DEPTH}: not a printer's answer`);
  }
  const members = new Map<string, Value[]>();
  let member: Value[] | null = null;
  while (reader.more()) {
    const tag = reader.take(1).readUInt8(0);
    const { raw } = reader.field();
    if (tag === TAG.endCollection) return members;
    budget.count();
    if (tag === TAG.memberAttrName) {
      const name = raw.toString('utf8');
      member = members.get(name) ?? [];
      members.set(name, member);
      continue;
    }
    const value = tag === TAG.begCollection ? readCollection(reader, budget, depth + 1) : simpleValue(tag, raw);
    if (member) member.push(value);
  }
  throw new IppDecodeError('IPP collection without endCollection');
}

/** @throws IppDecodeError when the message is cut short or goes past IPP_MAX_VALUES or IPP_MAX_COLLECTION_DEPTH */
export function decodeIppResponse(buf: Buffer): IppResponse {
  if (buf.length < 9) throw new IppDecodeError('IPP response too short');
  const status = buf.readUInt16BE(2);
  const requestId = buf.readUInt32BE(4);
  const groups: IppGroup[] = [];
  let current: IppGroup | null = null;
  let values: Value[] | null = null;
  const reader = new Reader(buf);
  const budget = new Budget();
  reader.at = 8;
  while (reader.more()) {
    const tag = reader.take(1).readUInt8(0);
    if (tag === TAG.end) break;
    // A group costs a Map: counted like a value, so a message of empty groups is bounded too.
    budget.count();
    if (tag < 0x10) {
      current = { tag, attrs: new Map() };
      groups.push(current);
      values = null;
      continue;
    }
    const { name, raw } = reader.field();
    const value = tag === TAG.begCollection ? readCollection(reader, budget, 1) : simpleValue(tag, raw);
    if (!current) {
      current = { tag: TAG.operation, attrs: new Map() };
      groups.push(current);
    }
    if (name !== '' || values === null) {
      // A name seen before in the group (a printer listing an attribute twice) adds to it.
      const key = name;
      values = current.attrs.get(key) ?? [];
      current.attrs.set(key, values);
    }
    values.push(value);
  }
  return { status, requestId, groups };
}
