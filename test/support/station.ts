/**
 * One station for a test: the embedded sandbox pushing signed webhooks to the real
 * headless agent, which prints to a folder and serves the web UI on loopback. `url` is
 * what the agent prints as `ui:`.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHeadlessAgent, type HeadlessAgent, type HeadlessAgentOptions } from '../../src/main/headless';
import { createLogger } from '../../src/main/log';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server';

export interface Booked {
  readonly shipmentId: string;
  readonly trackingId: string;
  readonly referenceId: string;
}

export interface Station {
  readonly url: string;
  readonly sandbox: Sandbox;
  readonly agent: HeadlessAgent;
  /** Temp directory of this station; the label printer is `folder:<dir>/prints`. */
  readonly dir: string;
  readonly printsDir: string;
  /** The agent's log lines (kept as a test attachment on failure). */
  readonly logFile: string;
  /**
   * Book a shipment through the sandbox (an integration booking, source API) and wait
   * until the agent printed its label automatically: then the station has seen it.
   */
  book(input?: { reference_id?: string }): Promise<Booked>;
  close(): Promise<void>;
}

export async function pdfsIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.pdf')).sort();
  } catch {
    return [];
  }
}

/**
 * `sandboxOptions`: e.g. a `now` clock, to let booking tokens expire. `pollIntervalSeconds`:
 * poll the service too (default 0: webhooks only). `agentOptions`: more of the agent's options
 * (e.g. its `scale`). `beforeAgent`: run against the sandbox before the agent first starts (a
 * team's history that a fresh station must not print by itself).
 */
export async function startStation(
  sandboxOptions: SandboxOptions = {},
  pollIntervalSeconds = 0,
  agentOptions: Partial<HeadlessAgentOptions> = {},
  beforeAgent: (sandbox: Sandbox) => Promise<void> = async () => {},
): Promise<Station> {
  const dir = await mkdtemp(join(tmpdir(), 'print-station-e2e-'));
  const printsDir = join(dir, 'prints');
  const logFile = join(dir, 'agent.log');
  const secret = randomBytes(16).toString('hex');
  const sandbox = await startSandbox({ ...sandboxOptions, port: 0 });
  let agent: HeadlessAgent;
  try {
    await beforeAgent(sandbox);
    agent = await startHeadlessAgent({
      apiUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      dataDir: join(dir, 'data'),
      log: createLogger({ write: (line) => appendFileSync(logFile, `${line}\n`) }),
      environment: 'sandbox',
      printer: `folder:${printsDir}`,
      webhookPort: 0,
      webhookSecrets: [secret],
      pollIntervalSeconds,
      uiPort: 0,
      uiStaticDir: resolve('out/renderer'),
      ...agentOptions,
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  if (!agent.uiUrl || !agent.webhookUrl) throw new Error('the agent started without its UI or webhook receiver');
  sandbox.setWebhooks([{ url: agent.webhookUrl, secret }]);

  return {
    url: agent.uiUrl,
    sandbox,
    agent,
    dir,
    printsDir,
    logFile,
    book: async (input) => {
      const booked = await sandbox.bookShipment({ source: 'API', ...input });
      const deadline = Date.now() + 15_000;
      while (!(await pdfsIn(printsDir)).some((f) => f.startsWith(booked.shipmentId))) {
        if (Date.now() > deadline) throw new Error(`the agent did not print the label of ${booked.shipmentId} within 15 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return booked;
    },
    close: async () => {
      await agent.stop();
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
