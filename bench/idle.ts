/**
 * Idle: the agent's CLI (a child process; bundled, as `npm run agent` runs it) with polling on and
 * nothing to print; its RSS and CPU over a window, read from /proc. The first seconds
 * after start (TypeScript loading, the start-up reconciliation) are left out.
 */
import { AGENT_NODE_FLAGS } from '../scripts/bundle-agent';
import type { PrivateCups } from '../test/support/cups';
import { agentArgs, startAgentProcess } from '../test/support/reliability/agent-process';
import { cpuSeconds, rssMb } from '../test/support/reliability/proc-stats';
import { sleep } from '../test/support/reliability/wait';
import { presetPollMark } from './agent-child';
import type { SandboxProcess } from './sandbox-process';

export interface IdleResult {
  /** Largest RSS seen in the window, MiB. */
  readonly rss_mb: number;
  readonly rss_mean_mb: number;
  /** CPU time over wall time in the window, percent of one core. */
  readonly cpu_percent: number;
  readonly seconds: number;
  readonly poll_interval_s: number;
  readonly polls: number;
  /** The same agent through tsx (the TypeScript loader), when measured. */
  readonly rss_mb_tsx?: number;
  readonly cpu_percent_tsx?: number;
}

export interface IdleContext {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly seconds: number;
  readonly dataDir: string;
  /** @default 5 */
  readonly pollIntervalSeconds?: number;
  /** @default 5000 */
  readonly warmupMs?: number;
  /** Run this plain-JavaScript build of the CLI instead of the TypeScript through tsx. */
  readonly bundledScript?: string;
}

export async function measureIdle(ctx: IdleContext): Promise<IdleResult> {
  const poll = ctx.pollIntervalSeconds ?? 5;
  presetPollMark(ctx.dataDir, ctx.sandbox.baseUrl);
  const agent = await startAgentProcess({
    ...(ctx.bundledScript ? { script: ctx.bundledScript, execArgv: [...AGENT_NODE_FLAGS] } : {}),
    args: agentArgs({
      apiUrl: ctx.sandbox.baseUrl,
      apiKey: ctx.sandbox.apiKey,
      printer: `cups:${ctx.queue}`,
      dataDir: ctx.dataDir,
      pollIntervalSeconds: poll,
    }),
    env: ctx.cups.env,
  });
  try {
    await sleep(ctx.warmupMs ?? 5_000);
    await ctx.sandbox.clearLog();
    const cpu0 = cpuSeconds(agent.pid)!;
    const t0 = Date.now();
    const samples: number[] = [];
    while (Date.now() - t0 < ctx.seconds * 1000) {
      const mb = rssMb(agent.pid);
      if (mb !== null) samples.push(mb);
      await sleep(500);
    }
    const cpu1 = cpuSeconds(agent.pid)!;
    const wall = (Date.now() - t0) / 1000;
    const polls = (await ctx.sandbox.log()).filter((r) => r.method === 'GET' && r.url.startsWith('/external/v1/shipments?')).length;
    return {
      rss_mb: Math.max(...samples),
      rss_mean_mb: samples.reduce((a, b) => a + b, 0) / samples.length,
      cpu_percent: ((cpu1 - cpu0) / wall) * 100,
      seconds: wall,
      poll_interval_s: poll,
      polls,
    };
  } finally {
    await agent.stop();
  }
}
