import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent } from '../../../src/main/agent/create-agent';
import { createLogger } from '../../../src/main/log';
import { MemoryApiKeyStore } from '../../../src/main/settings/api-key-store';
import { createConfSettingsStore } from '../../../src/main/settings/conf-settings-store';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { freePort } from '../../support/net';
import { until } from '../../support/intake/fixtures';

/**
 * The whole agent (webhooks and polling on) against the sandbox: stopped while 50
 * bookings happen, then restarted on the same data directory. Reconciliation and the
 * sandbox's webhook retries both deliver those bookings; each must print exactly once.
 */

const SECRET = 'whsec-restart';

describe('agent restart', () => {
  let sandbox: Sandbox | null = null;
  let agent: Agent | null = null;
  let dir: string | null = null;

  afterEach(async () => {
    await agent?.stop().catch(() => {});
    await sandbox?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('stopped while 50 bookings happen, then restarted: 50 prints, each exactly once', async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-restart-'));
    const dataDir = path.join(dir, 'data');
    const prints = path.join(dir, 'prints');
    const port = await freePort();
    const webhookUrl = `http://127.0.0.1:${port}/webhooks`;
    sandbox = await startSandbox({ webhooks: [{ url: webhookUrl, secret: SECRET }] });
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), timestamps: false });

    const boot = async (): Promise<Agent> => {
      const settings = createConfSettingsStore({ dataDir, apiUrl: sandbox!.baseUrl, logger: log });
      settings.update({
        routing: { ...settings.get().routing, labelPrinter: `folder:${prints}`, documentPrinter: `folder:${prints}` },
        intake: { webhooksEnabled: true, pollIntervalSeconds: 1 },
      });
      const a = await createAgent({
        dataDir,
        settings,
        apiKeys: new MemoryApiKeyStore(sandbox!.apiKey, log),
        log,
        webhook: { port, secrets: [SECRET] },
        pipeline: { followIntervalMs: 50, retryBaseMs: 50 },
      });
      await a.start();
      return a;
    };
    const printed = async (): Promise<string[]> => (await fs.readdir(prints).catch(() => [])).filter((f) => f.endsWith('.pdf'));
    const shipmentOf = (file: string): string => file.split('_')[0]!;

    agent = await boot();
    const before = [await sandbox.bookShipment({ source: 'API' }), await sandbox.bookShipment({ source: 'APP' })];
    await until(async () => (await printed()).length === 2, 15_000);
    await agent.stop();
    agent = null;

    const whileDown = [];
    for (let i = 0; i < 50; i++) whileDown.push(await sandbox.bookShipment({ source: i % 3 === 0 ? 'APP' : 'API' }));

    agent = await boot();
    await until(async () => (await printed()).length >= 52, 30_000);
    // Give late webhook retries and a few more polls the chance to print something twice.
    await new Promise((r) => setTimeout(r, 2500));

    const files = await printed();
    const perShipment = new Map<string, number>();
    for (const f of files) perShipment.set(shipmentOf(f), (perShipment.get(shipmentOf(f)) ?? 0) + 1);
    const expected = [...before, ...whileDown].map((b) => b.shipmentId);
    expect(files).toHaveLength(52);
    expect([...perShipment.keys()].sort()).toEqual([...expected].sort());
    expect([...perShipment.values()].every((n) => n === 1)).toBe(true);
    const jobs = agent.ledger.search({ limit: 1000 });
    expect(jobs).toHaveLength(52);
    expect(lines.join('\n')).not.toContain(sandbox.apiKey);
  }, 60_000);
});
