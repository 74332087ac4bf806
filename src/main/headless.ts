/**
 * The agent without Electron (service mode): settings in a conf file in the data
 * directory, the API key only in memory, and the same renderer served on loopback with a
 * per-run token. `npm run agent`, `npm run demo`, the E2E tests and the benchmarks all
 * start it here.
 */
import { fileURLToPath } from 'node:url';
import { createAgent, type Agent, type AgentOptions } from './agent/create-agent';
import { dataDirAclWarning } from './data-dir-acl';
import type { Logger } from './log';
import { routedPrinterUris } from './printing/routing';
import { checkPrintersAtStart } from './printing/startup-check';
import { MemoryApiKeyStore } from './settings/api-key-store';
import { createConfSettingsStore } from './settings/conf-settings-store';
import { applyStartOptions } from './settings/start-options';
import type { SettingsPatch } from './settings/settings-store';
import { bridgeFilePath, writeBridgeFile } from './web/bridge-file';
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
  /** The built renderer; built there first when it has no index.html. @default out/renderer */
  readonly uiStaticDir?: string;
  /** Passed through to createAgent (tests, benchmarks). */
  /** How often the file `report` finds this agent by is tried again after it could not be written. @default 30000 */
  readonly bridgeRetryMs?: number;
  readonly tuning?: Pick<AgentOptions, 'client' | 'pipeline' | 'targets'>;
  /** Exit on a rejected key instead of running disconnected. @default true */
  readonly requireValidKey?: boolean;
  /** What the UI's "Try the demo" connects to (src/main/demo/). @default none: startDemo refuses */
  readonly demo?: AgentOptions['demo'];
}

export interface HeadlessAgent {
  readonly agent: Agent;
  readonly uiUrl: string | null;
  readonly webhookUrl: string | null;
  readonly printer: string;
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
  // A full or read-only data disk does not stop the start: the options apply, unsaved (start-options.ts).
  const settings = applyStartOptions(stored, patch, log);
  // Windows: a data dir anyone may read exposes the ledger, the logs and the UI's token (data-dir-acl.ts).
  const aclWarning = await dataDirAclWarning({ dataDir: options.dataDir });
  if (aclWarning) log.warn(aclWarning);
  // Before anything starts: a queue that does not exist or a folder that cannot be written
  // stops the start with one line; a scheduler that is down only warns (it may come up).
  // Every printer the routing can send to (issue 13: a list and rules), not only the two defaults.
  await checkPrintersAtStart(routedPrinterUris(settings.get().routing), options.tuning?.targets ?? {}, log.warn);

  const apiKeys = new MemoryApiKeyStore(options.apiKey, log);
  const agent = await createAgent({
    dataDir: options.dataDir,
    settings,
    apiKeys,
    log,
    webhook:
      options.webhookPort == null ? null : { port: options.webhookPort, host: options.webhookHost, secrets: options.webhookSecrets ?? [] },
    requireValidKey: options.requireValidKey ?? true,
    demo: options.demo,
    ...options.tuning,
  });
  try {
    await agent.start();
  } catch (error) {
    await agent.stop();
    throw error;
  }

  let ui: UiServer | null = null;
  let removeBridgeFile = (): void => undefined;
  let bridgeRetry: NodeJS.Timeout | null = null;
  const bridgeRetryMs = options.bridgeRetryMs ?? 30_000;
  if (options.uiPort != null) {
    ui = await startUiServer({ api: agent.api, subscribe: agent.subscribe, port: options.uiPort, staticDir: uiDir });
    // `npm run agent -- report` cannot open the ledger this agent holds: it asks here instead.
    const info = { pid: process.pid, origin: new URL(ui.url).origin, token: ui.token };
    const tryWrite = (): boolean => {
      try {
        removeBridgeFile = writeBridgeFile(options.dataDir, info);
        return true;
      } catch {
        return false;
      }
    };
    if (!tryWrite()) {
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
    }
  }

  return {
    agent,
    uiUrl: ui?.url ?? null,
    webhookUrl: agent.webhookUrl,
    printer: settings.get().routing.labelPrinter,
    async stop() {
      if (bridgeRetry) clearInterval(bridgeRetry);
      removeBridgeFile();
      await ui?.close();
      await agent.stop();
    },
  };
}
