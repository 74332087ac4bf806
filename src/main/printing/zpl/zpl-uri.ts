/**
 * The address parts of the raw ZPL printer URIs: `zpl://HOST[:PORT][?dpi=N]` (read with the
 * WHATWG URL parser) and the `?dpi=N` a `zpl-cups:` or `zpl-windows:` name may end with.
 */
import { ZPL_DPIS, type ZplDpi } from './zpl-raster';

export interface ZplAddress {
  readonly host: string;
  readonly port: number;
  /** Null: asked from the printer (`~HI`). */
  readonly dpi: ZplDpi | null;
}

export const ZPL_DEFAULT_PORT = 9100;

function dpiOf(value: string, fail: (why: string) => never): ZplDpi {
  const dpi = Number(value);
  if (!(ZPL_DPIS as readonly number[]).includes(dpi)) fail(`dpi ${value} is not one of ${ZPL_DPIS.join(', ')}`);
  return dpi as ZplDpi;
}

/** Reads what follows `zpl:` (`//HOST[:PORT][?dpi=N]`); calls `fail` on anything else. */
export function parseZplAddress(rest: string, fail: (why: string) => never): ZplAddress {
  if (!rest.startsWith('//')) fail('a ZPL printer is written zpl://HOST[:PORT]');
  let url: URL;
  try {
    url = new URL(`zpl:${rest}`);
  } catch {
    return fail('the host is not a valid host name or address');
  }
  if (url.hostname === '') fail('no host');
  if (url.username || url.password) fail('a ZPL printer URI has no user or password');
  if (url.pathname !== '' && url.pathname !== '/') fail('a ZPL printer URI has no path');
  if (url.hash) fail('a ZPL printer URI has no #fragment');
  const port = url.port === '' ? ZPL_DEFAULT_PORT : Number(url.port);
  if (port < 1 || port > 65535) fail(`port ${url.port} is out of range`);
  const keys = [...url.searchParams.keys()];
  if (keys.some((key) => key !== 'dpi')) fail(`unknown option ${keys.find((k) => k !== 'dpi')}; only ?dpi=203, 300 or 600`);
  const dpi = url.searchParams.get('dpi');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port, dpi: dpi === null ? null : dpiOf(dpi, fail) };
}

/** A printer name or queue with an optional trailing `?dpi=N`. */
export function splitDpi(rest: string, fail: (why: string) => never): { readonly name: string; readonly dpi: ZplDpi | null } {
  const match = /^(.*)\?dpi=([^?]*)$/.exec(rest);
  if (!match) return { name: rest, dpi: null };
  return { name: match[1]!, dpi: dpiOf(match[2]!, fail) };
}
