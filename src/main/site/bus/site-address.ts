import { CodedError } from '../../errors';

export class SiteAddressError extends CodedError {
  constructor(message: string) {
    super('INVALID_SITE_ADDRESS', message);
  }
}

/**
 * `--site nats://HOST:PORT`, or several comma-separated for a cluster
 * (`nats://a:4222,nats://b:4222,nats://c:4222`): the client connects to any and moves to
 * another when one is lost. Returns the list of servers.
 */
export function parseSiteAddress(text: string): string[] {
  const servers = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (servers.length === 0) throw new SiteAddressError('--site needs an address: nats://HOST:PORT');
  for (const server of servers) {
    let url: URL;
    const shown = maskPassword(server);
    try {
      url = new URL(server);
    } catch {
      throw new SiteAddressError(`--site ${shown} is not an address: use nats://HOST:PORT`);
    }
    if (url.protocol !== 'nats:' && url.protocol !== 'tls:') {
      throw new SiteAddressError(`--site ${shown} must start with nats:// (tls:// is accepted too): use nats://HOST:PORT`);
    }
    if (!url.port) throw new SiteAddressError(`--site ${shown} has no port: use nats://HOST:PORT (the server's default is 4222)`);
  }
  return servers;
}

/**
 * `nats://user:pass@host:4222` is accepted (the server's user and password); whatever is
 * shown or logged of the address goes through here, so the password never is.
 */
export function maskPassword(address: string): string {
  return address.replace(/(\/\/[^:/@,]*):([^@/,]*)@/g, '$1:***@');
}

/** The servers without user and password, and the first user and password found (all share one). */
export function splitCredentials(servers: readonly string[]): { servers: string[]; user: string | null; pass: string | null } {
  let user: string | null = null;
  let pass: string | null = null;
  const plain = servers.map((server) => {
    let url: URL;
    try {
      url = new URL(server);
    } catch {
      return server;
    }
    if (url.username === '' && url.password === '') return server;
    user ??= decodeURIComponent(url.username);
    pass ??= decodeURIComponent(url.password);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  });
  return { servers: plain, user, pass };
}

/** A protection a connection to the site lacks. */
export type MissingProtection = 'credentials' | 'tls';

/**
 * The protections a connection to the site lacks: credentials (a creds file or a user in
 * the address) and TLS (`tls://`, or a server that requires it). Empty when it has both.
 */
export function missingProtections(
  servers: readonly string[],
  credsFile: string | null | undefined,
  tlsRequired = false,
): MissingProtection[] {
  const missing: MissingProtection[] = [];
  if (!credsFile && splitCredentials(servers).user === null) missing.push('credentials');
  if (!tlsRequired && !servers.every((s) => s.trim().toLowerCase().startsWith('tls://'))) missing.push('tls');
  return missing;
}

const MISSING_WORDS: Record<MissingProtection, string> = {
  credentials: 'no credentials (--site-creds FILE)',
  tls: 'no TLS (tls://HOST:PORT)',
};

/** The one line a relay or station prints at start on a site that lacks a protection, or null. */
export function protectionWarning(who: 'relay' | 'site', missing: readonly MissingProtection[]): string | null {
  if (missing.length === 0) return null;
  return (
    `warning: ${who}: the site connection has ${missing.map((m) => MISSING_WORDS[m]).join(' and ')}: anyone who can reach ` +
    'the server can read or make bookings; set the site up with `npm run agent -- site-setup` (docs/OPERATIONS.md)'
  );
}
