import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../../src/main/ledger/migrations';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/api/errors';
import { PrintError } from '../../../src/main/printing/errors';
import { Ledger } from '../../../src/main/ledger/ledger';
import type { PrintPipeline, PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import { buildPipeline } from '../../support/jobs/builder';
import type { PdfFetcher, PrintFileRequest } from '../../../src/main/jobs/ports';
import { MemoryTarget, notice, tempDir } from '../../support/jobs/fakes';

const LABELS = 'cups:labels';

/** A fetcher that returns one PDF naming every shipment of the call, in order (as the service does). */
class BatchFetcher implements PdfFetcher {
  readonly calls: string[][] = [];
  constructor(private readonly plan: (req: PrintFileRequest) => { delayMs?: number; error?: unknown } = () => ({})) {}

  async printFile(req: PrintFileRequest): Promise<{ pdf: Uint8Array; requestId: string | null }> {
    this.calls.push([...req.shipment_ids]);
    const { delayMs = 0, error } = this.plan(req);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (error) throw error;
    return {
      pdf: new TextEncoder().encode(`%PDF ${req.shipment_ids.join(',')} ${req.document_type}`),
      requestId: `rq-${this.calls.length}`,
    };
  }
}

/** The memory target, as a CUPS queue: batching is for cups and windows targets only. */
function cupsTarget(completedOnSpool = true): MemoryTarget {
  const target = new MemoryTarget(LABELS, completedOnSpool);
  Object.defineProperty(target, 'kind', { value: 'cups' });
  return target;
}

const refused = (shipmentId: string) =>
  new ApiError('SERVICE_UNPROCESSABLE', `The service refused the print request: shipment ${shipmentId} is not booked`, {
    status: 422,
    requestId: `rq-422-${shipmentId}`,
    serviceMessage: `Shipment ${shipmentId} is cancelled: documents can only be printed for booked shipments.`,
    fieldErrors: {},
    retryAfterMs: null,
    method: 'POST',
    path: '/shipments/print',
  });

/** Shipments per spooled document, in spool order, read from the PDFs themselves. */
function printedShipments(target: MemoryTarget): string[][] {
  return target.spooled.map((s) => s.pdfText!.split(' ')[1]!.split(','));
}

describe('PrintPipeline batching', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  let target: MemoryTarget;
  let pipelines: PrintPipeline[];

  beforeEach(() => {
    tmp = tempDir();
    ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite') });
    target = cupsTarget();
    pipelines = [];
  });
  afterEach(async () => {
    for (const p of pipelines) await p.stop();
    ledger.close();
    tmp.cleanup();
  });

  // These tests are about how a batch forms from jobs submitted at once; the first label of a
  // burst going alone (firstAlone) has its own tests below.
  const make = (fetcher: PdfFetcher, extra: Partial<PrintPipelineOptions> = {}): PrintPipeline =>
    buildPipeline({ ledger, targets: target }, { fetcher, batchMax: 25, firstAlone: false, ...extra }, pipelines);

  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

  it('sends the first label of a burst alone and at once, then what waits behind it as one batch, in order', async () => {
    const fetcher = new BatchFetcher(() => ({ delayMs: 30 }));
    const p = make(fetcher);
    await p.start();
    const [first] = p.submitBooking(notice('s-first'));
    await new Promise((r) => setImmediate(r)); // the first one is on its way before the rest arrive
    const rest = ids('s', 7);
    const jobs = rest.map((id) => p.submitBooking(notice(id))[0]!);
    await p.idle();

    expect(fetcher.calls).toEqual([['s-first'], rest]);
    expect(printedShipments(target)).toEqual([['s-first'], rest]);
    const batchId = ledger.get(jobs[0]!.id)!.batchId;
    expect(batchId).toMatch(/^B/);
    expect(target.spooled[1]!.jobId).toBe(batchId);
    expect(target.spooled[1]!.title).toContain(batchId);
    expect(ledger.get(first!.id)).toMatchObject({ state: 'completed', batchId: null, attempts: 1 });
    for (const job of jobs) {
      expect(ledger.get(job.id)).toMatchObject({ state: 'completed', batchId, attempts: 1, spoolerJobId: target.spooled[1]!.spoolerJobId });
    }
    expect(ledger.batches.getBatch(batchId!)).toMatchObject({ state: 'spooled', spooler_job_id: target.spooled[1]!.spoolerJobId });
    // Retention: the batch row goes with the last of its members.
    ledger.prune({ maxAgeDays: 1000, maxRows: 1 }); // keeps the newest job: a member
    expect(ledger.batches.getBatch(batchId!)).not.toBeNull();
    ledger.prune({ maxAgeDays: 1000, maxRows: 0 });
    expect(ledger.batches.getBatch(batchId!)).toBeNull();
  });

  it('keeps batches within batchMax and in booking order across a long burst', async () => {
    const fetcher = new BatchFetcher(() => ({ delayMs: 5 }));
    const p = make(fetcher, { batchMax: 4, fetchConcurrency: 2 });
    await p.start();
    const all = ids('b', 30);
    for (const id of all) p.submitBooking(notice(id));
    await p.idle();

    const printed = printedShipments(target);
    expect(printed.flat()).toEqual(all);
    expect(Math.max(...printed.map((b) => b.length))).toBe(4);
    expect(printed.length).toBeLessThan(30);
    expect(fetcher.calls.flat()).toEqual(all);
  });

  it('writes each step of a batch in one commit (claim and fetching, spooling, spooled, the followed end) and tells of rows once committed', async () => {
    // Which ledger transaction (1, 2, …; 0 = none) each transition ran in, and whether the observer heard inside one.
    let txCount = 0;
    let inTx = 0;
    const writes: Array<{ id: string; state: string; tx: number }> = [];
    const heardInside: string[] = [];
    const transaction = ledger.transaction.bind(ledger);
    const transition = ledger.transition.bind(ledger);
    Object.assign(ledger, {
      transaction: <T>(fn: () => T): T => {
        if (inTx !== 0) return transaction(fn);
        inTx = ++txCount;
        try {
          return transaction(fn);
        } finally {
          inTx = 0;
        }
      },
      transition: (id: string, state: Parameters<Ledger['transition']>[1], patch?: Parameters<Ledger['transition']>[2]) => {
        writes.push({ id, state, tx: inTx });
        return transition(id, state, patch);
      },
    });
    target = cupsTarget(false);
    // Followed as a CUPS queue is: one answer for every job of the queue.
    Object.defineProperty(target, 'jobStates', {
      value: async (spoolerIds: readonly string[]) =>
        new Map(await Promise.all(spoolerIds.map(async (id) => [id, await target.jobState(id)] as const))),
    });
    const p = make(new BatchFetcher(), { onJobChange: (job) => void (inTx !== 0 && heardInside.push(`${job.id} ${job.state}`)) });
    await p.start();
    const jobs = ids('g', 6).map((id) => p.submitBooking(notice(id))[0]!);
    await p.idle();
    expect(target.spooled).toHaveLength(1);
    target.finish(target.spooled[0]!.spoolerJobId, 'completed');
    await waitFor(() => jobs.every((j) => ledger.get(j.id)!.state === 'completed'));

    const ids6 = new Set(jobs.map((j) => j.id));
    for (const state of ['fetching', 'spooling', 'spooled', 'completed']) {
      const txs = writes.filter((w) => ids6.has(w.id) && w.state === state).map((w) => w.tx);
      expect(txs, state).toHaveLength(6);
      expect(new Set(txs).size, state).toBe(1);
      expect(txs[0], state).toBeGreaterThan(0);
    }
    expect(heardInside).toEqual([]);
  });

  it('batches by default, at most 25 shipments a batch (batchMax 25)', async () => {
    const fetcher = new BatchFetcher();
    const p = make(fetcher, { batchMax: undefined });
    await p.start();
    const all = ids('d', 30);
    for (const id of all) p.submitBooking(notice(id));
    await p.idle();
    expect(fetcher.calls).toEqual([all.slice(0, 25), all.slice(25)]);
    expect(printedShipments(target)).toEqual([all.slice(0, 25), all.slice(25)]);
  });

  it('sends the first label of a burst alone when nothing is in flight, then batches what waits behind it (firstAlone)', async () => {
    const fetcher = new BatchFetcher();
    const p = make(fetcher, { firstAlone: undefined });
    await p.start();
    const all = ids('h', 30);
    // Webhooks read in one turn are queued together: the line is idle when they all arrive.
    for (const id of all) p.submitBooking(notice(id));
    await p.idle();
    expect(fetcher.calls).toEqual([all.slice(0, 1), all.slice(1, 26), all.slice(26)]);
    expect(printedShipments(target)).toEqual([all.slice(0, 1), all.slice(1, 26), all.slice(26)]);
  });

  it('does not batch at batchMax 1: one call and one spool job per shipment', async () => {
    const fetcher = new BatchFetcher();
    const p = make(fetcher, { batchMax: 1 });
    await p.start();
    const all = ids('d', 6);
    for (const id of all) p.submitBooking(notice(id));
    await p.idle();
    expect(fetcher.calls).toEqual(all.map((id) => [id]));
    expect(target.spooled.map((s) => s.shipmentId)).toEqual(all);
  });

  describe('byte cap (batchMaxBytes)', () => {
    /** The service's PDF for a call: `bytesOf(shipment)` bytes per shipment, the ids readable as in BatchFetcher. */
    class SizedFetcher extends BatchFetcher {
      readonly sizes: number[] = [];
      constructor(private readonly bytesOf: (shipmentId: string) => number) {
        super();
      }
      override async printFile(req: PrintFileRequest): Promise<{ pdf: Uint8Array; requestId: string | null }> {
        const { pdf, requestId } = await super.printFile(req);
        const size = Math.max(
          pdf.length,
          req.shipment_ids.reduce((sum, id) => sum + this.bytesOf(id), 0),
        );
        const sized = new Uint8Array(size).fill(0x20);
        sized.set(pdf);
        this.sizes.push(size);
        return { pdf: sized, requestId };
      }
    }

    it('keeps a batch under the cap from the bytes per shipment seen so far', async () => {
      const fetcher = new SizedFetcher(() => 100_000);
      const p = make(fetcher, { batchMaxBytes: 1_000_000 });
      await p.start();
      p.submitBooking(notice('k-first'));
      await p.idle(); // one label seen: 100 kB a shipment
      const all = ids('k', 30);
      for (const id of all) p.submitBooking(notice(id));
      await p.idle();
      expect(fetcher.calls.slice(1)).toEqual([all.slice(0, 10), all.slice(10, 20), all.slice(20)]);
      expect(Math.max(...fetcher.sizes)).toBeLessThanOrEqual(1_000_000);
      expect(printedShipments(target).flat()).toEqual(['k-first', ...all]);
    });

    it('holds a batch to what fits of shipments seen to be big, and batches fully again once they are small', async () => {
      const big = new Set(ids('h', 5));
      const fetcher = new SizedFetcher((id) => (big.has(id) ? 3_000_000 : 50_000));
      const p = make(fetcher); // the default cap, 8 MiB
      await p.start();
      p.submitBooking(notice('h00'));
      await p.idle(); // one big shipment seen: 3 MB
      const huge = [...big].slice(1);
      for (const id of huge) p.submitBooking(notice(id));
      await p.idle();
      // 8 MiB holds two 3 MB shipments: never more in one call.
      expect(fetcher.calls.slice(1)).toEqual([huge.slice(0, 2), huge.slice(2)]);
      expect(Math.max(...fetcher.sizes)).toBeLessThanOrEqual(8 * 1024 * 1024);

      // Small shipments again: the estimate falls back a quarter of the way per PDF, and batches grow to 25.
      const waves = Array.from({ length: 6 }, (_, w) => ids(`m${w}-`, 25));
      const callsPerWave: string[][][] = [];
      for (const wave of waves) {
        const before = fetcher.calls.length;
        for (const id of wave) p.submitBooking(notice(id));
        await p.idle();
        callsPerWave.push(fetcher.calls.slice(before));
      }
      expect(callsPerWave.flat().flat()).toEqual(waves.flat());
      expect(callsPerWave[0]![0]).toHaveLength(2);
      expect(callsPerWave[callsPerWave.length - 1]).toEqual([waves[waves.length - 1]]);
      expect(printedShipments(target).flat()).toEqual(['h00', ...huge, ...waves.flat()]);
    });

    it('sends each shipment alone when one alone is over the cap', async () => {
      const fetcher = new SizedFetcher(() => 9_000_000);
      const p = make(fetcher);
      await p.start();
      p.submitBooking(notice('t-first'));
      await p.idle();
      const rest = ids('t', 4);
      for (const id of rest) p.submitBooking(notice(id));
      await p.idle();
      expect(fetcher.calls).toEqual([['t-first'], ...rest.map((id) => [id])]);
      expect(printedShipments(target)).toEqual([['t-first'], ...rest.map((id) => [id])]);
    });

    it('bounds by batchMax alone before the first PDF of a document type and layout is seen', async () => {
      const fetcher = new SizedFetcher(() => 9_000_000);
      const p = make(fetcher, { batchMax: 3 });
      await p.start();
      const all = ids('u', 3);
      for (const id of all) p.submitBooking(notice(id));
      await p.idle();
      expect(fetcher.calls).toEqual([all]);
    });
  });

  it('never batches folder targets (one file per shipment)', async () => {
    target = new MemoryTarget('folder:/tmp/x');
    const fetcher = new BatchFetcher();
    const p = make(fetcher);
    await p.start();
    const all = ids('f', 5);
    for (const id of all) p.submitBooking(notice(id));
    await p.idle();
    expect(fetcher.calls).toEqual(all.map((id) => [id]));
  });

  it('falls back to one shipment per call when the service refuses a batch: the bad one fails alone, the rest print once', async () => {
    const fetcher = new BatchFetcher((req) => (req.shipment_ids.includes('r03') ? { error: refused('r03') } : {}));
    const p = make(fetcher);
    await p.start();
    const all = ids('r', 6);
    const jobs = all.map((id) => p.submitBooking(notice(id))[0]!);
    await p.idle();

    expect(fetcher.calls[0]).toEqual(all); // tried as one batch first
    expect(fetcher.calls.slice(1)).toEqual(all.map((id) => [id])); // then each alone, in order
    const good = all.filter((id) => id !== 'r03');
    expect(printedShipments(target)).toEqual(good.map((id) => [id]));
    const bad = ledger.get(jobs[3]!.id)!;
    expect(bad).toMatchObject({ state: 'failed', requestId: 'rq-422-r03', attempts: 1, batchId: null });
    for (const job of jobs.filter((_, i) => i !== 3))
      expect(ledger.get(job.id)).toMatchObject({ state: 'completed', attempts: 1, batchId: null });
  });

  it('follows the batch job and gives its end to every member', async () => {
    target = cupsTarget(false);
    const p = make(new BatchFetcher());
    await p.start();
    const all = ids('w', 5);
    const jobs = all.map((id) => p.submitBooking(notice(id))[0]!);
    await p.idle();
    expect(target.spooled).toHaveLength(1);
    for (const job of jobs) expect(ledger.get(job.id)!.state).toBe('spooled');
    target.finish(target.spooled[0]!.spoolerJobId, 'aborted');
    await waitFor(() => jobs.every((j) => ledger.get(j.id)!.state === 'failed'));
    for (const job of jobs) expect(ledger.get(job.id)!.reason).toContain(target.spooled[0]!.spoolerJobId);
  });

  it('keeps a batch whole and in place while its printer is down, looks it up by batch id, then sends it once', async () => {
    const p = make(new BatchFetcher());
    target.offlineError = new PrintError('PRINTER_DISABLED', 'queue labels is disabled', { printerDown: true });
    await p.start();
    const all = ids('o', 4);
    const jobs = all.map((id) => p.submitBooking(notice(id))[0]!);
    await waitFor(() => ledger.get(jobs[0]!.id)!.reason?.includes('waiting for the printer') === true);
    expect(target.spooled).toHaveLength(0);
    const batchId = ledger.get(jobs[1]!.id)!.batchId!;
    expect(batchId).toMatch(/^B/);
    target.offlineError = null;
    await waitFor(() => jobs.every((j) => ledger.get(j.id)!.state === 'completed'));
    expect(target.findCalls).toContain(batchId);
    expect(printedShipments(target)).toEqual([all]);
  });

  it('sends the members of a batch whose spool failed one by one, each looked up under the batch id first', async () => {
    const refusedBatches: string[] = [];
    const spool = target.spool.bind(target);
    target.spool = async (request) => {
      if (request.jobId.startsWith('B')) {
        refusedBatches.push(request.jobId);
        throw new PrintError('SPOOL_FAILED', 'the scheduler refused the document', { retryable: true });
      }
      return spool(request);
    };
    const p = make(new BatchFetcher());
    await p.start();
    const all = ids('u', 4);
    const jobs = all.map((id) => p.submitBooking(notice(id))[0]!);
    await p.idle();
    expect(refusedBatches).toHaveLength(1);
    expect(printedShipments(target)).toEqual(all.map((id) => [id]));
    expect(target.findCalls).toEqual(all.map(() => refusedBatches[0]));
    for (const job of jobs) expect(ledger.get(job.id)).toMatchObject({ state: 'completed', batchId: null, attempts: 2 });
  });

  it('upgrades a ledger written before batching (migration 4): its jobs have no batch and can be batched', () => {
    const file = path.join(tmp.dir, 'v2.sqlite');
    const db = new Database(file);
    for (const m of MIGRATIONS.filter((x) => x.version <= 2)) db.exec(m.sql);
    db.pragma('user_version = 2');
    db.prepare(
      `INSERT INTO jobs (id, shipment_id, document_type, layout, target, trigger, state, created_at, updated_at)
       VALUES ('old1', 's-old', 'label', 'printer', ?, 'webhook', 'queued', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')`,
    ).run(LABELS);
    db.close();
    const old = Ledger.open({ path: file });
    try {
      expect(old.get('old1')).toMatchObject({ state: 'queued', batchId: null });
      expect(old.claimBatch({ id: 'Bupgrade', target: LABELS, documentType: 'label', layout: 'printer', jobIds: ['old1'] })).toBe(true);
      expect(old.get('old1')!.batchId).toBe('Bupgrade');
    } finally {
      old.close();
    }
  });

  describe('after a crash mid-batch', () => {
    /** The ledger as a crash leaves it: members claimed and written `spooling` (spool attempted), no spooler id. */
    function crashedBatch(shipments: string[]): { batchId: string; jobIds: string[] } {
      const jobIds = shipments.map(
        (id) =>
          ledger.createAutoJob({ shipmentId: id, documentType: 'label', layout: 'printer', target: LABELS, trigger: 'webhook' }).job.id,
      );
      const batchId = 'Bcrashtest00001';
      expect(ledger.claimBatch({ id: batchId, target: LABELS, documentType: 'label', layout: 'printer', jobIds })).toBe(true);
      for (const id of jobIds) ledger.transition(id, 'spooling', { spoolAttempted: true, incrementAttempts: true });
      return { batchId, jobIds };
    }

    it('adopts the batch job found at the spooler under the batch id for every member, sending nothing again', async () => {
      const { batchId, jobIds } = crashedBatch(['c1', 'c2', 'c3']);
      const spoolerJobId = target.seedSpooled(batchId, 'completed');
      const fetcher = new BatchFetcher();
      const p = make(fetcher);
      await p.start();
      await p.idle();
      expect(fetcher.calls).toEqual([]);
      expect(target.spooled).toHaveLength(0);
      for (const id of jobIds) expect(ledger.get(id)).toMatchObject({ state: 'completed', spoolerJobId });
    });

    it('queues the members again when the spooler never got the batch, and prints each once', async () => {
      const { jobIds } = crashedBatch(['n1', 'n2', 'n3']);
      const fetcher = new BatchFetcher();
      const p = make(fetcher);
      await p.start();
      await p.idle();
      expect(printedShipments(target).flat()).toEqual(['n1', 'n2', 'n3']);
      for (const id of jobIds) expect(ledger.get(id)!.state).toBe('completed');
    });

    it('refuses to claim a job that is already in a batch, and then claims none of the others', () => {
      const job = (id: string) =>
        ledger.createAutoJob({ shipmentId: id, documentType: 'label', layout: 'printer', target: LABELS, trigger: 'webhook' }).job.id;
      const [a, b] = [job('x1'), job('x2')];
      expect(ledger.claimBatch({ id: 'Bfirst', target: LABELS, documentType: 'label', layout: 'printer', jobIds: [a] })).toBe(true);
      expect(ledger.claimBatch({ id: 'Bsecond', target: LABELS, documentType: 'label', layout: 'printer', jobIds: [b, a] })).toBe(false);
      expect(ledger.get(a)!.batchId).toBe('Bfirst');
      expect(ledger.get(b)!.batchId).toBeNull();
      expect(ledger.batches.getBatch('Bsecond')).toBeNull();
    });
  });
});

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
