import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createAccount, createOperator, createUser } from '@nats-io/nkeys';
import { CodedError } from '../../errors';
import { stationNameProblem } from '../bus/schemas';
import { accountJwt, credsFile, operatorJwt, userJwt } from './jwt';
import { relayPermissions, stationPermissions } from './permissions';

/**
 * `npm run agent -- site-setup`: everything a protected site's NATS server needs, so an
 * administrator never translates prose into permissions. The server runs in operator mode
 * with its accounts in the config (`resolver: MEMORY`): one account for the site with
 * JetStream on, one for the server's own traffic. Each relay and station gets a standard
 * `.creds` file (a user JWT with its permissions, permissions.ts, and its nkey seed),
 * readable by its owner only. The operator's and the account's seeds are not kept: a site
 * that needs another station runs site-setup again with every name, restarts the server
 * with the new config and hands out the new files.
 */

export interface SiteSetupOptions {
  readonly out: string;
  readonly stations: readonly string[];
  /** @default 1 */
  readonly relays?: number;
  /** @default 4222 */
  readonly port?: number;
  /** JetStream's store. @default `<out>/jetstream` */
  readonly store?: string;
  /** The server's TLS certificate and key (PEM); both or neither. @default none */
  readonly tls?: { readonly cert: string; readonly key: string } | null;
}

export interface SiteSetupResult {
  readonly config: string;
  /** Credential name (`relay-1`, a station's name) → its file. */
  readonly creds: ReadonlyArray<{ readonly name: string; readonly file: string }>;
}

export class SiteSetupError extends CodedError {
  constructor(message: string) {
    super('SITE_SETUP_INVALID', message);
  }
}

/** A file name for a credential: its name with anything but letters, digits, `-` and `_` made `_`, made unique. */
function fileName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'station';
  let candidate = base;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}`;
  taken.add(candidate.toLowerCase());
  return `${candidate}.creds`;
}

function quote(text: string): string {
  return JSON.stringify(text);
}

export async function writeSiteSetup(options: SiteSetupOptions): Promise<SiteSetupResult> {
  const relays = options.relays ?? 1;
  const port = options.port ?? 4222;
  if (options.stations.length === 0)
    throw new SiteSetupError('--stations needs at least one station name: --stations "Packing 1,Packing 2"');
  const seen = new Set<string>();
  for (const station of options.stations) {
    const problem = stationNameProblem(station);
    if (problem) throw new SiteSetupError(`station "${station.slice(0, 40)}" cannot be used in a site: ${problem}`);
    if (seen.has(station)) throw new SiteSetupError(`station "${station}" is listed twice`);
    seen.add(station);
  }
  if (!Number.isInteger(relays) || relays < 1 || relays > 10) throw new SiteSetupError('--relays must be a whole number from 1 to 10');
  const out = resolve(options.out);
  const store = resolve(options.store ?? join(out, 'jetstream'));
  await mkdir(out, { recursive: true, mode: 0o700 });

  const operator = createOperator();
  const site = createAccount();
  const system = createAccount();
  const preload = [
    [site.getPublicKey(), accountJwt(operator, site, 'site', true)],
    [system.getPublicKey(), accountJwt(operator, system, 'system', false)],
  ];
  const lines = [
    '# The site\'s NATS server, written by `npm run agent -- site-setup` (docs/OPERATIONS.md, "A protected site").',
    '# Start it with: nats-server -c ' + join(out, 'nats-server.conf'),
    `port: ${port}`,
    '# Site messages are small; a larger one is refused by the server before any station reads it.',
    'max_payload: 65536',
    `operator: ${quote(operatorJwt(operator, 'print-station-site', system.getPublicKey()))}`,
    `system_account: ${system.getPublicKey()}`,
    'resolver: MEMORY',
    'resolver_preload: {',
    ...preload.map(([key, jwt]) => `  ${key}: ${quote(jwt!)}`),
    '}',
    `jetstream: { store_dir: ${quote(store)} }`,
  ];
  if (options.tls) {
    lines.push(`tls: { cert_file: ${quote(resolve(options.tls.cert))}, key_file: ${quote(resolve(options.tls.key))} }`);
  }
  const config = join(out, 'nats-server.conf');
  await writeFile(config, `${lines.join('\n')}\n`, { mode: 0o600 });
  await chmod(config, 0o600);

  const names = new Set<string>();
  const creds: Array<{ name: string; file: string }> = [];
  const write = async (name: string, permissions: ReturnType<typeof relayPermissions>): Promise<void> => {
    const user = createUser();
    const file = join(out, fileName(name, names));
    await writeFile(file, credsFile(userJwt(site, user, name, permissions), user.getSeed()), { mode: 0o600 });
    await chmod(file, 0o600);
    creds.push({ name, file });
  };
  for (let n = 1; n <= relays; n++) await write(`relay-${n}`, relayPermissions());
  for (const station of options.stations) await write(station, stationPermissions(station));
  return { config, creds };
}
