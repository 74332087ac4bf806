/**
 * The agent without Electron (service mode): settings in a conf file in the data
 * directory, the API key only in memory, and the same renderer served on loopback with a
 * token kept in the data directory (web/ui-token-file.ts), so its address lasts across restarts. `npm run agent`, `npm run demo`, the E2E tests and the benchmarks all
 * start it here.
 */
import { fileURLToPath } from 'node:url';
import { createAgent, type Agent, type AgentOptions } from './agent/create-agent';
import { dataDirAclWarning } from './data-dir-acl';
import type { Logger } from './log';
import { printerMediaOf, routedPrinterUris } from './printing/routing';
import { checkPrintersAtStart, checkServicePrintersAtStart } from './printing/startup-check';
import { ServiceClient } from './api/client';
import { MemoryApiKeyStore } from './settings/api-key-store';
import { createConfSettingsStore } from './settings/conf-settings-store';
import { applyStartOptions } from './settings/start-options';
import type { SettingsPatch } from './settings/settings-store';
import { bridgeFilePath, writeBridgeFile } from './web/bridge-file';
import { loadOrCreateUiToken, rotateUiToken, uiTokenFilePath } from './web/ui-token-file';
import { newToken } from './web/guards';
import { ensureUiBuilt } from './web/ui-build';
import { startUiServer, type UiServer } from './web/ui-server';

export interface HeadlessAgentOptions {
  readonly apiUrl: string;
  readonly apiKey: string;
  readonly dataDir: string;
  readonly log: Logger;
  readonly environment?: 'sandbox' | 'production' | 'custom';
  /** Label printer URI; overrides (and updates) the stored routing. @default the stored one */
  readonly printer?: string | null;
  /** A4 document printer URI. @default `printer` */
  readonly documentPrinter?: string | null;
  /** Receive webhooks on this port (0 = any). null = webhooks off. @default null */
  readonly webhookPort?: number | null;
  /** @default '127.0.0.1' */
  readonly webhookHost?: string;
  readonly webhookSecrets?: readonly string[];
  /** Seconds; 0 = no polling. @default the stored setting (15) */
  readonly pollIntervalSeconds?: number | null;
  /** Serve the web UI on 127.0.0.1:N (0 = any). null = no UI. @default null */
  readonly uiPort?: number | null;
  /**
   * The UI's token is kept for the next start. False for a run whose data dir starts fresh (the
   * demo without --keep-data): the UI then says its address is for this run only. A UI port of 0
   * (any) changes the address at each start whatever this says. @default true
   */
  readonly uiAddressKept?: boolean;
  /** The built renderer; built there first when it has no index.html. @default out/renderer */
  readonly uiStaticDir?: string;
  /** Passed through to createAgent (tests, benchmarks). */
  /** How often the file `report` finds this agent by is tried again after it could not be written. @default 30000 */
  readonly bridgeRetryMs?: number;
  readonly tuning?: Pick<AgentOptions, 'client' | 'pipeline' | 'targets' | 'scaleMonitor' | 'onDraftOpened'>;
  /** Exit on a rejected key instead of running disconnected. @default true */
  readonly requireValidKey?: boolean;
  /** What the UI's "Try the demo" connects to (src/main/demo/). @default none: startDemo refuses */
  readonly demo?: AgentOptions['demo'];
  /** Take bookings from a site of stations (`--site`). @default null */
  readonly site?: AgentOptions['site'];
  /** `--catch-up MINUTES`: what was booked this long before the station's first start prints, once. @default none */
  readonly catchUpMinutes?: number | null;
  /** The station's scale URI; overrides (and updates) the stored one. @default the stored one (none) */
  readonly scale?: string | null;
  /** The scale answered for the first time (the CLI prints `scale: URI`). @default none */
  readonly onScaleAnswered?: (uri: string) => void;
}

export interface HeadlessAgent {
  readonly agent: Agent;
  readonly uiUrl: string | null;
  readonly webhookUrl: string | null;
  readonly printer: string;
  /** Where A4 documents go (the routing's document printer). */
  readonly documentPrinter: string;
  stop(): Promise<void>;
}

// Two levels up from src/main/headless.ts and from the bundle in out/agent alike.
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

