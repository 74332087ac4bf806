/**
 * Following jobs at CUPS: the IPP job requests (Get-Jobs, Get-Job-Attributes) the spooler
 * follower sends a minute, with nothing in flight and during a burst. The requests are
 * counted by an IPP proxy in front of the private scheduler (test/support/ipp-proxy.ts);
 * the follower runs at the agent's default interval (500 ms).
 */
import { PDFDocument } from 'pdf-lib';
import { SpoolerFollower } from '../src/main/jobs/spooler-follower';
import { CupsTarget } from '../src/main/printing/cups/cups-target';
import { labelSpoolRequest, type PrivateCups } from '../test/support/cups';
import { startIppProxy } from '../test/support/ipp-proxy';
import { sleep } from '../test/support/reliability/wait';

export interface IppFollowResult {
  /** Job requests a minute with no job in flight (the agent waiting for bookings). */
  readonly job_requests_per_minute_idle: number;
  /** Job requests a minute while a burst of labels is followed to completed. */
  readonly job_requests_per_minute_burst: number;
  /**
   * Job requests a minute while one job is held at the scheduler and nothing moves (its queue
   * disabled: as for a printer that cannot be reached), after the follower has backed off.
   */
  readonly job_requests_per_minute_held: number;
  readonly burst_labels: number;
  readonly burst_seconds: number;
  readonly idle_seconds: number;
}

export interface IppFollowContext {
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly labels: number;
  readonly idleSeconds: number;
  readonly log: (line: string) => void;
}

const JOB_OPERATIONS = new Set([0x0009, 0x000a]);

export async function runIppFollow(ctx: IppFollowContext): Promise<IppFollowResult> {
  const proxy = await startIppProxy(ctx.cups.server);
  const target = new CupsTarget({ uri: `cups:${ctx.queue}@${proxy.server}`, queue: ctx.queue, server: proxy.server, env: ctx.cups.env });
  let settled = 0;
  const follower = new SpoolerFollower({ intervalMs: 500, onOutcome: () => settled++, onOutcomes: (all) => (settled += all.length) });
  const jobRequests = (): number => proxy.requests.filter((r) => JOB_OPERATIONS.has(r.operation)).length;
  try {
    ctx.log(`ipp: ${ctx.idleSeconds} s following nothing…`);
    const idle0 = jobRequests();
    const idleStart = Date.now();
    await sleep(ctx.idleSeconds * 1000);
    const idleSeconds = (Date.now() - idleStart) / 1000;
    const idleRequests = jobRequests() - idle0;

    ctx.log(`ipp: a burst of ${ctx.labels} labels followed to completed…`);
    const doc = await PDFDocument.create();
    doc.addPage([288, 432]);
    const pdf = await doc.save();
    const burst0 = jobRequests();
    const started = Date.now();
    for (let i = 0; i < ctx.labels; i++) {
      const request = labelSpoolRequest('bench', pdf);
      const { spoolerJobId } = await target.spool(request);
      follower.follow({ jobId: request.jobId, spoolerJobId: spoolerJobId!, target });
    }
    while (settled < ctx.labels && Date.now() - started < 10 * 60_000) await sleep(50);
    const burstSeconds = (Date.now() - started) / 1000;
    const burstRequests = jobRequests() - burst0;

    ctx.log(`ipp: one job held at the scheduler for ${ctx.idleSeconds} s…`);
    await ctx.cups.disable(ctx.queue, 'bench: held');
    const held = labelSpoolRequest('bench', pdf);
    const heldTarget = new CupsTarget({
      uri: target.uri,
      queue: ctx.queue,
      server: proxy.server,
      env: ctx.cups.env,
      checkReadiness: false,
    });
    const { spoolerJobId } = await heldTarget.spool(held);
    follower.follow({ jobId: held.jobId, spoolerJobId: spoolerJobId!, target: heldTarget });
    // The first 10 s at the short interval (backOffAfterMs), then the backed-off rate.
    await sleep(20_000);
    const held0 = jobRequests();
    const heldStart = Date.now();
    await sleep(ctx.idleSeconds * 1000);
    const heldRequests = jobRequests() - held0;
    const heldSeconds = (Date.now() - heldStart) / 1000;
    await ctx.cups.enable(ctx.queue);
    await ctx.cups.waitForJobs({ queue: ctx.queue, timeoutMs: 60_000 });
    return {
      job_requests_per_minute_held: (heldRequests / heldSeconds) * 60,
      job_requests_per_minute_idle: (idleRequests / idleSeconds) * 60,
      job_requests_per_minute_burst: (burstRequests / burstSeconds) * 60,
      burst_labels: ctx.labels,
      burst_seconds: burstSeconds,
      idle_seconds: idleSeconds,
    };
  } finally {
    await follower.stop();
    await proxy.close();
  }
}
