import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrintError } from '../../../src/main/printing/errors';
import { MemoryTarget, ScriptedFetcher, notice } from '../../support/jobs/fakes';
import { Harness, until } from '../../support/jobs/harness';

const LABELS = 'mem:labels';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Review M6: a pause also stops jobs already fetched ahead. */
describe('PrintPipeline pause with jobs fetched ahead', () => {
  let h: Harness;
  let target: MemoryTarget;

  beforeEach(() => {
    target = new MemoryTarget(LABELS);
    target.spoolDelayMs = 40; // a slow printer: the next labels are fetched and wait, ready
    h = new Harness(new Map([[LABELS, target]]), LABELS);
  });
  afterEach(async () => {
    await h.close();
  });

  async function burst(
    pause: (p: ReturnType<Harness['pipeline']>) => void,
    resume: (p: ReturnType<Harness['pipeline']>) => void,
  ): Promise<void> {
    const fetcher = new ScriptedFetcher();
    const p = h.pipeline({ fetcher, lookahead: 8 });
    await p.start();
    const jobs = Array.from({ length: 10 }, (_, i) => p.submitBooking(notice(`s${i}`))[0]!);
    await until(() => target.spooled.length >= 1 && fetcher.calls.length >= 5);
    pause(p);
    // At most the one being handed over when the pause came goes on.
    const atPause = target.spooled.length;
    await sleep(300);
    expect(target.spooled.length).toBeLessThanOrEqual(atPause + 1);
    const whilePaused = target.spooled.length;
    await sleep(100);
    expect(target.spooled.length).toBe(whilePaused);
    resume(p);
    await p.idle();
    expect(target.shipments()).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`));
    for (const job of jobs) expect(h.ledger.get(job.id)).toMatchObject({ state: 'completed', held: false });
  }

  it('pausing automatic printing holds fetched jobs; resume prints them once, in order', async () => {
    await burst(
      (p) => p.pause(),
      (p) => p.resume(),
    );
  });

  it('pausing the target holds fetched jobs as well', async () => {
    await burst(
      (p) => p.pause(LABELS),
      (p) => p.resume(LABELS),
    );
  });

  it('holds fetched jobs across a restart while paused, and prints them after resume', async () => {
    const p = h.pipeline({ lookahead: 8 });
    await p.start();
    for (let i = 0; i < 10; i++) p.submitBooking(notice(`s${i}`));
    await until(() => target.spooled.length >= 1);
    p.pause();
    await h.restart();
    const printedBefore = target.spooled.length;
    const q = h.pipeline();
    await q.start();
    await sleep(150);
    expect(target.spooled.length).toBe(printedBefore);
    q.resume();
    await q.idle();
    expect(target.shipments()).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`));
  });

  it('holds a job whose hand-over failed transiently during the pause instead of retrying it', async () => {
    const p = h.pipeline({ lookahead: 8 });
    await p.start();
    target.offlineError = new PrintError('PRINTER_DISABLED', 'queue disabled');
    const jobs = Array.from({ length: 3 }, (_, i) => p.submitBooking(notice(`s${i}`))[0]!);
    await until(() => h.ledger.get(jobs[0]!.id)!.state === 'spooling');
    p.pause(); // while the head is being handed over (and about to fail)
    await until(() => h.ledger.get(jobs[0]!.id)!.held);
    target.offlineError = null;
    await sleep(200);
    expect(target.spooled).toHaveLength(0);
    expect(h.ledger.get(jobs[0]!.id)).toMatchObject({ state: 'queued', held: true, reason: 'queue disabled' });
    p.resume();
    await p.idle();
    expect(target.shipments()).toEqual(['s0', 's1', 's2']);
  });
});
