import { CodedError } from '../../errors';
import { backoffDelay } from '../../retry/backoff';
import { SITE_JOIN } from '../../retry/policies';
import { maskPassword } from '../bus/site-address';
import { connectSite, type SiteConnection, type SiteConnectionOptions } from '../bus/connection';

/**
 * A relay's first setup of the site, tried until it succeeds: a relay started before its
 * server, against a server without JetStream yet, a cluster still electing its leader, or a
 * server that refuses its credential for a while (a config being replaced) waits for the site
 * instead of exiting. Each failure says what failed, when it is tried again and what to do;
 * the waits follow SITE_JOIN, as a station's joins do. Only `signal` ends it early (the relay is being stopped).
 */

export class RelayStartAbortedError extends CodedError {
  constructor() {
    super('RELAY_START_ABORTED', 'the relay was stopped before it joined the site');
  }
}

export async function joinSiteWithRetries(
  options: SiteConnectionOptions,
  say: (line: string) => void,
  signal?: AbortSignal,
): Promise<SiteConnection> {
  const address = maskPassword(options.servers.join(','));
  for (let failures = 0; ; failures++) {
    if (signal?.aborted) throw new RelayStartAbortedError();
    try {
      return await connectSite(options);
    } catch (error) {
      if (signal?.aborted) throw new RelayStartAbortedError();
      const waitMs = backoffDelay(SITE_JOIN, failures);
      const problem = error instanceof Error ? error.message : String(error);
      say(`relay: cannot set up the site at ${address}: ${problem}; trying again in ${Math.max(1, Math.round(waitMs / 1000))} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, waitMs);
        function done(): void {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }
}
