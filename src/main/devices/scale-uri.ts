/**
 * Scale URIs (docs/INTERFACES.md, Scales): `serial:PATH[?protocol=P&baud=N&parity=none|even|odd&bits=7|8]`,
 * `hid:VVVV:PPPP` (vendor and product id, hex) and `none`. Parsed once, with an error that
 * says which part is wrong and what the valid forms are.
 */
import { SCALE_ERROR_CODES, ScaleError } from './errors';
import type { SerialParity } from './protocols/protocol';
import { SERIAL_PROTOCOLS, isSerialProtocolName, type SerialProtocolName } from './protocols/registry';

export type { SerialParity } from './protocols/protocol';

export interface SerialScaleAddress {
  readonly kind: 'serial';
  /** The port: `/dev/ttyUSB0`, `/dev/serial/by-id/…`, `COM3`. */
  readonly path: string;
  readonly protocol: SerialProtocolName;
  readonly baud: number;
  readonly parity: SerialParity;
  readonly bits: 7 | 8;
}

export interface HidScaleAddress {
  readonly kind: 'hid';
  readonly vendorId: number;
  readonly productId: number;
}

export type ScaleAddress = { readonly kind: 'none' } | SerialScaleAddress | HidScaleAddress;

export const SCALE_URI_FORMS: readonly string[] = ['serial:PATH?protocol=sics&baud=9600&parity=none&bits=8', 'hid:VVVV:PPPP', 'none'];

const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
const QUERY_KEYS = ['protocol', 'baud', 'parity', 'bits'] as const;

function invalid(uri: string, why: string): ScaleError {
  return new ScaleError(
    SCALE_ERROR_CODES.INVALID_SCALE_URI,
    `Scale "${uri}" is not a valid scale URI (${why}). Use one of: ${SCALE_URI_FORMS.join(', ')}.`,
  );
}

/** @throws ScaleError INVALID_SCALE_URI naming the wrong part. */
export function parseScaleUri(uri: string): ScaleAddress {
  const text = uri.trim();
  if (text === '' || text === 'none') return { kind: 'none' };
  if (text.startsWith('serial:')) return parseSerial(uri, text.slice('serial:'.length));
  if (text.startsWith('hid:')) return parseHid(uri, text.slice('hid:'.length));
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  throw invalid(uri, scheme ? `unknown scheme "${scheme}"` : 'no scheme');
}

function parseSerial(uri: string, rest: string): SerialScaleAddress {
  const question = rest.indexOf('?');
  const path = question === -1 ? rest : rest.slice(0, question);
  if (path === '') throw invalid(uri, 'no port path after serial:');
  const query = new URLSearchParams(question === -1 ? '' : rest.slice(question + 1));
  for (const key of query.keys()) {
    if (!(QUERY_KEYS as readonly string[]).includes(key)) throw invalid(uri, `unknown setting "${key}" (known: ${QUERY_KEYS.join(', ')})`);
  }
  const protocolText = query.get('protocol') ?? 'sics';
  if (!isSerialProtocolName(protocolText)) {
    throw invalid(uri, `unknown protocol "${protocolText}" (known: ${Object.keys(SERIAL_PROTOCOLS).join(', ')})`);
  }
  const defaults = SERIAL_PROTOCOLS[protocolText].line;
  const baudText = query.get('baud');
  const baud = baudText === null ? defaults.baud : Number(baudText);
  if (!(BAUD_RATES as readonly number[]).includes(baud)) throw invalid(uri, `baud "${baudText}" is not one of ${BAUD_RATES.join(', ')}`);
  const parity = query.get('parity') ?? defaults.parity;
  if (parity !== 'none' && parity !== 'even' && parity !== 'odd') throw invalid(uri, `parity "${parity}" is not none, even or odd`);
  const bitsText = query.get('bits');
  const bits = bitsText === null ? defaults.bits : Number(bitsText);
  if (bits !== 7 && bits !== 8) throw invalid(uri, `bits "${bitsText}" is not 7 or 8`);
  return { kind: 'serial', path, protocol: protocolText, baud, parity, bits };
}

function parseHid(uri: string, rest: string): HidScaleAddress {
  const match = /^([0-9a-f]{4}):([0-9a-f]{4})$/i.exec(rest);
  if (!match) throw invalid(uri, 'a HID scale is hid:VVVV:PPPP, its vendor and product id as 4 hex digits each (lsusb shows them)');
  return { kind: 'hid', vendorId: parseInt(match[1]!, 16), productId: parseInt(match[2]!, 16) };
}

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

/** The canonical URI: every serial setting written out; `parseScaleUri(formatScaleUri(a))` gives `a` back. */
export function formatScaleUri(address: ScaleAddress): string {
  switch (address.kind) {
    case 'none':
      return 'none';
    case 'hid':
      return `hid:${hex4(address.vendorId)}:${hex4(address.productId)}`;
    case 'serial':
      return `serial:${address.path}?protocol=${address.protocol}&baud=${address.baud}&parity=${address.parity}&bits=${address.bits}`;
  }
}
