/**
 * A sandbox and a headless agent wired together on loopback, each test with its own temp
 * data directory and folder printer. The agent's webhooks are registered with the
 * sandbox, so bookings reach it the way they would in production.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server';
import { startHeadlessAgent, type HeadlessAgent, type HeadlessAgentOptions } from '../../src/main/headless';
import { createLogger, type Logger } from '../../src/main/log';

export interface Station {
  readonly sandbox: Sandbox;
  readonly dir: string;
  readonly printDir: string;
  readonly lines: string[];
  agent: HeadlessAgent | null;
  start(overrides?: Partial<HeadlessAgentOptions>): Promise<HeadlessAgent>;
  stopAgent(): Promise<void>;
  /** PDFs in the folder printer, by file name. */
  prints(): Promise<string[]>;
  close(): Promise<void>;
}

export const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';

export async function startStation(sandboxOptions: SandboxOptions = {}): Promise<Station> {
  const sandbox = await startSandbox({ port: 0, ...sandboxOptions });
  const dir = await mkdtemp(join(tmpdir(), 'print-station-agent-'));
  const printDir = join(dir, 'prints');
  const lines: string[] = [];
  const log: Logger = createLogger({ write: (line) => lines.push(line), timestamps: false });
  const station: Station = {
    sandbox,
    dir,
    printDir,
    lines,
    agent: null,
    async start(overrides = {}) {
      const agent = await startHeadlessAgent({
        apiUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        dataDir: join(dir, 'data'),
        log,
        printer: `folder:${printDir}`,
        webhookPort: 0,
        webhookSecrets: [WEBHOOK_SECRET],
        pollIntervalSeconds: 0,
        tuning: { pipeline: { retryBaseMs: 20, retryMaxMs: 200, followIntervalMs: 20 } },
        ...overrides,
      });
      if (agent.webhookUrl) sandbox.setWebhooks([{ url: agent.webhookUrl, secret: WEBHOOK_SECRET }]);
      station.agent = agent;
      return agent;
    },
    async stopAgent() {
      sandbox.setWebhooks([]);
      await station.agent?.stop();
      station.agent = null;
    },
    async prints() {
      return (await readdir(printDir).catch(() => [] as string[])).filter((f) => f.endsWith('.pdf')).sort();
    },
    async close() {
      await station.stopAgent();
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return station;
}

/** Poll until `check` returns true or the time runs out (then fail with `what`). */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Shipment id of a folder-printer file (`<shipmentId>_<type>_<layout>[_<reference>]_<jobId>.pdf`). */
export const shipmentOf = (file: string): string => file.split('_')[0]!;
