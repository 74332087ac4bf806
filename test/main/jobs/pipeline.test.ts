import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../../src/shared/domain';
import { ApiError } from '../../../src/main/api/errors';
import { PrintError } from '../../../src/main/printing/errors';
import { Ledger } from '../../../src/main/ledger/ledger';
import type { PrintPipeline, PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import { buildPipeline } from '../../support/jobs/builder';
import type { RouteDecision } from '../../../src/main/jobs/ports';
import { MemoryTarget, ScriptedFetcher, notice, tempDir } from '../../support/jobs/fakes';

const LABELS = 'mem:labels';
const DOCS = 'mem:docs';

const routeFor = (documentType: string): RouteDecision =>
  documentType === 'label' ? { target: LABELS, layout: 'printer', media: 'label' } : { target: DOCS, layout: 'a4', media: 'a4' };

const unavailable = (requestId = 'rq-503') =>
  new ApiError('SERVICE_UNAVAILABLE', 'Service unavailable', {
    status: 503,
    requestId,
    serviceMessage: 'label not ready',
    fieldErrors: {},
    retryAfterMs: null,
    method: 'POST',
    path: '/shipments/print',
  });
const unprocessable = (requestId = 'rq-422') =>
  new ApiError('SERVICE_UNPROCESSABLE', 'The service refused the print request: shipment is not booked', {
    status: 422,
    requestId,
    serviceMessage: 'shipment is not booked',
    fieldErrors: {},
    retryAfterMs: null,
    method: 'POST',
    path: '/shipments/print',
  });

describe('PrintPipeline', () => {
  let tmp: ReturnType<typeof tempDir>;
  let file: string;
  let ledger: Ledger;
  let targets: Map<string, MemoryTarget>;
  let changes: JobView[];
  let pipelines: PrintPipeline[];

  beforeEach(() => {
    tmp = tempDir();
    file = path.join(tmp.dir, 'ledger.sqlite');
    ledger = Ledger.open({ path: file });
    targets = new Map([
      [LABELS, new MemoryTarget(LABELS)],
      [DOCS, new MemoryTarget(DOCS)],
    ]);
    changes = [];
    pipelines = [];
  });
  afterEach(async () => {
    for (const p of pipelines) await p.stop();
    ledger.close();
    tmp.cleanup();
  });

  const make = (fetcher: ScriptedFetcher, extra: Partial<PrintPipelineOptions> = {}): PrintPipeline =>
    buildPipeline(
      { ledger, targets, labels: LABELS },
      { fetcher, route: routeFor, onJobChange: (job) => changes.push(job), ...extra },
      pipelines,
    );
  const labels = () => targets.get(LABELS)!;

  it('prints a booking seen by webhook, by poll and three more times exactly once', async () => {
    const fetcher = new ScriptedFetcher();
    const p = make(fetcher);
    await p.start();
    const first = p.submitBooking(notice('s1', 'webhook'));
    const again = [p.submitBooking(notice('s1', 'poll')), p.submitBooking(notice('s1')), p.submitBooking(notice('s1'))];
    await p.idle();
    p.submitBooking(notice('s1', 'poll')); // after it completed, too
    await p.idle();
    expect(first).toHaveLength(1);
    for (const jobs of again) expect(jobs.map((j) => j.id)).toEqual([first[0]!.id]);
    expect(labels().shipments()).toEqual(['s1']);
    expect(fetcher.calls).toEqual([{ shipment_ids: ['s1'], document_type: 'label', label_layout: 'printer' }]);
    expect(ledger.get(first[0]!.id)).toMatchObject({ state: 'completed', attempts: 1, trigger: 'webhook', reference: 'REF-s1' });
    expect(labels().spooled[0]).toMatchObject({ media: 'label', layout: 'printer', pdfText: '%PDF s1 label printer' });
    expect(labels().spooled[0]!.title).toContain(first[0]!.id);
    // The UI saw every step, in order.
    expect(changes.filter((c) => c.id === first[0]!.id).map((c) => c.state)).toEqual([
      'queued',
      'fetching',
      'spooling',
      'spooled',
      'completed',
    ]);
  });

  it('routes each auto-print document type to its printer with matching layout and media', async () => {
    const p = make(new ScriptedFetcher(), { autoPrintTypes: () => ['label', 'waybill'], copies: () => 2 });
    await p.start();
    const jobs = p.submitBooking(notice('s1'));
    await p.idle();
    expect(jobs.map((j) => [j.documentType, j.target, j.layout, j.copies])).toEqual([
      ['label', LABELS, 'printer', 2],
      ['waybill', DOCS, 'a4', 2],
    ]);
    expect(targets.get(DOCS)!.spooled).toMatchObject([{ documentType: 'waybill', media: 'a4', layout: 'a4' }]);
  });

  it('makes a reprint a new job that prints again', async () => {
    const p = make(new ScriptedFetcher());
    await p.start();
    const [auto] = p.submitBooking(notice('s1'));
    await p.idle();
    const [re1] = p.reprint({ shipmentId: 's1' });
    const [re2] = p.reprint({ shipmentId: 's1', trigger: 'scan', layout: 'a4', printer: DOCS });
    await p.idle();
    expect(new Set([auto!.id, re1!.id, re2!.id]).size).toBe(3);
    expect(labels().shipments()).toEqual(['s1', 's1']);
    expect(targets.get(DOCS)!.spooled).toMatchObject([{ shipmentId: 's1', media: 'a4', layout: 'a4' }]);
    expect(ledger.get(re2!.id)).toMatchObject({ trigger: 'scan', state: 'completed' });
  });

  it('retries transient failures with backoff, showing why it waits, then prints once', async () => {
    const fetcher = new ScriptedFetcher((_req, call) => (call <= 2 ? { error: unavailable(`rq-${call}`) } : {}));
    const p = make(fetcher);
    await p.start();
    const [job] = p.submitBooking(notice('s1'));
    await p.idle();
    expect(fetcher.callsFor('s1')).toBe(3);
    expect(labels().shipments()).toEqual(['s1']);
    expect(ledger.get(job!.id)).toMatchObject({ state: 'completed', attempts: 3, reason: null });
    const waiting = changes.filter((c) => c.id === job!.id && c.state === 'queued' && c.reason);
    expect(waiting).toHaveLength(2);
    expect(waiting[0]!.reason).toMatch(/^label not ready yet; retrying in \d+ ms$/);
    expect(waiting[0]!.requestId).toBe('rq-1');
  });

  it('waits as long as Retry-After says', async () => {
    const rateLimited = new ApiError('SERVICE_RATE_LIMITED', 'Too many requests', {
      status: 429,
      requestId: 'rq-429',
      serviceMessage: null,
      fieldErrors: {},
      retryAfterMs: 1000,
      method: 'POST',
      path: '/shipments/print',
    });
    const fetcher = new ScriptedFetcher((_r, call) => (call === 1 ? { error: rateLimited } : {}));
    const p = make(fetcher);
    await p.start();
    const started = Date.now();
    p.submitBooking(notice('s1'));
    await p.idle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(changes.some((c) => c.reason === 'the service asked us to slow down; retrying in 1 s')).toBe(true);
  });

  it('fails a permanent error with the message and request id; a manual retry prints it once', async () => {
    let refuse = true;
    const fetcher = new ScriptedFetcher(() => (refuse ? { error: unprocessable('rq-77') } : {}));
    const p = make(fetcher);
    await p.start();
    const [job] = p.submitBooking(notice('s1'));
    await p.idle();
    const failed = ledger.get(job!.id)!;
    expect(failed).toMatchObject({ state: 'failed', requestId: 'rq-77', attempts: 1 });
    expect(failed.reason).toContain('shipment is not booked');
    expect(failed.reason).toContain('rq-77');
    expect(fetcher.callsFor('s1')).toBe(1);
    expect(labels().spooled).toHaveLength(0);

    refuse = false;
    expect(p.retry(job!.id)).toMatchObject({ id: job!.id, state: 'queued', reason: null });
    await p.idle();
    expect(ledger.get(job!.id)).toMatchObject({ state: 'completed', attempts: 2, requestId: null });
    expect(labels().shipments()).toEqual(['s1']);
    expect(() => p.retry(job!.id)).toThrow(expect.objectContaining({ code: 'JOB_INVALID_STATE' }));
  });

  it('gives up after maxAttempts transient failures and says so', async () => {
    const fetcher = new ScriptedFetcher(() => ({ error: unavailable() }));
    const p = make(fetcher, { maxAttempts: 3 });
    await p.start();
    const [job] = p.submitBooking(notice('s1'));
    await p.idle();
    expect(fetcher.callsFor('s1')).toBe(3);
    expect(ledger.get(job!.id)).toMatchObject({ state: 'failed', requestId: 'rq-503' });
    expect(ledger.get(job!.id)!.reason).toMatch(/gave up after 3 attempts/);
  });

  it('spools 50 labels to one target in booking order while fetching ahead concurrently', async () => {
    // Every fifth shipment's PDF is slow; the others would overtake it if order were by fetch.
    const fetcher = new ScriptedFetcher((req) => ({ delayMs: Number(req.shipment_ids[0]!.slice(1)) % 5 === 0 ? 40 : 1 }));
    const p = make(fetcher, { fetchConcurrency: 4 });
    await p.start();
    const ids = Array.from({ length: 50 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    for (const id of ids) p.submitBooking(notice(id));
    await p.idle();
    expect(labels().shipments()).toEqual(ids);
    expect(fetcher.maxActive).toBeGreaterThan(1);
    expect(fetcher.maxActive).toBeLessThanOrEqual(4);
  });

  it('keeps booking order when a head job waits for a transient retry', async () => {
    const fetcher = new ScriptedFetcher((req, call) => (req.shipment_ids[0] === 'a' && call <= 2 ? { error: unavailable() } : {}));
    const p = make(fetcher);
    await p.start();
    for (const id of ['a', 'b', 'c']) p.submitBooking(notice(id));
    await p.idle();
    expect(labels().shipments()).toEqual(['a', 'b', 'c']);
  });

  it('lets a permanently failed job leave the line so the next ones print', async () => {
    const fetcher = new ScriptedFetcher((req) => (req.shipment_ids[0] === 'b' ? { error: unprocessable() } : {}));
    const p = make(fetcher);
    await p.start();
    const jobs = ['a', 'b', 'c'].map((id) => p.submitBooking(notice(id))[0]!);
    await p.idle();
    expect(labels().shipments()).toEqual(['a', 'c']);
    expect(ledger.get(jobs[1]!.id)!.state).toBe('failed');
  });

  it('does not let an offline target hold up another', async () => {
    const offline = new PrintError('PRINTER_DISABLED', 'Queue labels is disabled: run cupsenable labels');
    labels().offlineError = offline;
    const p = make(new ScriptedFetcher(), { autoPrintTypes: () => ['label', 'waybill'], retryBaseMs: 50, retryMaxMs: 50, random: () => 1 });
    await p.start();
    const booked = ['s1', 's2', 's3'].map((id) => p.submitBooking(notice(id)));
    await expect.poll(() => targets.get(DOCS)!.shipments(), { timeout: 5000 }).toEqual(['s1', 's2', 's3']);
    expect(labels().spooled).toHaveLength(0);
    const waitingLabel = ledger.get(booked[0]![0]!.id)!;
    expect(waitingLabel.state).toBe('queued');
    expect(waitingLabel.reason).toMatch(/disabled.*waiting for the printer \(checking again in/);
    // The printer comes back: the labels print, in order, each once.
    labels().offlineError = null;
    await p.idle();
    expect(labels().shipments()).toEqual(['s1', 's2', 's3']);
  });

  it('looks a job up at the spooler before resending it after spool() threw', async () => {
    const target = labels();
    const p = make(new ScriptedFetcher());
    let fail = true;
    const realSpool = target.spool.bind(target);
    // The spooler takes the job, then the call fails (say a timeout reading lp's answer).
    target.spool = async (req) => {
      const result = await realSpool(req);
      if (fail) {
        fail = false;
        throw new PrintError('SPOOL_FAILED', 'lp did not answer');
      }
      return result;
    };
    await p.start();
    const [job] = p.submitBooking(notice('s1'));
    await p.idle();
    expect(target.shipments()).toEqual(['s1']);
    expect(target.findCalls).toEqual([job!.id]);
    expect(ledger.get(job!.id)!.state).toBe('completed');
  });

  it('follows the spooler: spooled is not completed until the spooler says so', async () => {
    targets.set(LABELS, new MemoryTarget(LABELS, false));
    const p = make(new ScriptedFetcher());
    await p.start();
    const [a] = p.submitBooking(notice('a'));
    const [b] = p.submitBooking(notice('b'));
    await p.idle();
    expect(ledger.get(a!.id)!.state).toBe('spooled');
    labels().finish(ledger.get(a!.id)!.spoolerJobId!);
    labels().finish(ledger.get(b!.id)!.spoolerJobId!, 'aborted');
    await expect.poll(() => ledger.get(a!.id)!.state).toBe('completed');
    await expect.poll(() => ledger.get(b!.id)!.state).toBe('failed');
    expect(ledger.get(b!.id)!.reason).toMatch(/aborted/);
  });

  it('pauses and resumes one target', async () => {
    const p = make(new ScriptedFetcher(), { autoPrintTypes: () => ['label', 'waybill'] });
    await p.start();
    p.pause(LABELS);
    expect(p.isPaused(LABELS)).toBe(true);
    p.submitBooking(notice('s1'));
    p.reprint({ shipmentId: 's0' });
    await p.idle();
    expect(labels().spooled).toHaveLength(0);
    expect(targets.get(DOCS)!.shipments()).toEqual(['s1']);
    p.resume(LABELS);
    await p.idle();
    expect(labels().shipments()).toEqual(['s1', 's0']);
  });

  it('pauses automatic printing as a whole: auto jobs are recorded and held, reprints still print; resume runs them', async () => {
    const p = make(new ScriptedFetcher());
    await p.start();
    p.pause();
    expect(p.isPaused()).toBe(true);
    const [held] = p.submitBooking(notice('s1'));
    p.reprint({ shipmentId: 's9' });
    await p.idle();
    expect(labels().shipments()).toEqual(['s9']);
    expect(ledger.get(held!.id)).toMatchObject({ state: 'queued', held: true });
    p.resume();
    await p.idle();
    expect(labels().shipments()).toEqual(['s9', 's1']);
    expect(ledger.get(held!.id)).toMatchObject({ state: 'completed', held: false });
  });

  it('keeps the automatic pause across a restart', async () => {
    const p = make(new ScriptedFetcher());
    await p.start();
    p.pause();
    p.submitBooking(notice('s1'));
    await p.stop();
    const p2 = make(new ScriptedFetcher());
    expect(p2.isPaused()).toBe(true);
    await p2.start();
    await p2.idle();
    expect(labels().spooled).toHaveLength(0);
    p2.resume();
    await p2.idle();
    expect(labels().shipments()).toEqual(['s1']);
  });

  it('cancels queued and failed jobs, refuses finished ones', async () => {
    const p = make(new ScriptedFetcher((req) => (req.shipment_ids[0] === 'bad' ? { error: unprocessable() } : {})));
    p.pause(LABELS);
    await p.start();
    const [queued] = p.submitBooking(notice('s1'));
    const [bad] = p.submitBooking(notice('bad'));
    expect(p.cancel(queued!.id)).toMatchObject({ state: 'canceled', reason: 'canceled by hand' });
    p.resume(LABELS);
    await p.idle();
    expect(labels().spooled).toHaveLength(0);
    expect(p.cancel(bad!.id).state).toBe('canceled');
    const [done] = p.reprint({ shipmentId: 's2' });
    await p.idle();
    expect(() => p.cancel(done!.id)).toThrow(expect.objectContaining({ code: 'JOB_INVALID_STATE' }));
    expect(() => p.cancel('missing')).toThrow(expect.objectContaining({ code: 'JOB_NOT_FOUND' }));
    // A canceled job can be brought back.
    p.retry(queued!.id);
    await p.idle();
    expect(labels().shipments()).toEqual(['s2', 's1']);
  });

  it('reconciles after a crash: a job the spooler already has is not resent, one it lacks is sent once', async () => {
    // A previous run left: one job spooling that reached the spooler, one spooling that did
    // not, one fetching, one spooled with a spooler id, one queued.
    const mk = (id: string) =>
      ledger.createAutoJob({ shipmentId: id, documentType: 'label', layout: 'printer', target: LABELS, trigger: 'webhook' }).job;
    const reached = ledger.transition(mk('reached').id, 'spooling', { spoolAttempted: true, attempts: 1 });
    const lost = ledger.transition(mk('lost').id, 'spooling', { spoolAttempted: true, attempts: 1 });
    const fetching = ledger.transition(mk('fetching').id, 'fetching', { attempts: 1 });
    const spooledJob = mk('spooled');
    const queued = mk('queued');
    const spoolerId = labels().seedSpooled(reached.id, 'pending');
    const followedId = labels().seedSpooled(spooledJob.id, 'completed');
    ledger.transition(spooledJob.id, 'spooled', { spoolAttempted: true, spoolerJobId: followedId });

    const fetcher = new ScriptedFetcher();
    const p = make(fetcher);
    await p.start();
    await p.idle();
    expect(labels().shipments()).toEqual(['lost', 'fetching', 'queued']);
    expect(fetcher.callsFor('reached')).toBe(0);
    expect(ledger.get(reached.id)).toMatchObject({ state: 'spooled', spoolerJobId: spoolerId });
    expect(ledger.get(lost.id)!.state).toBe('completed');
    expect(ledger.get(fetching.id)!.state).toBe('completed');
    expect(ledger.get(queued.id)!.state).toBe('completed');
    await expect.poll(() => ledger.get(spooledJob.id)!.state).toBe('completed');
    labels().finish(spoolerId);
    await expect.poll(() => ledger.get(reached.id)!.state).toBe('completed');
  });

  it('after a crash, waits for a job an orphaned lp may still be handing over before deciding to resend', async () => {
    const job = ledger.transition(
      ledger.createAutoJob({ shipmentId: 'late', documentType: 'label', layout: 'printer', target: LABELS, trigger: 'webhook' }).job.id,
      'spooling',
      { spoolAttempted: true, attempts: 1 },
    );
    // The killed run's lp reaches the spooler 300 ms later.
    setTimeout(() => labels().seedSpooled(job.id, 'completed'), 300);
    const fetcher = new ScriptedFetcher();
    const p = make(fetcher, { reconcileSettleMs: 1000 });
    await p.start();
    await p.idle();
    expect(fetcher.calls).toHaveLength(0);
    expect(labels().spooled).toHaveLength(0);
    expect(ledger.get(job.id)!.state).toBe('completed');
  });

  it('resends once a job found after a crash that the spooler then cancels (lp cut off by the crash)', async () => {
    targets.set(LABELS, new MemoryTarget(LABELS, false));
    const job = ledger.transition(
      ledger.createAutoJob({ shipmentId: 'cut', documentType: 'label', layout: 'printer', target: LABELS, trigger: 'webhook' }).job.id,
      'spooling',
      { spoolAttempted: true, attempts: 1 },
    );
    const orphan = labels().seedSpooled(job.id, 'pending');
    const p = make(new ScriptedFetcher());
    await p.start();
    expect(ledger.get(job.id)).toMatchObject({ state: 'spooled', spoolerJobId: orphan });
    labels().finish(orphan, 'canceled');
    await expect.poll(() => labels().shipments()).toEqual(['cut']);
    const resent = ledger.get(job.id)!;
    expect(resent.state).toBe('spooled');
    expect(resent.spoolerJobId).not.toBe(orphan);
    labels().finish(resent.spoolerJobId!);
    await expect.poll(() => ledger.get(job.id)!.state).toBe('completed');
    expect(labels().shipments()).toEqual(['cut']);
  });

  it('stops cleanly and resumes the rest on the next start', async () => {
    const fetcher = new ScriptedFetcher(() => ({ delayMs: 20 }));
    const p = make(fetcher, { fetchConcurrency: 2 });
    await p.start();
    const ids = Array.from({ length: 10 }, (_, i) => `s${i}`);
    for (const id of ids) p.submitBooking(notice(id));
    await expect.poll(() => labels().spooled.length).toBeGreaterThan(1);
    await p.stop();
    expect(ledger.inFlight().filter((j) => j.state !== 'spooled')).toEqual([]);
    const p2 = make(new ScriptedFetcher());
    await p2.start();
    await p2.idle();
    expect(labels().shipments()).toEqual(ids);
  });

  it('keeps memory bounded: fetches no further ahead than the lookahead on a stuck target', async () => {
    labels().offlineError = new PrintError('PRINTER_DISABLED', 'disabled');
    const fetcher = new ScriptedFetcher();
    const p = make(fetcher, { lookahead: 3, retryBaseMs: 1000, retryMaxMs: 1000 });
    await p.start();
    for (let i = 0; i < 20; i++) p.submitBooking(notice(`s${i}`));
    await expect.poll(() => fetcher.calls.length).toBe(3);
    await new Promise((r) => setTimeout(r, 50));
    expect(fetcher.calls.length).toBe(3);
  });

  it('gives up after maxAttempts when the spooler can neither take the job nor be asked about it', async () => {
    const broken = new PrintError('SPOOL_FAILED', 'cannot write to the folder', { target: LABELS, retryable: true });
    labels().offlineError = broken;
    labels().findError = broken;
    const p = make(new ScriptedFetcher(), { maxAttempts: 3 });
    await p.start();
    const [job] = p.submitBooking(notice('s-broken'));
    await p.idle();
    const final = ledger.get(job!.id)!;
    expect(final.state).toBe('failed');
    expect(final.attempts).toBe(3);
    expect(final.reason).toContain('gave up after 3 attempts');
    expect(labels().spooled).toEqual([]);
  });

  it('spools bookings that arrive out of order in booking order, behind the label already printing', async () => {
    labels().spoolDelayMs = 30;
    const p = make(new ScriptedFetcher());
    await p.start();
    const at = (second: number) => `2026-11-22T10:00:0${second}.000000001Z`;
    // s0 is handed to the spooler first; the rest arrive reordered while it prints.
    p.submitBooking(notice('s0', 'webhook', { bookedAt: at(0) }));
    for (const [id, second] of [
      ['s3', 3],
      ['s1', 1],
      ['s4', 4],
      ['s2', 2],
    ] as const) {
      p.submitBooking(notice(id, 'webhook', { bookedAt: at(second) }));
    }
    await p.idle();
    expect(labels().shipments()).toEqual(['s0', 's1', 's2', 's3', 's4']);
  });

  it('prints a booking automatically once even when the printer setting changes before the poll sees it', async () => {
    let target = LABELS;
    const p = make(new ScriptedFetcher(), { route: () => ({ target, layout: 'printer', media: 'label' }) });
    await p.start();
    p.submitBooking(notice('s-moved', 'webhook'));
    await p.idle();
    target = DOCS; // the team lead picks another label printer
    const again = p.submitBooking(notice('s-moved', 'poll'));
    await p.idle();
    expect(labels().shipments()).toEqual(['s-moved']);
    expect(targets.get(DOCS)!.shipments()).toEqual([]);
    expect(again.map((j) => j.target)).toEqual([LABELS]);
    // A reprint by hand still goes to the new printer.
    p.reprint({ shipmentId: 's-moved', printer: DOCS });
    await p.idle();
    expect(targets.get(DOCS)!.shipments()).toEqual(['s-moved']);
  });
});
