import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { canceledAmong } from '../../../src/main/api/cancel-lookup';
import type { PrintPipeline, PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import { buildPipeline } from '../../support/jobs/builder';
import type { PdfFetcher, PrintFileRequest } from '../../../src/main/jobs/ports';
import { Ledger } from '../../../src/main/ledger/ledger';
import { silentLogger } from '../../../src/main/log';
import { PackFlow } from '../../../src/main/pack/pack-flow';
import type { PrinterTarget, SpoolRequest, SpoolResult } from '../../../src/main/printing/target';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { notice, tempDir } from '../../support/jobs/fakes';
import { until } from '../../support/jobs/harness';

const LABELS = 'cups:labels';

/**
 * A label printer as a CUPS queue (so jobs batch) that is busy while `hold()` is in force:
 * spool() waits until `release()`. It records each spooled PDF and the shipments the service
 * rendered into it (read from the fetcher's log, by PDF).
 */
class BusyPrinter implements PrinterTarget {
  readonly uri = LABELS;
  readonly kind = 'cups' as const;
  readonly needsPdf = true;
  readonly printed: string[][] = [];
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;
  private counter = 0;

  constructor(private readonly shipmentsOf: (pdf: Uint8Array) => string[]) {}

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open?.();
    this.gate = null;
  }
  async spool(request: SpoolRequest): Promise<SpoolResult> {
    if (this.gate) await this.gate;
    this.printed.push(this.shipmentsOf(request.pdf!));
    return { spoolerJobId: `labels-${++this.counter}`, completed: true };
  }
  async jobState(): Promise<'completed'> {
    return 'completed';
  }
  async findSpooled(): Promise<null> {
    return null;
  }
  async readiness(): Promise<{ ready: boolean; detail: string | null }> {
    return { ready: true, detail: null };
  }
}

/** The real client against the sandbox, remembering which shipments each PDF holds. */
class RecordingFetcher implements PdfFetcher {
  readonly byPdf = new WeakMap<Uint8Array, string[]>();
  readonly calls: string[][] = [];
  checks = 0;
  constructor(private readonly client: ServiceClient) {}

  async printFile(req: PrintFileRequest): Promise<{ pdf: Uint8Array; requestId: string | null }> {
    const answer = await this.client.printFile(req);
    this.calls.push([...req.shipment_ids]);
    this.byPdf.set(answer.pdf, [...req.shipment_ids]);
    return answer;
  }
  async canceledAmong(ids: readonly string[], since: Date) {
    this.checks += 1;
    return canceledAmong(this.client, ids, since);
  }
}

