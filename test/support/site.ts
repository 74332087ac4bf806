/**
 * A site on loopback for tests: a private nats-server (JetStream), the sandbox, a relay and
 * stations as headless agents in this process, each with its own data dir and folder printer.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { startHeadlessAgent, type HeadlessAgent } from '../../src/main/headless';
import { createLogger, type Logger } from '../../src/main/log';
import { startRelay, type Relay, type RelayOptions } from '../../src/main/site/relay/relay';
import type { StationRules } from '../../src/shared/domain';
import { startNatsServer, type NatsServer } from './nats';
import { freePort } from './net';
import { writeSiteSetup } from '../../src/main/site/setup/site-setup';
import { WEBHOOK_SECRET } from './agent-harness';

export interface SiteStationHandle {
  readonly name: string;
  readonly printDir: string;
  agent: HeadlessAgent | null;
  start(): Promise<HeadlessAgent>;
  stop(): Promise<void>;
  /** Shipment ids of the PDFs in its folder printer, one per file. */
  printed(): Promise<string[]>;
}

export interface TestSite {
  readonly nats: NatsServer;
  readonly sandbox: Sandbox;
  readonly dir: string;
  readonly lines: string[];
  relay: Relay | null;
  startRelay(overrides?: Partial<RelayOptions>): Promise<Relay>;
  station(
    name: string,
    options?: { rules?: StationRules; fallbackStation?: string; claimMinutes?: number; ui?: boolean },
  ): SiteStationHandle;
  close(): Promise<void>;
}

/**
 * `natsServer`: one the caller owns (not stopped here); `servers`: every address given to
 * relay and stations (a cluster); `creds`: each one's credential file by name (`relay-1`, a
 * station's name), for a protected site (startProtectedSite).
 */
export async function startTestSite(
  options: {
    natsServer?: NatsServer;
    servers?: readonly string[];
    creds?: (name: string) => string;
    /** The CA of the server's TLS certificate (`--site-ca`), for relay and stations. */
    caFile?: string;
  } = {},
): Promise<TestSite> {
  const nats = options.natsServer ?? (await startNatsServer());
  const servers = options.servers ?? [nats.url];
  const sandbox = await startSandbox({ port: 0 });
  const dir = await mkdtemp(join(tmpdir(), 'print-station-site-'));
  const lines: string[] = [];
  const log: Logger = createLogger({ write: (line) => lines.push(line), timestamps: false });
  const stations: SiteStationHandle[] = [];
  const site: TestSite = {
    nats,
    sandbox,
    dir,
    lines,
    relay: null,
    async startRelay(overrides = {}) {
      const relay = await startRelay({
        servers,
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        dataDir: join(dir, 'relay'),
        log,
        pollIntervalSeconds: 1,
        defaultStations: ['Packing 1'],
        credsFile: options.creds?.('relay-1') ?? null,
        caFile: options.caFile ?? null,
        ...overrides,
      });
      if (relay.webhookUrl) sandbox.setWebhooks([{ url: relay.webhookUrl, secret: WEBHOOK_SECRET }]);
      site.relay = relay;
      return relay;
    },
    station(name, stationOptions = {}) {
      const printDir = join(dir, name.replace(/\W/g, '_'), 'prints');
      const handle: SiteStationHandle = {
        name,
        printDir,
        agent: null,
        async start() {
          const agent = await startHeadlessAgent({
            apiUrl: sandbox.baseUrl,
            apiKey: sandbox.apiKey,
            dataDir: join(dir, name.replace(/\W/g, '_'), 'data'),
            log,
            printer: `folder:${printDir}`,
            pollIntervalSeconds: 0,
            ...(stationOptions.ui ? { uiPort: 0, uiStaticDir: resolve('out/renderer') } : {}),
            tuning: { pipeline: { retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20 } },
            site: {
              servers,
              station: name,
              claimMinutes: stationOptions.claimMinutes,
              fallbackStation: stationOptions.fallbackStation ?? null,
              lostAfterMs: 1_000,
              credsFile: options.creds?.(name) ?? null,
              caFile: options.caFile ?? null,
            },
          });
          if (stationOptions.rules) await agent.agent.api.saveSettings({ stationRules: stationOptions.rules });
          await agent.agent.site!.ready;
          handle.agent = agent;
          return agent;
        },
        async stop() {
          await handle.agent?.stop();
          handle.agent = null;
        },
        async printed() {
          const files = await readdir(printDir).catch(() => [] as string[]);
          return files.filter((f) => f.endsWith('.pdf')).map((f) => f.split('_')[0]!);
        },
      };
      stations.push(handle);
      return handle;
    },
    async close() {
      for (const station of stations) await station.stop().catch(() => undefined);
      await site.relay?.stop().catch(() => undefined);
      await sandbox.close();
      if (!options.natsServer) await nats.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return site;
}

/** A site as `site-setup` writes it (operator mode, one credential each), its server started from that config. */
export async function startProtectedSite(stations: readonly string[]): Promise<TestSite & { readonly setupDir: string }> {
  const setupDir = await mkdtemp(join(tmpdir(), 'print-station-protected-'));
  const port = await freePort();
  const store = join(setupDir, 'store');
  const setup = await writeSiteSetup({ out: setupDir, stations, relays: 2, port, store });
  const nats = await startNatsServer({ config: { file: setup.config, port, store } });
  const creds = (name: string): string => {
    const found = setup.creds.find((c) => c.name === name);
    if (!found) throw new Error(`no credential for ${name}`);
    return found.file;
  };
  const site = await startTestSite({ natsServer: nats, creds });
  const close = site.close.bind(site);
  return Object.assign(site, {
    setupDir,
    async close() {
      await close();
      await nats.stop();
      await rm(setupDir, { recursive: true, force: true });
    },
  });
}
