/**
 * `npm run agent -- OPTIONS`: the agent without Electron (service mode). Options in
 * docs/INTERFACES.md and `--help`.
 */
import { startHeadlessAgent } from '../headless';
import { logsDir } from '../diagnostics/agent-diagnostics';
import { createLogger } from '../log';
import { checkNodeVersion } from '../node-version';
import { headlessWords } from '../headless-words';
import { createLogFile } from '../log-file';
import { runDiagnostics } from './diagnostics';
import { runAgentSubcommand } from './install-service';
import { fail, printReadyLines, stopOnSignals } from './lifecycle';
import { AGENT_USAGE, DEFAULT_PRINTER, OptionsError, parseAgentOptions, pipelineTuning } from './options';
import { runReportSubcommand } from './report';
import { SITE_OPTION_NAMES, SITE_USAGE, splitSiteOptions } from './site-options';
import { portError } from './port-in-use';
import { noteWhileWaiting, waitingForSiteText } from '../site/bus/waiting-note';
import type { SiteMetrics } from '../site/bus/metrics';
import type { Agent } from '../agent/create-agent';
import type { ScaleState } from '../../shared/scale';
import { runUiAddressSubcommand } from './ui-address';

async function main(): Promise<void> {
  // First: on a Node too old for the agent, one line naming the supported versions.
  const nodeWarning = checkNodeVersion();
  if (nodeWarning) process.stderr.write(`${nodeWarning}\n`);
  if (runAgentSubcommand(process.argv.slice(2))) return;
  if (process.argv[2] === 'diagnostics') return void (await runDiagnostics(process.argv.slice(3)));
  if (await runReportSubcommand(process.argv.slice(2))) return;
  if (await runUiAddressSubcommand(process.argv.slice(2))) return;
  // The relay (and the NATS client) is loaded only for the relay command.
  if (process.argv[2] === 'site-setup') return void (await (await import('./site-setup')).runSiteSetup(process.argv.slice(3)));
  if (process.argv[2] === 'relay') return void (await (await import('./relay')).runRelaySubcommand(process.argv.slice(2)));
  const { site, rest } = splitSiteOptions(process.argv.slice(2));
  const options = parseAgentOptions(rest, process.env, undefined, { alsoKnown: SITE_OPTION_NAMES });
  if (options.help) {
    process.stdout.write(`Usage: npm run agent -- OPTIONS  |  npm run agent -- COMMAND ...\n${AGENT_USAGE}\n${SITE_USAGE}\n`);
    return;
  }
  const ports = { '--ui-port': options.uiPort, '--webhook-port': options.webhookPort, '--metrics-port': site.metricsPort };
  if (!options.apiUrl) throw new OptionsError('--api-url is required (the service address including /external/v1)');
  if (!options.apiKey) {
    throw new OptionsError(
      'an API key is required: set PRINT_STATION_API_KEY, or apiKey in a --config FILE readable only by this user (chmod 600 FILE)',
    );
  }
  if (options.webhookPort !== null && options.webhookSecrets.length === 0) {
    throw new OptionsError(
      '--webhook-port needs a webhook secret (the endpoint secret from the API settings): PRINT_STATION_WEBHOOK_SECRET, webhookSecrets in --config, or --webhook-secret',
    );
  }
  if (site.site && (options.webhookPort !== null || options.pollIntervalSeconds !== null)) {
    // The site is this station's intake: its own webhooks and polling stay off (it polls only while the site is lost).
    process.stderr.write('warning: --webhook-port and --poll-interval do nothing with --site: the relay takes the webhooks and polls\n');
  }
  const log = createLogger({ sink: createLogFile({ dir: logsDir(options.dataDir) }).write, reword: headlessWords });
  for (const secret of [options.apiKey, ...options.webhookSecrets]) log.redact(secret);
  // Made before the agent: the site may deliver bookings as soon as it starts.
  let station: Agent | null = null;
  // prom-client is loaded only when metrics are asked for.
  const metricsModule = site.metricsPort === null ? null : await import('../site/bus/metrics');
  const metrics: SiteMetrics | null =
    metricsModule === null
      ? null
      : new metricsModule.SiteMetrics('station', {
          queued: () => station?.activity.queued() ?? 0,
          printers: async () => (await station?.activity.printers()) ?? [],
          siteConnected: () => (station?.site ? station.site.connected : null),
          scale: () => (station ? scaleOf(station) : null),
        });
  const agent = await startHeadlessAgent({
    catchUpMinutes: options.catchUpMinutes,
    apiUrl: options.apiUrl,
    apiKey: options.apiKey,
    dataDir: options.dataDir,
    log,
    environment: 'custom',
    printer: options.printer,
    documentPrinter: options.documentPrinter,
    webhookPort: options.webhookPort,
    webhookHost: options.webhookHost,
    webhookSecrets: options.webhookSecrets,
    pollIntervalSeconds: options.pollIntervalSeconds,
    uiPort: options.uiPort,
    tuning: pipelineTuning(options),
    scale: options.scale,
    // Once, when the scale first answers (docs/INTERFACES.md): a script waits for this line.
    onScaleAnswered: (uri) => process.stdout.write(`scale: ${uri}\n`),
    site: site.site
      ? {
          servers: site.site,
          station: site.stationName,
          claimMinutes: site.claimMinutes,
          fallbackStation: site.fallbackStation,
          credsFile: site.siteCreds,
          caFile: site.siteCa,
          onDelivered: (ms) => metrics?.intakeLag(ms),
          onRejected: (kind) => metrics?.rejected(kind),
        }
      : null,
  }).catch((error: unknown) => {
    throw portError(error, ports);
  });
  station = agent.agent;
  if (metrics) station.subscribe((event) => event.type === 'job' && metrics.job(event.job));
  const metricsServer =
    metrics && metricsModule && site.metricsPort !== null
      ? await metricsModule.startMetricsServer(metrics, site.metricsPort).catch(async (error: unknown) => {
          await agent.stop();
          throw portError(error, ports);
        })
      : null;
  // Handlers first: whoever reads the ready lines may send SIGTERM at once.
  stopOnSignals(async () => {
    await metricsServer?.close();
    await agent.stop();
  }, log.info);
  printReadyLines(agent);
  if (metricsServer) process.stdout.write(`metrics: ${metricsServer.url}\n`);
  if (agent.agent.site) {
    const joined = agent.agent.site;
    void joined.ready.then(() => {
      const warning = joined.protectionWarning();
      if (warning) process.stderr.write(`${warning}\n`);
      process.stdout.write(`site: ${site.siteText} as ${joined.name}\n`);
    });
    noteWhileWaiting(joined.ready, () => {
      const text = joined.joinProblem
        ? `site: cannot join ${site.siteText!} yet: ${joined.joinProblem}; trying again`
        : waitingForSiteText('site', site.siteText!);
      log.warn(text);
      process.stdout.write(`${text}\n`);
    });
  }
  if (!options.printer && agent.printer === DEFAULT_PRINTER) {
    process.stderr.write(
      `note: no --printer given: labels are saved as PDFs in ./prints (${DEFAULT_PRINTER}); use --printer cups:QUEUE to print\n`,
    );
  }
}

/** The station's scale for /metrics: its URI, state and weight; null without one. */
function scaleOf(station: Agent): { uri: string; state: ScaleState; kg: number | null } | null {
  return station.scale.current ? { uri: station.scale.configured, ...station.scale.status() } : null;
}

main().catch(fail);
