/**
 * The site options of `npm run agent` and `npm run agent -- relay` (docs/INTERFACES.md, "A
 * site of stations"). Split off the command line before the agent's own options are read, so
 * they add to the agent's parser without changing it.
 */
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { maskPassword, parseSiteAddress } from '../site/bus/site-address';
import { stationNameProblem } from '../site/bus/schemas';
import { commandHelp } from './command-help';
import { OptionsError } from './options';

export interface SiteCliOptions {
  /** `--site`: the servers; null when not in a site. */
  readonly site: readonly string[] | null;
  /** `--site` as shown and logged: a password in it is masked. */
  readonly siteText: string | null;
  /** `--station-name` (agent). @default the host name */
  readonly stationName: string;
  /** `--default-station`, repeatable (relay). */
  readonly defaultStations: readonly string[];
  /** `--claim-minutes`. @default 30 */
  readonly claimMinutes: number;
  /** `--metrics-port`; null = no metrics. */
  readonly metricsPort: number | null;
  /** `--fallback-station` (agent). @default none */
  readonly fallbackStation: string | null;
  /** `--fallback-after` seconds (relay). @default 120 */
  readonly fallbackAfterSeconds: number;
  /** `--site-creds FILE`: NATS user credentials. @default none */
  readonly siteCreds: string | null;
  /** `--site-ca FILE`: the CA (PEM) of the site server's TLS certificate. @default the system's CAs */
  readonly siteCa: string | null;
}

export const SITE_USAGE = `Site of stations (NATS JetStream; docs/OPERATIONS.md "A site of stations"):
  --site nats://HOST:PORT  take bookings from the site (comma-separated for a cluster) instead of own webhooks/polling
  --station-name NAME      this station's name in the site (default: the host name)
  --fallback-station NAME  the station that prints this station's bookings when it is down
  --claim-minutes N        how long a scan claims the scanned code for this station (default 30)
  --site-creds FILE        NATS credentials file (.creds from site-setup) for a protected site
  --site-ca FILE           the CA (PEM) that signed the site server's TLS certificate (a private or self-signed one)
  --metrics-port N         Prometheus metrics at http://127.0.0.1:N/metrics`;

export const RELAY_USAGE = commandHelp({
  usage: 'relay --site nats://HOST:PORT --api-url URL [--webhook-port N] [--poll-interval S] [--default-station NAME]...',
  about: `The site's intake: takes the service's webhooks and/or polls, decides which station prints each
booking and publishes it once to the site. Prints nothing; needs no printer.`,
  options: `  --site nats://HOST:PORT  the site's NATS server (comma-separated for a cluster)
  --default-station NAME   where a booking goes that no scan claim and no station rule decides (repeatable; first online wins;
                           none: such a booking waits at the relay until a scan claims it)
  --api-url URL            the service's base address including /external/v1; the key in PRINT_STATION_API_KEY or --config
  --webhook-port N         receive the service's webhooks on N at /webhooks (needs --webhook-secret or PRINT_STATION_WEBHOOK_SECRET)
  --webhook-host ADDR      bind address for webhooks (default 127.0.0.1)
  --poll-interval SECONDS  poll GET /shipments for the whole site every SECONDS (default 2; 0 = webhooks only)
  --claim-minutes N        longest a scan claim lasts (default 30)
  --fallback-after S       a booking waits this long for its offline station before its fallback prints it (default 120)
  --site-creds FILE        NATS credentials file (.creds from site-setup) for a protected site
  --site-ca FILE           the CA (PEM) that signed the site server's TLS certificate (a private or self-signed one)
  --metrics-port N         Prometheus metrics at http://127.0.0.1:N/metrics
  --data-dir DIR           the relay's own ledger (webhook ids, poll mark; default: relay/ in the agent's default data dir)
  --config FILE            JSON file with apiUrl, apiKey, webhookSecrets, ...`,
});

const OPTIONS = {
  site: { type: 'string' },
  'station-name': { type: 'string' },
  'default-station': { type: 'string', multiple: true },
  'claim-minutes': { type: 'string' },
  'metrics-port': { type: 'string' },
  'fallback-station': { type: 'string' },
  'fallback-after': { type: 'string' },
  'site-creds': { type: 'string' },
  'site-ca': { type: 'string' },
} as const;

function number(name: string, raw: string | undefined, min: number, max: number, fallback: number): number;
function number(name: string, raw: string | undefined, min: number, max: number, fallback: null): number | null;
function number(name: string, raw: string | undefined, min: number, max: number, fallback: number | null): number | null {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new OptionsError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** Every site option as typed, for "did you mean" in the agent's parser. */
export const SITE_OPTION_NAMES: readonly string[] = Object.keys(OPTIONS).map((name) => `--${name}`);

/** Takes the site options out of argv; `rest` goes to the agent's own parser. */
export function splitSiteOptions(argv: readonly string[]): { site: SiteCliOptions; rest: string[] } {
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const mine = new Set(Object.keys(OPTIONS));
  const taken: string[] = [];
  const rest: string[] = [];
  let skip = -1;
  for (const token of tokens ?? []) {
    if (token.kind === 'option' && mine.has(token.name)) {
      taken.push(...argv.slice(token.index, token.index + (token.inlineValue === false && token.value !== undefined ? 2 : 1)));
      skip = token.inlineValue === false && token.value !== undefined ? token.index + 1 : token.index;
      continue;
    }
    if (token.index <= skip) continue;
    if (token.kind === 'option-terminator') rest.push('--');
    else rest.push(argv[token.index]!);
    if (token.kind === 'option' && token.value !== undefined && token.inlineValue === false) skip = token.index + 1;
  }
  const { values } = parseArgs({ args: taken, options: OPTIONS, strict: true, allowPositionals: false });
  const siteText = values.site ?? null;
  const stationName = (values['station-name'] ?? hostname()).trim() || hostname();
  const problem = siteText === null ? null : stationNameProblem(stationName);
  if (problem !== null) throw new OptionsError(`--station-name cannot be used in a site: ${problem}`);
  for (const name of [...(values['default-station'] ?? []), ...(values['fallback-station'] ? [values['fallback-station']] : [])]) {
    const wrong = stationNameProblem(name);
    if (wrong !== null) throw new OptionsError(`station name "${name.slice(0, 40)}…" cannot be used in a site: ${wrong}`);
  }
  return {
    site: {
      site: siteText === null ? null : parseSiteAddress(siteText),
      siteText: siteText === null ? null : maskPassword(siteText),
      stationName,
      defaultStations: values['default-station'] ?? [],
      claimMinutes: number('--claim-minutes', values['claim-minutes'], 1, 24 * 60, 30),
      metricsPort: number('--metrics-port', values['metrics-port'], 0, 65535, null),
      fallbackStation: values['fallback-station'] ?? null,
      fallbackAfterSeconds: number('--fallback-after', values['fallback-after'], 1, 7 * 24 * 3600, 120),
      siteCreds: values['site-creds'] ?? null,
      siteCa: values['site-ca'] ?? null,
    },
    rest,
  };
}
