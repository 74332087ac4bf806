/**
 * `npm run agent -- relay --site nats://HOST:PORT --api-url URL …`: the site's intake
 * (src/main/site/relay/relay.ts). Takes the agent's service options; prints `relay: nats://…` once
 * connected.
 */
import { logsDir } from '../diagnostics/agent-diagnostics';
import { createLogger } from '../log';
import { createLogFile } from '../log-file';
import { SiteMetrics, startMetricsServer, type MetricsServer } from '../site/bus/metrics';
import { startRelay } from '../site/relay/relay';
import { missingProtections, protectionWarning } from '../site/bus/site-address';
import { noteWhileWaiting, waitingForSiteText } from '../site/bus/waiting-note';
import { stopOnSignals } from './lifecycle';
import { OptionsError, parseAgentOptions } from './options';
import { RELAY_USAGE, SITE_OPTION_NAMES, splitSiteOptions } from './site-options';
import { portError } from './port-in-use';
import { defaultRelayDataDir } from '../default-data-dir';

/** True when argv is the relay command (then it runs until stopped). */
export async function runRelaySubcommand(argv: readonly string[]): Promise<boolean> {
  if (argv[0] !== 'relay') return false;
  const { site, rest } = splitSiteOptions(argv.slice(1));
  const options = parseAgentOptions(rest, process.env, undefined, { dataDir: defaultRelayDataDir(), alsoKnown: SITE_OPTION_NAMES });
  if (options.help) {
    process.stdout.write(`${RELAY_USAGE}\n`);
    return true;
  }
  if (!site.site || !site.siteText) throw new OptionsError('relay needs --site nats://HOST:PORT (the site’s NATS server)');
  if (!options.apiUrl) throw new OptionsError('--api-url is required (the service address including /external/v1)');
  if (!options.apiKey) throw new OptionsError('an API key is required: env PRINT_STATION_API_KEY or apiKey in --config');
  if (options.webhookPort !== null && options.webhookSecrets.length === 0) {
    throw new OptionsError(
      '--webhook-port needs a webhook secret: PRINT_STATION_WEBHOOK_SECRET, webhookSecrets in --config, or --webhook-secret',
    );
  }
  const log = createLogger({ sink: createLogFile({ dir: logsDir(options.dataDir) }).write });
  for (const secret of [options.apiKey, ...options.webhookSecrets]) log.redact(secret);
  let connected = false;
  let waiting = 0;
  const metrics = new SiteMetrics('relay', { siteConnected: () => connected, waiting: () => waiting });
  const starting = startRelay({
    servers: site.site,
    apiUrl: options.apiUrl,
    apiKey: options.apiKey,
    dataDir: options.dataDir,
    log,
    webhook:
      options.webhookPort === null ? null : { port: options.webhookPort, host: options.webhookHost, secrets: options.webhookSecrets },
    pollIntervalSeconds: options.pollIntervalSeconds ?? 2,
    defaultStations: site.defaultStations,
    claimMinutes: site.claimMinutes,
    fallbackAfterMs: site.fallbackAfterSeconds * 1000,
    credsFile: site.siteCreds,
    caFile: site.siteCa,
    onPublished: (record, fresh) => {
      if (!fresh) return;
      metrics.publishedBooking(record.reason);
      const bookedAt = record.notice.bookedAt ? Date.parse(record.notice.bookedAt) : NaN;
      if (Number.isFinite(bookedAt)) metrics.intakeLag(Math.max(0, Date.now() - bookedAt));
    },
    onLink: (up) => (connected = up),
    onRejected: (kind) => metrics.rejected(kind),
    onWaiting: (ids) => (waiting = ids.length),
  });
  noteWhileWaiting(starting, () => {
    const text = waitingForSiteText('relay', site.siteText!);
    log.warn(text);
    process.stdout.write(`${text}\n`);
  });
  const ports = { '--webhook-port': options.webhookPort, '--metrics-port': site.metricsPort };
  const relay = await starting.catch((error: unknown) => {
    throw portError(error, ports);
  });
  connected = true;
  let metricsServer: MetricsServer | null = null;
  if (site.metricsPort !== null)
    metricsServer = await startMetricsServer(metrics, site.metricsPort).catch(async (error: unknown) => {
      await relay.stop();
      throw portError(error, ports);
    });
  stopOnSignals(async () => {
    await metricsServer?.close();
    await relay.stop();
  }, log.info);
  const warning = protectionWarning('relay', missingProtections(site.site, site.siteCreds, relay.site.tls));
  if (warning) process.stderr.write(`${warning}\n`);
  process.stdout.write(`relay: ${site.siteText}\n`);
  if (site.defaultStations.length === 0)
    process.stdout.write(
      'relay: no --default-station: a booking that no scan claim and no station rule decides waits here (logged) until one does\n',
    );
  if (relay.webhookUrl) process.stdout.write(`webhooks: ${relay.webhookUrl}\n`);
  if (metricsServer) process.stdout.write(`metrics: ${metricsServer.url}\n`);
  return true;
}