describe('PrintPipeline: a canceled shipment never prints', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  let fetcher: RecordingFetcher;
  let printer: BusyPrinter;
  let pipeline: PrintPipeline;

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });
  beforeEach(() => {
    tmp = tempDir('ps-cancel-');
    ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite'), pruneIntervalMs: 0 });
    fetcher = new RecordingFetcher(client);
    printer = new BusyPrinter((pdf) => fetcher.byPdf.get(pdf) ?? ['?']);
  });
  afterEach(async () => {
    await pipeline.stop();
    ledger.close();
    tmp.cleanup();
  });

  async function start(extra: Partial<PrintPipelineOptions> = {}): Promise<PrintPipeline> {
    pipeline = buildPipeline({ ledger, targets: printer, labels: LABELS }, { fetcher, retryBaseMs: 20, retryMaxMs: 100, ...extra });
    await pipeline.start();
    return pipeline;
  }

  const book = async (): Promise<string> => (await sandbox.bookShipment({ source: 'API' })).shipmentId;
  const jobOf = (shipmentId: string) => ledger.search({ text: shipmentId }).find((j) => j.shipmentId === shipmentId)!;
  const fetched = (shipmentId: string): boolean => fetcher.calls.some((c) => c.includes(shipmentId));

  it('a label fetched and waiting behind a busy, then paused, printer is not printed after Cancel shipment at this station', async () => {
    await start({ batchMax: 1 });
    const [first, second] = [await book(), await book()];
    printer.hold();
    pipeline.submitBooking(notice(first));
    pipeline.submitBooking(notice(second));
    await until(() => fetched(second));
    pipeline.pause(LABELS);
    printer.release();
    await until(() => printer.printed.length === 1);

    // The packer's "Cancel shipment" (pack and ship), as the UI calls it.
    const pack = new PackFlow({ client: () => client, ledger, pipeline, autoPrintTypes: () => ['label'], log: silentLogger });
    const answer = await pack.cancel({ shipmentId: second });
    pipeline.resume(LABELS);
    await pipeline.idle();

    expect(answer.ok).toBe(true);
    expect(printer.printed).toEqual([[first]]);
    expect(jobOf(second)).toMatchObject({ state: 'canceled', reasonMessage: { code: 'job.shipmentCanceled', params: { by: 'station' } } });
    expect(ledger.cancelOf(second)).toMatchObject({ source: 'station' });
    // A booking notice arriving late (webhooks come out of order) prints nothing either.
    expect(pipeline.submitBooking(notice(second))).toEqual([]);
    await pipeline.idle();
    expect(printer.printed).toEqual([[first]]);
  });

  it('a label that waited behind a busy printer asks the service before spooling: canceled there (the web application), it ends canceled', async () => {
    await start({ batchMax: 1, recheckAfterMs: 100 });
    const [first, second] = [await book(), await book()];
    printer.hold();
    pipeline.submitBooking(notice(first));
    pipeline.submitBooking(notice(second));
    await until(() => fetched(second));
    sandbox.cancelShipment(second);
    await new Promise((r) => setTimeout(r, 150));
    printer.release();
    await pipeline.idle();

    expect(printer.printed).toEqual([[first]]);
    expect(jobOf(second)).toMatchObject({ state: 'canceled', reasonMessage: { code: 'job.shipmentCanceled', params: { by: 'service' } } });
    expect(ledger.cancelOf(second)).toMatchObject({ source: 'service' });
    // One request for the one job that waited (the first went at once).
    expect(fetcher.checks).toBe(1);
  });

  it('a label refused at fetch because its shipment was canceled elsewhere (nothing heard yet) ends canceled, not failed', async () => {
    await start({ batchMax: 1 });
    const id = await book();
    pipeline.pause(LABELS);
    pipeline.submitBooking(notice(id));
    sandbox.cancelShipment(id);
    pipeline.resume(LABELS);
    await pipeline.idle();
    expect(printer.printed).toEqual([]);
    expect(jobOf(id)).toMatchObject({ state: 'canceled', reasonMessage: { code: 'job.shipmentCanceled', params: { by: 'service' } } });
    expect(ledger.cancelOf(id)).toMatchObject({ source: 'service' });
  });

  it('a label that did not wait is spooled without asking the service', async () => {
    await start({ batchMax: 1, recheckAfterMs: 60_000 });
    const id = await book();
    pipeline.submitBooking(notice(id));
    await pipeline.idle();
    expect(printer.printed).toEqual([[id]]);
    expect(fetcher.checks).toBe(0);
  });

  it('a batch not yet spooled with one canceled member: the others print once, in order, and one list call checked them', async () => {
    await start({ recheckAfterMs: 100, firstAlone: false });
    const head = await book();
    const members = [await book(), await book(), await book(), await book()];
    printer.hold();
    pipeline.submitBooking(notice(head, 'webhook', { bookedAt: '2026-01-01T10:00:00.000Z' }));
    await until(() => fetched(head));
    members.forEach((id, i) => pipeline.submitBooking(notice(id, 'webhook', { bookedAt: `2026-01-01T10:00:0${i + 1}.000Z` })));
    await until(() => fetcher.calls.some((c) => c.length === members.length));
    sandbox.cancelShipment(members[1]!);
    await new Promise((r) => setTimeout(r, 150));
    const requestsBefore = sandbox.requestLog().length;
    printer.release();
    await pipeline.idle();

    const listCalls = sandbox
      .requestLog()
      .slice(requestsBefore)
      .filter((r) => r.method === 'GET' && r.url.includes('status=CANCELED'));
    expect(listCalls).toHaveLength(1);
    expect(printer.printed.flat()).toEqual([head, members[0], members[2], members[3]]);
    expect(jobOf(members[1]!).state).toBe('canceled');
    for (const id of [head, members[0]!, members[2]!, members[3]!]) expect(jobOf(id).state).toBe('completed');
  });

  it('a batch fetched behind a busy printer with one member canceled at this station: the others print once, in order', async () => {
    await start({ firstAlone: false });
    const head = await book();
    const ids = [await book(), await book(), await book()];
    printer.hold();
    pipeline.submitBooking(notice(head, 'webhook', { bookedAt: '2026-01-01T10:00:00.000Z' }));
    await until(() => fetched(head));
    ids.forEach((id, i) => pipeline.submitBooking(notice(id, 'webhook', { bookedAt: `2026-01-01T10:00:0${i + 1}.000Z` })));
    await until(() => fetcher.calls.some((c) => c.length === ids.length));
    await client.cancel({ shipment_id: ids[1]! });
    expect(pipeline.cancelShipment(ids[1]!, 'station').canceled).toHaveLength(1);
    printer.release();
    await pipeline.idle();

    expect(printer.printed).toEqual([[head], [ids[0], ids[2]]]);
    expect(jobOf(ids[1]!).state).toBe('canceled');
  });
});
