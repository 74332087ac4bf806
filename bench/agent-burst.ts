/**
 * One agent run over a burst, as a station runs it: the CLI as a child process, every
 * booking delivered at once as a signed webhook (32 in flight), until every label is
 * spooled (the `spooled` lines in the agent's own log, with its timestamps).
 */
import path from 'node:path';
import { silentLogger } from '../src/main/log';
import { createConfSettingsStore } from '../src/main/settings/conf-settings-store';
import type { PrivateCups } from '../test/support/cups';
import { agentArgs, startAgentProcess } from '../test/support/reliability/agent-process';
import { freePort } from '../test/support/net';
import { until } from '../test/support/reliability/wait';
import { bookedEnvelope, mapConcurrent, WebhookSender } from '../test/support/reliability/webhook-sender';
import { loggedAt, presetPollMark, waitForStartupPoll } from './agent-child';
import type { SheetLayout } from './pages';
import type { Booked, SandboxProcess } from './sandbox-process';

const SECRET = 'whsec-bench-burst-0123';

export interface AgentBurstOptions {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly workDir: string;
  readonly log: (line: string) => void;
  /** The data dir's name under workDir (a fresh ledger: the same shipments print again). */
  readonly name: string;
  /** --batch-max; always passed, so the run does not depend on the CLI's default. */
  readonly batchMax: number;
  /** The label printer holds A4 sheets in this layout (settings routing.sheetLayout). @default label stock, layout `printer` */
  readonly sheetLayout?: SheetLayout;
}

export interface AgentBurstRun {
  /** First webhook sent → last label spooled. */
  readonly seconds: number;
  /** First webhook sent → first label spooled. */
  readonly first: number;
  /** First webhook sent → last webhook acknowledged: how long the burst took to arrive. */
  readonly delivered: number;
  /** The files the queue received from this run, one a spooler job. */
  readonly outputs: string[];
}

export async function runAgentBurst(o: AgentBurstOptions, shipments: readonly Booked[]): Promise<AgentBurstRun> {
  const { sandbox, cups, queue } = o;
  const webhookPort = await freePort();
  const dataDir = path.join(o.workDir, o.name);
  presetPollMark(dataDir, sandbox.baseUrl);
  if (o.sheetLayout) {
    // What the Settings view stores for an A4 label printer; --printer then only names the queue.
    createConfSettingsStore({ dataDir, apiUrl: sandbox.baseUrl, logger: silentLogger }).update({
      routing: { labelPrinterMedia: 'a4', sheetLayout: o.sheetLayout },
    });
  }
  await sandbox.clearLog();
  const agent = await startAgentProcess({
    args: agentArgs({
      apiUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      printer: `cups:${queue}`,
      dataDir,
      webhookPort,
      webhookSecret: SECRET,
      pollIntervalSeconds: 0,
      batchMax: o.batchMax,
    }),
    env: cups.env,
  });
  try {
    await waitForStartupPoll(sandbox);
    const outputsBefore = (await cups.outputs(queue)).length;
    // Dated now, after the agent's first start: a fresh station holds back what was booked before it.
    const sentFrom = Date.now();
    const envelopes = shipments.map((b, i) => bookedEnvelope(b, { bookedAt: new Date(sentFrom + i) }));
    const sender = new WebhookSender(agent.webhookUrl!, SECRET, 32);
    o.log(`${o.name}: ${shipments.length} webhooks at once to the agent (--batch-max ${o.batchMax})…`);
    const t0 = Date.now();
    await mapConcurrent(envelopes, 32, (e) => sender.deliver(e));
    const delivered = (Date.now() - t0) / 1000;
    await sender.close();
    await until(`${shipments.length} labels spooled by the agent`, () => loggedAt(agent, 'spooled').size >= shipments.length, {
      timeoutMs: 30 * 60_000,
      intervalMs: 200,
    });
    const spooledAt = [...loggedAt(agent, 'spooled').values()];
    await agent.stop();
    await cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });
    return {
      seconds: (Math.max(...spooledAt) - t0) / 1000,
      first: (Math.min(...spooledAt) - t0) / 1000,
      delivered,
      outputs: (await cups.outputs(queue)).slice(outputsBefore),
    };
  } finally {
    await agent.stop();
  }
}
