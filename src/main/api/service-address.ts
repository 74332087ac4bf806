/**
 * What the client checks before it builds a request: the service address (the API key must
 * not cross a public network in clear) and every id put into a path (a `..` segment would be
 * collapsed by the URL parser and send the call to another route).
 */
import { isIP } from 'node:net';
import { CodedError } from '../errors';

/** Set to `1` to allow a plain http:// service address on a public host (a TLS-terminating proxy you trust, a lab). */
export const ALLOW_PLAIN_HTTP_ENV = 'PRINT_STATION_ALLOW_PLAIN_HTTP';

export class InsecureServiceAddressError extends CodedError {
  constructor(url: string) {
    super(
      'INSECURE_SERVICE_ADDRESS',
      `Refused to send the API key in clear to ${url}: use https:// for the service address (plain http:// is accepted only for ` +
        `this machine and private networks; set ${ALLOW_PLAIN_HTTP_ENV}=1 to allow it anyway).`,
    );
  }
}

/**
 * Loopback, private and link-local addresses, and `localhost`: the only places plain HTTP is
 * accepted. Any other name may resolve anywhere, so it counts as public.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (isIP(host) === 6) {
    if (host === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isLocalHost(mapped[1]!);
    return /^f[cd]/.test(host) || /^fe[89ab]/.test(host); // unique local fc00::/7, link-local fe80::/10
  }
  return false;
}

/** Throws InsecureServiceAddressError for http:// on a public host unless allowed. */
export function checkServiceAddress(url: string, allowPlainHttp = process.env[ALLOW_PLAIN_HTTP_ENV] === '1'): void {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:' && !allowPlainHttp && !isLocalHost(parsed.hostname)) throw new InsecureServiceAddressError(url);
}

/** Why `value` cannot be one path segment, or null when it can. */
export function invalidSegmentReason(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return 'needs a non-empty id';
  if (value === '.' || value === '..') return `"${value}" is not a valid id (a dot segment would change the route)`;
  if (value.length > 200) return `is not a valid id (${value.length} characters; at most 200)`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'is not a valid id (it holds control characters)';
  return null;
}
