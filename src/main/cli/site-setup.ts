/**
 * `npm run agent -- site-setup --out DIR --stations "A,B" [--relays N] [--port N] [--store DIR]
 * [--tls-cert FILE --tls-key FILE]`: writes a protected site's server config and
 * credentials (src/main/site/setup/site-setup.ts); prints `config: FILE` once and
 * `creds: NAME FILE` for each credential.
 */
import { parseArgs } from 'node:util';
import { writeSiteSetup } from '../site/setup/site-setup';
import { OptionsError } from './options';

export const SITE_SETUP_USAGE = `Usage: npm run agent -- site-setup --out DIR --stations "NAME,NAME,..." [--relays N] [--port N] [--store DIR]
Writes everything a protected site's NATS server needs (docs/OPERATIONS.md, "A protected site"):
  --out DIR              where nats-server.conf and the .creds files go (created; files readable by their owner only)
  --stations "A,B"       the stations' names, exactly as each station's --station-name (comma-separated)
  --relays N             how many relay credentials (relay-1, relay-2, ...; default 1)
  --port N               the server's port (default 4222)
  --store DIR            JetStream's store (default DIR/jetstream)
  --tls-cert FILE        the server's TLS certificate (PEM); with --tls-key, clients connect with tls://HOST:PORT
  --tls-key FILE         the certificate's key (PEM)
Start the server with: nats-server -c DIR/nats-server.conf`;

export async function runSiteSetup(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      out: { type: 'string' },
      stations: { type: 'string' },
      relays: { type: 'string' },
      port: { type: 'string' },
      store: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return void process.stdout.write(`${SITE_SETUP_USAGE}\n`);
  if (!values.out) throw new OptionsError('site-setup needs --out DIR (where the config and credentials go)');
  if (!values.stations) throw new OptionsError('site-setup needs --stations "NAME,NAME,..." (each station\'s --station-name)');
  const whole = (name: string, raw: string | undefined, min: number, max: number, fallback: number): number => {
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new OptionsError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return value;
  };
  if (!!values['tls-cert'] !== !!values['tls-key']) throw new OptionsError('--tls-cert and --tls-key go together');
  const result = await writeSiteSetup({
    out: values.out,
    stations: values.stations
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    relays: whole('--relays', values.relays, 1, 10, 1),
    port: whole('--port', values.port, 1, 65535, 4222),
    store: values.store,
    tls: values['tls-cert'] && values['tls-key'] ? { cert: values['tls-cert'], key: values['tls-key'] } : null,
  });
  process.stdout.write(`config: ${result.config}\n`);
  for (const { name, file } of result.creds) process.stdout.write(`creds: ${name} ${file}\n`);
}