export async function startHeadlessAgent(options: HeadlessAgentOptions): Promise<HeadlessAgent> {
  const { log } = options;
  const uiDir = options.uiStaticDir ?? DEFAULT_UI_DIR;
  if (options.uiPort != null) await ensureUiBuilt({ outDir: uiDir, projectRoot: PROJECT_ROOT, log });
  const stored = createConfSettingsStore({ dataDir: options.dataDir, apiUrl: options.apiUrl, logger: log });
  const patch: { -readonly [K in keyof SettingsPatch]: SettingsPatch[K] } = { apiUrl: options.apiUrl };
  if (options.environment) patch.environment = options.environment;
  const routing: Record<string, string> = {};
  if (options.printer) routing.labelPrinter = options.printer;
  if (options.documentPrinter ?? options.printer) routing.documentPrinter = (options.documentPrinter ?? options.printer)!;
  if (Object.keys(routing).length > 0) patch.routing = routing;
  if (options.pollIntervalSeconds != null) patch.intake = { pollIntervalSeconds: options.pollIntervalSeconds };
  if (options.webhookPort != null) patch.intake = { ...patch.intake, webhooksEnabled: true };
  if (options.scale != null) patch.scale = options.scale;
  // A full or read-only data disk does not stop the start: the options apply, unsaved (start-options.ts).
  const settings = applyStartOptions(stored, patch, log);
  // Windows: a data dir anyone may read exposes the ledger, the logs and the UI's token (data-dir-acl.ts).
  const aclWarning = await dataDirAclWarning({ dataDir: options.dataDir });
  if (aclWarning) log.warn(aclWarning);
  // Before anything starts: a queue that does not exist or a folder that cannot be written
  // stops the start with one line; a scheduler that is down only warns (it may come up).
  // Every printer the routing can send to (a list and rules), not only the two defaults.
  const routed = settings.get().routing;
  await checkPrintersAtStart(routedPrinterUris(routed), options.tuning?.targets ?? {}, log.warn, (uri) => printerMediaOf(routed, uri));
  // A service printer the service does not list fails every job (GET /printers).
  await checkServicePrinters(options, routedPrinterUris(routed));

  const apiKeys = new MemoryApiKeyStore(options.apiKey, log);
  // The UI's token is read before the agent starts so rotateUiAddress can reach the server once it listens.
  let ui: UiServer | null = null;
  let removeBridgeFile = (): void => undefined;
  let bridgeRetry: NodeJS.Timeout | null = null;
  const bridgeRetryMs = options.bridgeRetryMs ?? 30_000;
  let tokenKept = true;
  const uiToken =
    options.uiPort != null
      ? keptUiToken(options.dataDir, log, () => {
          tokenKept = false;
        })
      : null;
  if (uiToken) log.redact(uiToken);
  const publishBridge = (server: UiServer): void => {
    // `npm run agent -- report` and `ui-address` cannot open the ledger this agent holds: they ask here instead.
    const info = { pid: process.pid, origin: new URL(server.url).origin, token: server.token };
    const tryWrite = (): boolean => {
      try {
        removeBridgeFile = writeBridgeFile(options.dataDir, info);
        return true;
      } catch {
        return false;
      }
    };
    if (bridgeRetry) clearInterval(bridgeRetry);
    bridgeRetry = null;
    if (tryWrite()) return;
    // A full or read-only data disk: written as soon as it can be, so `report` reaches this agent then.
    log.warn(
      `the report command cannot reach this agent's UI until ${bridgeFilePath(options.dataDir)} can be written (free space on the data directory's disk); the agent tries again every ${Math.round(bridgeRetryMs / 1000)} s`,
    );
    bridgeRetry = setInterval(() => {
      if (!tryWrite()) return;
      log.info("the report command reaches this agent's UI again");
      if (bridgeRetry) clearInterval(bridgeRetry);
      bridgeRetry = null;
    }, bridgeRetryMs);
    bridgeRetry.unref();
  };
  const uiAddress = {
    // The same address at the next start: a fixed port, a kept token, a data dir that is not wiped.
    lasts: options.uiPort !== 0 && tokenKept && options.uiAddressKept !== false,
    rotate(): string {
      if (!ui) throw new Error('the web UI has not started yet');
      const next = rotateUiToken(options.dataDir);
      log.redact(next);
      ui.setToken(next);
      publishBridge(ui);
      return ui.url;
    },
  };
  const agent = await createAgent({
    dataDir: options.dataDir,
    settings,
    apiKeys,
    log,
    webhook:
      options.webhookPort == null ? null : { port: options.webhookPort, host: options.webhookHost, secrets: options.webhookSecrets ?? [] },
    requireValidKey: options.requireValidKey ?? true,
    demo: options.demo,
    site: options.site ?? null,
    catchUpMinutes: options.catchUpMinutes,
    uiAddress: options.uiPort != null ? uiAddress : undefined,
    onScaleAnswered: options.onScaleAnswered,
    ...options.tuning,
  });
  try {
    await agent.start();
  } catch (error) {
    await agent.stop();
    throw error;
  }

  if (options.uiPort != null) {
    ui = await startUiServer({ api: agent.api, subscribe: agent.subscribe, port: options.uiPort, staticDir: uiDir, token: uiToken! });
    publishBridge(ui);
  }

  return {
    agent,
    // The current address: rotateUiAddress changes it while the agent runs.
    get uiUrl() {
      return ui?.url ?? null;
    },
    webhookUrl: agent.webhookUrl,
    printer: settings.get().routing.labelPrinter,
    documentPrinter: settings.get().routing.documentPrinter,
    async stop() {
      if (bridgeRetry) clearInterval(bridgeRetry);
      removeBridgeFile();
      await ui?.close();
      await agent.stop();
    },
  };
}

/** checkServicePrintersAtStart with a client of its own, closed after. */
async function checkServicePrinters(options: HeadlessAgentOptions, uris: readonly string[]): Promise<void> {
  if (!uris.some((uri) => uri.startsWith('service:'))) return;
  const client = new ServiceClient({ ...options.tuning?.client, baseUrl: options.apiUrl, apiKey: options.apiKey });
  try {
    await checkServicePrintersAtStart(uris, client, options.log.warn);
  } finally {
    await client.close();
  }
}

/**
 * The UI token kept in the data dir; on a disk that takes no write (full, read-only) a token
 * for this run only, so the station still starts and its UI answers (the ledger's own outage
 * says what to do): its address then changes at the next start, and the log says so.
 */
function keptUiToken(dataDir: string, log: Logger, notKept: () => void): string {
  try {
    return loadOrCreateUiToken(dataDir);
  } catch (error) {
    notKept();
    log.warn(
      `the UI address could not be kept in ${uiTokenFilePath(dataDir)} (${(error as Error).message}): this run's address changes at the next start; free space on the data directory's disk`,
    );
    return newToken();
  }
}
