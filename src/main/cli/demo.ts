/**
 * `npm run demo`: the whole station on one machine. The embedded sandbox, the agent
 * against it (webhooks and polling both on), the web UI, and a traffic generator that
 * books a shipment every few seconds (every third left as a draft to finish from a scan).
 * Labels go to folder:./demo-prints unless --printer says otherwise. The demo's entry
 * point: it may load the sandbox (the agent itself never does).
 */
import { randomBytes } from 'node:crypto';
import { startSandbox } from '../../sandbox/server';
import { ServiceClient } from '../api/client';
import { startHeadlessAgent } from '../headless';
import { SIMULATED_SCALE_URI, SIMULATED_SCALE_WORD, SimulatedScale } from '../demo/simulated-scale';
import { logsDir } from '../diagnostics/agent-diagnostics';
import { createLogger } from '../log';
import { checkNodeVersion } from '../node-version';
import { headlessWords } from '../headless-words';
import { createLogFile } from '../log-file';
import { fail, printReadyLines, stopOnSignals } from './lifecycle';
import { AGENT_USAGE, OptionsError, parseAgentOptions, pipelineTuning } from './options';
import { startSiteDemo } from '../demo/site-demo';
import { TrafficGenerator, type DemoDraft } from '../demo/traffic-generator';
import { DEMO_DATA_DIR, prepareDemoDataDir } from '../demo/demo-data-dir';
import { portError } from './port-in-use';

const DEMO_PRINTER = 'folder:./demo-prints';
const KEEP_DATA = '--keep-data';

const DEMO_USAGE = `Usage: npm run demo -- [--keep-data] OPTIONS
Defaults: the embedded sandbox, printer ${DEMO_PRINTER}, data dir ./${DEMO_DATA_DIR}/ (never the agent's).
  --keep-data              keep the demo's ledger, settings and ./demo-prints from the last run (default: every demo starts fresh)
  --stations N             a site: a relay and N stations on a private nats-server (needs nats-server on PATH)
  --scale sim              a simulated scale (no hardware), shown as ${SIMULATED_SCALE_URI}: a scanned draft's parcels go on it, and come off once the label printed`;

/** `--stations N` (a site demo), taken off the command line before the agent's options are read. */
function takeStations(argv: readonly string[]): { stations: number | null; rest: string[] } {
  const rest: string[] = [];
  let stations: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const inline = arg.startsWith('--stations=') ? arg.slice('--stations='.length) : null;
    if (arg !== '--stations' && inline === null) {
      rest.push(arg);
      continue;
    }
    const raw = inline ?? argv[++i];
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > 20)
      throw new OptionsError(`--stations must be a whole number from 1 to 20, got "${raw}"`);
    stations = value;
  }
  return { stations, rest };
}

