import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { englishOf, type AgentMessage } from '../../../src/shared/agent-messages';
import type { JobView } from '../../../src/shared/domain';
import { errorFromResponse, timeoutError } from '../../../src/main/api/error-mapping';
import { Ledger } from '../../../src/main/ledger/ledger';
import type { PrintPipeline, PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import { buildPipeline } from '../../support/jobs/builder';
import { createTarget } from '../../../src/main/printing/create-target';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { startPrivateCups, type PrivateCups } from '../../support/cups';
import { MemoryTarget, ScriptedFetcher, notice, tempDir } from '../../support/jobs/fakes';

/*
 * Every reason the pipeline writes carries a message code: run the
 * paths that compose reasons and check each job's reason is the English of its code, and that
 * the code is read back from the ledger (history is worded again in the UI's language).
 */

const ctx = (status: number, serviceMessage: string | null, requestId: string) =>
  errorFromResponse(
    { method: 'POST', path: '/shipments/print', status, requestId, retryAfterMs: null, secret: 'sk_test_secret' },
    serviceMessage === null ? {} : { message: serviceMessage },
  );

/** The reason has a code of its own (not bare text) and the English is composed from it. */
function expectCoded(job: JobView | null | undefined, code: AgentMessage['code']): AgentMessage {
  expect(job?.reasonMessage?.code).toBe(code);
  expect(job!.reason).toBe(englishOf(job!.reasonMessage!));
  return job!.reasonMessage!;
}

describe('PrintPipeline: every reason it writes has a message code', () => {
  let cups: PrivateCups;
  let tmp: ReturnType<typeof tempDir>;
  let pipelines: PrintPipeline[] = [];
  let ledgers: Ledger[] = [];

  beforeAll(async () => {
    cups = await startPrivateCups({ queues: [{ name: 'zebra', kind: 'sink' }] });
    tmp = tempDir('ps-reason-codes-');
  });
  afterEach(async () => {
    for (const p of pipelines) await p.stop();
    for (const l of ledgers) l.close();
    pipelines = [];
    ledgers = [];
  });
  afterAll(async () => {
    await cups?.stop();
    tmp?.cleanup();
  });

  function make(name: string, extra: Partial<PrintPipelineOptions>): { p: PrintPipeline; ledger: Ledger; file: string } {
    const file = path.join(tmp.dir, `${name}.sqlite`);
    const ledger = Ledger.open({ path: file });
    const p = buildPipeline(
      { ledger, targets: new MemoryTarget('mem:labels') },
      { targetFor: () => new MemoryTarget('mem:labels'), maxAttempts: 3, followIntervalMs: 20, ...extra },
      pipelines,
    );
    ledgers.push(ledger);
    return { p, ledger, file };
  }

  it('a paused (disabled) CUPS queue: the head waits for the printer with the queue state as its advice, kept in the ledger', async () => {
    await cups.disable('zebra', 'media-empty-error');
    const targets = new Map<string, PrinterTarget>();
    const { p, ledger, file } = make('paused', {
      targetFor: (uri) => targets.get(uri) ?? targets.set(uri, createTarget(uri, { env: cups.env })).get(uri)!,
      route: () => ({ target: 'cups:zebra', layout: 'printer', media: 'label' }),
    });
    await p.start();
    const [job] = p.submitBooking(notice('pz1'));
    await expect.poll(() => ledger.get(job!.id)?.reasonMessage?.code, { timeout: 10_000 }).toBe('job.waitingForPrinter');
    const message = expectCoded(ledger.get(job!.id), 'job.waitingForPrinter');
    expect(message.code === 'job.waitingForPrinter' && message.params.advice).toEqual({
      code: 'printer.cupsDisabled',
      params: { queue: 'zebra', reason: 'media-empty-error' },
    });
    expect(ledger.get(job!.id)!.reason).toMatch(/^CUPS queue "zebra" is disabled \(media-empty-error\): run .*; waiting for the printer/);
    await p.stop();
    ledger.close();
    ledgers = [];
    // History read back from the file: the code is there for the UI to word again.
    const reopened = Ledger.open({ path: file });
    ledgers.push(reopened);
    expect(reopened.get(job!.id)!.reasonMessage).toEqual(message);
    await cups.enable('zebra');
  });

  it('a service that is down: retrying with its code, then gave up; the job view (onJobChange) carries the code too', async () => {
    const changes: JobView[] = [];
    const { p, ledger } = make('unavailable', {
      fetcher: new ScriptedFetcher(() => ({ error: ctx(503, null, 'req-503') })),
      onJobChange: (job) => changes.push(job),
    });
    await p.start();
    const [job] = p.submitBooking(notice('su1'));
    await expect.poll(() => ledger.get(job!.id)?.state, { timeout: 5000 }).toBe('failed');
    const retrying = changes.find((c) => c.id === job!.id && c.reasonMessage?.code === 'job.retrying');
    expect(retrying).toBeDefined();
    expect(retrying!.reason).toMatch(/^the service is unavailable \(HTTP 503\); retrying in \d+ ms$/);
    const gaveUp = expectCoded(ledger.get(job!.id), 'job.gaveUp');
    expect(gaveUp).toEqual({ code: 'job.gaveUp', params: { cause: { code: 'service.unavailable503', params: {} }, attempts: 3 } });
    expect(ledger.get(job!.id)!.reason).toBe('the service is unavailable (HTTP 503) (gave up after 3 attempts; retry by hand)');
  });

  it("a refusal by the service: the service's own words and request id travel in the code, the English as before", async () => {
    const { p, ledger } = make('refused', {
      fetcher: new ScriptedFetcher(() => ({ error: ctx(400, 'Label format not allowed.', 'req-400') })),
    });
    await p.start();
    const [job] = p.submitBooking(notice('sr1'));
    await expect.poll(() => ledger.get(job!.id)?.state, { timeout: 5000 }).toBe('failed');
    const message = expectCoded(ledger.get(job!.id), 'service.error');
    expect(message.params).toMatchObject({
      apiCode: 'SERVICE_BAD_REQUEST',
      status: 400,
      serviceMessage: 'Label format not allowed.',
      requestId: 'req-400',
    });
    expect(ledger.get(job!.id)!.reason).toBe(
      'The service refused POST /shipments/print as invalid: Label format not allowed. ' +
        'Correct the request and try again (request id req-400)',
    );
  });

  it('a document the shipment does not have is canceled with its code; a job canceled by hand says so with a code', async () => {
    const { p, ledger } = make('missing', {
      fetcher: new ScriptedFetcher((req) =>
        req.document_type === 'customsinvoice' ? { error: ctx(422, 'document_type_unavailable', 'r-422') } : {},
      ),
      autoPrintTypes: () => ['label', 'customsinvoice'],
      route: (type) => ({ target: 'mem:labels', layout: type === 'label' ? 'printer' : 'a4', media: type === 'label' ? 'label' : 'a4' }),
      targetFor: () => new MemoryTarget('mem:labels'),
    });
    await p.start();
    const jobs = p.submitBooking(notice('dm1'));
    const invoice = jobs.find((j) => j.documentType === 'customsinvoice')!;
    await expect.poll(() => ledger.get(invoice.id)?.state, { timeout: 5000 }).toBe('canceled');
    expect(expectCoded(ledger.get(invoice.id), 'job.noDocument').params).toEqual({ documentType: 'customsinvoice' });
    expect(ledger.get(invoice.id)!.reason).toBe('this shipment has no customsinvoice');

    p.pause();
    const [held] = p.submitBooking(notice('dm2'));
    const canceled = p.cancel(held!.id);
    expect(canceled.reasonMessage).toEqual({ code: 'job.canceledByHand', params: {} });
    expectCoded(ledger.get(held!.id), 'job.canceledByHand');
  });

  it('a printer that cannot say what it printed: the timeout fails the job as "may have printed", coded around the cause', async () => {
    class Unconfirmed extends MemoryTarget {
      readonly reconcilable = false;
      override async spool(): Promise<never> {
        throw timeoutError(
          { method: 'POST', path: '/shipments/print', status: null, requestId: null, retryAfterMs: null, secret: '' },
          30_000,
        );
      }
    }
    const { p, ledger } = make('unconfirmed', { targetFor: () => new Unconfirmed('mem:labels') });
    await p.start();
    const [job] = p.submitBooking(notice('mh1'));
    await expect.poll(() => ledger.get(job!.id)?.state, { timeout: 5000 }).toBe('failed');
    const message = expectCoded(ledger.get(job!.id), 'job.mayHavePrinted');
    expect(message.code === 'job.mayHavePrinted' && message.params.cause).toEqual({ code: 'service.noAnswer', params: {} });
    expect(ledger.get(job!.id)!.reason).toBe(
      'the service did not answer in time; it may have printed: check the printer, then retry by hand',
    );
  });
});
