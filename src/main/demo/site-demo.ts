/**
 * `npm run demo -- --stations N`: a site on one machine. A private nats-server with
 * JetStream (found on PATH), the embedded sandbox, a relay taking its webhooks and polling
 * it, and N stations with their UIs, each printing to its own folder. Packing 2 (when there
 * is one) takes the bookings made in the web application by its station rules; Packing 1 is
 * the default station; every fifth booking is scanned at the last station first, so the
 * site prints it there (a scan claim).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { startSandbox } from '../../sandbox/server';
import { ServiceClient } from '../api/client';
import { startHeadlessAgent, type HeadlessAgent } from '../headless';
import type { Logger } from '../log';
import { startRelay, type Relay } from '../site/relay/relay';
import { TrafficGenerator } from './traffic-generator';

export const NATS_INSTALL_ADVICE =
  'the site demo needs nats-server on PATH: apt install nats-server (Debian, Ubuntu), brew install nats-server (macOS), ' +
  'or a release from https://github.com/nats-io/nats-server/releases';

export interface SiteDemoOptions {
  readonly stations: number;
  readonly dataDir: string;
  /** Folder printers go under here, one folder a station. */
  readonly printsDir: string;
  readonly log: Logger;
  readonly write: (line: string) => void;
  /** @default 'sandbox-key' */
  readonly apiKey?: string;
  /** Seconds between demo bookings. @default 4 */
  readonly everySeconds?: number;
}

export interface SiteDemo {
  readonly natsUrl: string;
  readonly relay: Relay;
  readonly stations: ReadonlyArray<{ readonly name: string; readonly agent: HeadlessAgent }>;
  stop(): Promise<void>;
}

/** The nats-server executable on PATH (or in /usr/sbin, where Debian puts it, outside a user's PATH), else null. */
export function findNatsServer(path = process.env.PATH ?? '', alsoIn: readonly string[] = ['/usr/sbin', '/usr/local/sbin']): string | null {
  const names = process.platform === 'win32' ? ['nats-server.exe'] : ['nats-server'];
  for (const dir of [...path.split(delimiter), ...alsoIn]) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** Resolves once something accepts connections on the loopback port, so the relay's first connect does not wait on a retry. */
async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    // Past the deadline the relay waits for the server itself (and says so).
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startNats(executable: string, storeDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  mkdirSync(storeDir, { recursive: true });
  // In its own process group: Ctrl-C in the terminal reaches every process of the group, and a
  // server that stopped first would leave the relay and the stations warning that the site was
  // lost and waiting to reconnect while they stop. The demo stops it last (stop()), and on any exit.
  const child = spawn(executable, ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
    detached: process.platform !== 'win32',
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => resolve());
  });
  const killOnExit = (): void => void child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  await waitForPort(port, 10_000);
  return { url: `nats://127.0.0.1:${port}`, child };
}

export async function startSiteDemo(options: SiteDemoOptions): Promise<SiteDemo> {
  const executable = findNatsServer();
  if (!executable) throw new Error(NATS_INSTALL_ADVICE);
  const { log, write } = options;
  const apiKey = options.apiKey ?? 'sandbox-key';
  // What has started so far, stopped in reverse when a later step fails (a locked data dir, a
  // port): a failed start must not leave a nats-server or a station running behind the error.
  const started: Array<() => Promise<unknown> | void> = [];
  try {
    const nats = await startNats(executable, join(options.dataDir, 'nats'));
    started.push(() => void nats.child.kill('SIGTERM'));
    const sandbox = await startSandbox({ apiKey, simulateCarrier: true });
    started.push(() => sandbox.close());
    write(`sandbox: ${sandbox.baseUrl}`);
    const names = Array.from({ length: options.stations }, (_, i) => `Packing ${i + 1}`);
    const secret = `demo-${Math.random().toString(36).slice(2)}`;
    log.redact(secret);
    const relay = await startRelay({
      servers: [nats.url],
      apiUrl: sandbox.baseUrl,
      apiKey,
      dataDir: join(options.dataDir, 'relay'),
      log,
      webhook: { port: 0, secrets: [secret] },
      pollIntervalSeconds: 2,
      defaultStations: [names[0]!],
    });
    started.push(() => relay.stop());
    sandbox.setWebhooks([{ url: relay.webhookUrl!, secret }]);
    write(`relay: ${nats.url}`);

    const stations: Array<{ name: string; agent: HeadlessAgent }> = [];
    // The demo's own folder: the start-up check refuses a folder printer whose parent is missing.
    mkdirSync(options.printsDir, { recursive: true });
    for (const [i, name] of names.entries()) {
      const slug = `packing-${i + 1}`;
      const agent = await startHeadlessAgent({
        apiUrl: sandbox.baseUrl,
        apiKey,
        dataDir: join(options.dataDir, slug),
        log,
        environment: 'sandbox',
        printer: `folder:${join(options.printsDir, slug)}`,
        pollIntervalSeconds: 0,
        uiPort: 0,
        site: { servers: [nats.url], station: name },
      });
      started.push(() => agent.stop());
      // Packing 2 takes what the web application books (source APP): a station rule in the site.
      if (i === 1) await agent.agent.api.saveSettings({ stationRules: { mode: 'filtered', sources: ['APP'], carriers: [], matches: [] } });
      stations.push({ name, agent });
      await agent.agent.site!.ready;
      write(`site: ${nats.url} as ${name}`);
      write(`ui: ${name}: ${agent.uiUrl}`);
      write(`printer: ${name}: folder:${join(options.printsDir, slug)}`);
    }

    const client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey });
    const claimer = stations[stations.length - 1]!;
    const traffic = new TrafficGenerator({
      client,
      sandboxOrigin: sandbox.origin,
      apiKey,
      log,
      everySeconds: options.everySeconds,
      onDraft: (draft) => write(`demo: ${draft.referenceId} left unbooked (${draft.gap}): scan it at any station to pack and ship it`),
      // Every fifth booking is scanned at the last station first: a scan claims it there.
      beforeBook: async (referenceId, count) => {
        if (count % 5 !== 0) return;
        await claimer.agent.agent.api.lookup({ scan: referenceId });
        write(`demo: ${referenceId} scanned at ${claimer.name} before booking: it prints there`);
      },
    });
    traffic.start();
    write(`demo: a site of ${stations.length} station(s); open each ui: address, its Site tab shows them all; Ctrl-C stops everything`);

    return {
      natsUrl: nats.url,
      relay,
      stations,
      async stop() {
        await traffic.stop();
        await client.close();
        for (const station of stations) await station.agent.stop();
        await relay.stop();
        await sandbox.close();
        nats.child.kill('SIGTERM');
      },
    };
  } catch (error) {
    for (const stop of started.reverse()) await Promise.resolve(stop()).catch(() => undefined);
    throw error;
  }
}