async function main(): Promise<void> {
  // First: on a Node too old for the agent, one line naming the supported versions.
  const nodeWarning = checkNodeVersion();
  if (nodeWarning) process.stderr.write(`${nodeWarning}\n`);
  const argv = process.argv.slice(2);
  const keepData = argv.includes(KEEP_DATA);
  const { stations, rest } = takeStations(argv.filter((arg) => arg !== KEEP_DATA));
  const options = parseAgentOptions(rest, process.env, undefined, { dataDir: DEMO_DATA_DIR });
  if (options.help) {
    process.stdout.write(`${DEMO_USAGE}\n${AGENT_USAGE}\n`);
    return;
  }
  const start = prepareDemoDataDir(options.dataDir, keepData);
  // The demo's own labels folder starts fresh with its ledger: last run's PDFs are of shipments
  // the new sandbox never had. A --printer folder the demo did not make is never emptied.
  if (!options.printer) prepareDemoDataDir(DEMO_PRINTER.slice('folder:'.length), keepData);
  if (start === 'not-a-demo-dir') {
    process.stderr.write(`note: ${options.dataDir} was not made by the demo: it is used as it is, nothing in it is removed\n`);
  }
  if (stations !== null) {
    const log = createLogger({ sink: createLogFile({ dir: logsDir(options.dataDir) }).write, reword: headlessWords });
    const write = (line: string): void => void process.stdout.write(`${line}\n`);
    // --printer folder:DIR puts the stations' folders under DIR (default ./demo-prints).
    const printsDir = options.printer?.startsWith('folder:')
      ? options.printer.slice('folder:'.length)
      : DEMO_PRINTER.slice('folder:'.length);
    const site = await startSiteDemo({ stations, dataDir: options.dataDir, printsDir, log, write });
    stopOnSignals(() => site.stop(), log.info);
    return;
  }
  // Like the agent: every demo run leaves its log in <data dir>/logs/agent.log.
  const log = createLogger({ sink: createLogFile({ dir: logsDir(options.dataDir) }).write, reword: headlessWords });
  const apiKey = options.apiKey ?? 'sandbox-key';
  const secret = options.webhookSecrets[0] ?? randomBytes(24).toString('hex');
  log.redact(secret);
  const sandbox = options.apiUrl ? null : await startSandbox({ apiKey, simulateCarrier: true });
  const apiUrl = options.apiUrl ?? sandbox!.baseUrl;
  if (sandbox) process.stdout.write(`sandbox: ${sandbox.baseUrl}\n`);

  // --scale sim: the demo's own simulated scale, weighing each draft scanned (demo/simulated-scale.ts).
  const simulatedScale = options.scale === SIMULATED_SCALE_WORD ? new SimulatedScale() : null;
  const agent = await startHeadlessAgent({
    apiUrl,
    apiKey,
    dataDir: options.dataDir,
    log,
    environment: sandbox ? 'sandbox' : 'custom',
    printer: options.printer ?? DEMO_PRINTER,
    documentPrinter: options.documentPrinter ?? options.printer ?? DEMO_PRINTER,
    webhookPort: options.webhookPort ?? 0,
    webhookHost: options.webhookHost,
    webhookSecrets: [secret],
    pollIntervalSeconds: options.pollIntervalSeconds ?? 5,
    uiPort: options.uiPort ?? 0,
    // A fresh demo makes a new UI address: the UI gives no advice to bookmark it.
    uiAddressKept: keepData,
    // Like the agent: --batch-max (or batchMax in --config) overrides the pipeline's default.
    tuning: simulatedScale
      ? {
          ...pipelineTuning(options),
          scaleMonitor: { open: simulatedScale.opener() },
          onDraftOpened: (draft) => simulatedScale.draftOpened(draft),
        }
      : pipelineTuning(options),
    scale: simulatedScale ? SIMULATED_SCALE_URI : options.scale,
    // Once, when the scale first answers (docs/INTERFACES.md): a script waits for this line.
    onScaleAnswered: (uri) => process.stdout.write(`scale: ${uri}\n`),
  }).catch(async (error: unknown) => {
    await sandbox?.close();
    throw portError(error, { '--ui-port': options.uiPort, '--webhook-port': options.webhookPort });
  });
  sandbox?.setWebhooks([{ url: agent.webhookUrl!, secret }]);
  // The simulated scale takes a parcel off once its label has printed.
  if (simulatedScale) agent.agent.subscribe((event) => simulatedScale.onAgentEvent(event));

  const trafficClient = sandbox ? new ServiceClient({ baseUrl: apiUrl, apiKey }) : null;
  // Drafts are printed, not only logged: they are the demo's invitation to pack and ship at the station.
  const onDraft = (draft: DemoDraft): void => {
    process.stdout.write(`demo: ${draft.referenceId} left unbooked (${draft.gap}): scan ${draft.referenceId} to pack and ship it\n`);
  };
  const traffic =
    sandbox && trafficClient ? new TrafficGenerator({ client: trafficClient, sandboxOrigin: sandbox.origin, apiKey, log, onDraft }) : null;
  // Handlers first: whoever reads the ready lines may send Ctrl-C at once.
  stopOnSignals(async () => {
    await traffic?.stop();
    await trafficClient?.close();
    await agent.stop();
    await sandbox?.close();
  }, log.info);
  printReadyLines(agent);
  traffic?.start();
  process.stdout.write('demo: booking a shipment every few seconds; open the ui: address above, Ctrl-C stops everything\n');
  if (traffic) {
    process.stdout.write('demo: every third shipment is left as a draft (DRAFT-0003, DRAFT-0006, ...) to pack and ship from a scan\n');
  }
}

main().catch(fail);
