/**
 * Poll mode: a station behind NAT gets no webhooks and learns of bookings by polling
 * GET /shipments. Booking → label spooled is measured at the default poll interval (the
 * settings default, 15 s), one booking at a time at times not aligned with the polls, with
 * the agent's CLI as a station runs it. Requests per minute are counted at the sandbox.
 */
import { AGENT_NODE_FLAGS } from '../scripts/bundle-agent';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { intakeSchema } from '../src/shared/domain';
import type { PrivateCups } from '../test/support/cups';
import { agentArgs, startAgentProcess } from '../test/support/reliability/agent-process';
import { summarize } from '../test/support/reliability/stats';
import { until } from '../test/support/reliability/wait';
import { loggedAt, presetPollMark, waitForStartupPoll } from './agent-child';
import type { SandboxProcess } from './sandbox-process';

export interface PollResult {
  readonly interval_s: number;
  readonly samples: number;
  readonly booking_to_spooled_p50_ms: number;
  readonly booking_to_spooled_p95_ms: number;
  readonly booking_to_spooled_max_ms: number;
  /**
   * GET /shipments requests per minute per station while measuring: 60 s over the mean gap
   * between the station's consecutive list requests (the sandbox logs when each came). A
   * count over the ~45 s window would move by ±1 request (±1.3 a minute) with where the
   * window happens to cut the poll cycle; that count is `requests_in_window` / `window_s`.
   */
  readonly requests_per_minute: number;
  readonly requests_in_window: number;
  readonly window_s: number;
}

export interface PollContext {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly samples: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
  /** The agent bundled as `npm run agent` runs it; absent = through tsx. */
  readonly bundledScript?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runPoll(ctx: PollContext): Promise<PollResult> {
  const { sandbox, cups, queue, log } = ctx;
  const interval = defaultPollSeconds();
  const dataDir = path.join(ctx.workDir, 'poll-agent');
  await fs.mkdir(dataDir, { recursive: true });
  presetPollMark(dataDir, sandbox.baseUrl);
  await sandbox.clearLog();
  const agent = await startAgentProcess({
    ...(ctx.bundledScript ? { script: ctx.bundledScript, execArgv: [...AGENT_NODE_FLAGS] } : {}),
    args: agentArgs({ apiUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, printer: `cups:${queue}`, dataDir, pollIntervalSeconds: interval }),
    env: cups.env,
  });
  try {
    await waitForStartupPoll(sandbox);
    await sandbox.clearLog();
    const t0 = Date.now();
    // Spaced by a step that is not a divisor of the interval, so bookings land at every
    // phase of the poll cycle (what a real stream of orders does).
    const step = interval * 1000 * 0.29;
    log(`poll: ${ctx.samples} bookings ${Math.round(step)} ms apart, agent polling every ${interval} s (the default)…`);
    const bookedAt = new Map<string, number>();
    for (let i = 0; i < ctx.samples; i++) {
      const [b] = await sandbox.book(1, 'POLL');
      bookedAt.set(b!.shipmentId, Date.now());
      if (i < ctx.samples - 1) await sleep(step);
    }
    await until(`${ctx.samples} polled labels spooled`, () => [...bookedAt.keys()].every((id) => loggedAt(agent, 'spooled').has(id)), {
      timeoutMs: (interval * 3 + 30) * 1000,
      intervalMs: 200,
    });
    const windowMs = Date.now() - t0;
    const polls = (await sandbox.log()).filter((r) => r.method === 'GET' && r.url.startsWith('/external/v1/shipments?')).map((r) => r.at);
    const gapsMs = polls.length > 1 ? polls.at(-1)! - polls[0]! : 0;
    const spooled = loggedAt(agent, 'spooled');
    const latencies = [...bookedAt].map(([id, at]) => spooled.get(id)! - at);
    const s = summarize(latencies);
    return {
      interval_s: interval,
      samples: latencies.length,
      booking_to_spooled_p50_ms: s.p50,
      booking_to_spooled_p95_ms: s.p95,
      booking_to_spooled_max_ms: Math.max(...latencies),
      requests_per_minute: gapsMs > 0 ? ((polls.length - 1) * 60_000) / gapsMs : (polls.length * 60_000) / windowMs,
      requests_in_window: polls.length,
      window_s: windowMs / 1000,
    };
  } finally {
    await agent.stop();
  }
}

/** The poll interval a station gets when nobody sets one (the settings schema's default). */
function defaultPollSeconds(): number {
  return intakeSchema.parse({}).pollIntervalSeconds;
}
