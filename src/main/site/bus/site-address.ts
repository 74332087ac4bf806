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
    try {
      url = new URL(server);
    } catch {
      throw new SiteAddressError(`--site ${server} is not an address: use nats://HOST:PORT`);
    }
    if (url.protocol !== 'nats:' && url.protocol !== 'tls:') {
      throw new SiteAddressError(`--site ${server} must start with nats:// (tls:// is accepted too): use nats://HOST:PORT`);
    }
    if (!url.port) throw new SiteAddressError(`--site ${server} has no port: use nats://HOST:PORT (the server's default is 4222)`);
  }
  return servers;
}
