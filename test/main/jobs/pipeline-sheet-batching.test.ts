import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/main/ledger/ledger';
import type { PrintPipeline, PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import { buildPipeline } from '../../support/jobs/builder';
import type { PdfFetcher, PrintFileRequest } from '../../../src/main/jobs/ports';
import type { LabelLayout } from '../../../src/shared/domain';
import { MemoryTarget, notice, tempDir } from '../../support/jobs/fakes';

const LABELS = 'cups:sheets';

/** One PDF naming the call's shipments in order; records the calls and how many were in flight at once. */
class SheetFetcher implements PdfFetcher {
  readonly calls: string[][] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Runs when call number `index` (0-based) has started, before it answers. */
  onCall: (index: number) => void = () => undefined;

  async printFile(req: PrintFileRequest): Promise<{ pdf: Uint8Array; requestId: string | null }> {
    const index = this.calls.push([...req.shipment_ids]) - 1;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      this.onCall(index);
      await new Promise((r) => setTimeout(r, 20));
      return { pdf: new TextEncoder().encode(`%PDF ${req.shipment_ids.join(',')} ${req.label_layout}`), requestId: `rq-${index}` };
    } finally {
      this.inFlight -= 1;
    }
  }
}

describe('PrintPipeline batching on sheet layouts fills the sheets', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  let target: MemoryTarget;
  let pipelines: PrintPipeline[];

  beforeEach(() => {
    tmp = tempDir();
    ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite') });
    target = new MemoryTarget(LABELS);
    Object.defineProperty(target, 'kind', { value: 'cups' }); // batching is for cups and windows targets
    pipelines = [];
  });
  afterEach(async () => {
    for (const p of pipelines) await p.stop();
    ledger.close();
    tmp.cleanup();
  });

  // How sheets fill from labels submitted at once; the first sheet going alone is tested in pipeline-batching.
  const make = (fetcher: PdfFetcher, layout: LabelLayout, extra: Partial<PrintPipelineOptions> = {}): PrintPipeline =>
    buildPipeline({ ledger, targets: target, layout }, { fetcher, firstAlone: false, ...extra }, pipelines);

  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
  const sizes = (calls: string[][]) => calls.map((c) => c.length);
  /** Shipments per spooled document, in spool order, read from the PDFs. */
  const printed = () => target.spooled.map((s) => s.pdfText!.split(' ')[1]!.split(','));

  /** Starts the pipeline, books `all` at once, waits until every job is done, and checks order and exactly-once. */
  async function burst(p: PrintPipeline, all: readonly string[], arriving: readonly string[] = []): Promise<void> {
    await p.start();
    const jobs = all.map((id) => p.submitBooking(notice(id))[0]!);
    await p.idle();
    expect(printed().flat()).toEqual([...all, ...arriving]);
    for (const job of jobs) expect(ledger.get(job.id)).toMatchObject({ state: 'completed', attempts: 1 });
  }

  it('takes whole sheets of 7 labels waiting in 2x2 (4), and the 3 left go next, after that fetch', async () => {
    const fetcher = new SheetFetcher();
    const all = ids('a', 7);
    await burst(make(fetcher, '2x2'), all);
    expect(fetcher.calls).toEqual([all.slice(0, 4), all.slice(4)]);
    expect(fetcher.maxInFlight).toBe(1); // the 3 left waited for the first batch instead of going beside it
  });

  it('puts the labels left over with those that arrive during the fetch: 4, then 3 + 3 = 6 as 4, then 2', async () => {
    const fetcher = new SheetFetcher();
    const p = make(fetcher, '2x2');
    const first = ids('c', 7);
    const later = ids('d', 3);
    fetcher.onCall = (index) => {
      // A few ms into the first call: after the pump has handed out what was waiting.
      if (index === 0) setTimeout(() => later.forEach((id) => p.submitBooking(notice(id))), 5);
    };
    await burst(p, first, later);
    expect(fetcher.calls).toEqual([first.slice(0, 4), [...first.slice(4), later[0]!], later.slice(1)]);
    expect(printed()).toEqual(fetcher.calls);
  });

  it('fills 3x1 sheets by threes and 1x2 sheets by twos', async () => {
    const threes = new SheetFetcher();
    const all = ids('t', 8);
    await burst(make(threes, '3x1'), all);
    expect(sizes(threes.calls)).toEqual([6, 2]);
  });

  it('fills 1x2 sheets by twos', async () => {
    const twos = new SheetFetcher();
    await burst(make(twos, '1x2'), ids('w', 5));
    expect(sizes(twos.calls)).toEqual([4, 1]);
  });

  it('keeps whole sheets under batchMax: 30 in 2x2 at the default 25 go as 24, 4, 2', async () => {
    const fetcher = new SheetFetcher();
    await burst(make(fetcher, '2x2'), ids('m', 30));
    expect(sizes(fetcher.calls)).toEqual([24, 4, 2]);
  });

  it('sends fewer than a sheet as they are, and whole sheets whole, at once', async () => {
    const fetcher = new SheetFetcher();
    const p = make(fetcher, '2x2');
    await burst(p, ids('f', 3));
    for (const id of ids('g', 8)) p.submitBooking(notice(id));
    await p.idle();
    expect(sizes(fetcher.calls)).toEqual([3, 8]);
  });

  it('sends the first sheet of a burst at once when nothing is in flight: 9 in 2x2 go as 4, 4, 1 (firstAlone)', async () => {
    const fetcher = new SheetFetcher();
    const p = make(fetcher, '2x2', { firstAlone: undefined });
    await p.start();
    for (const id of ids('i', 9)) p.submitBooking(notice(id));
    await p.idle();
    expect(sizes(fetcher.calls)).toEqual([4, 4, 1]);
  });

  /** Books `ids` one at a time, `gapMs` apart, starting `gapMs` from now. */
  function arrive(p: PrintPipeline, ids: readonly string[], gapMs = 2): void {
    ids.forEach((id, i) => setTimeout(() => p.submitBooking(notice(id)), gapMs * (i + 1)));
  }

  it('joins 3x1 labels arriving one at a time during a fetch into whole sheets: 1, then 3, then 2', async () => {
    const fetcher = new SheetFetcher();
    const p = make(fetcher, '3x1');
    const first = ids('h', 1);
    const during0 = ids('i', 3);
    const during1 = ids('j', 2);
    fetcher.onCall = (index) => {
      // One or two alone would be a part sheet beside a fetch in flight: they wait. The third
      // makes a whole sheet, which goes at once; the next two wait for the fetches to end.
      if (index === 0) arrive(p, during0);
      if (index === 1) arrive(p, during1);
    };
    await burst(p, first, [...during0, ...during1]);
    expect(fetcher.calls).toEqual([first, during0, during1]);
    expect(fetcher.maxInFlight).toBe(2);
  });

  it('fetches a lone label with nothing in flight at once, alone, without waiting on a timer', async () => {
    const fetcher = new SheetFetcher();
    const p = make(fetcher, '1x2');
    await p.start();
    p.submitBooking(notice('lone'));
    await new Promise((r) => setImmediate(r)); // microtasks only: no timer has run yet
    expect(fetcher.calls).toEqual([['lone']]);
    await p.idle();
    expect(printed()).toEqual([['lone']]);
  });

  it('keeps fetching ahead on the printer layout: labels arriving during a fetch go beside it', async () => {
    const fetcher = new SheetFetcher();
    const p = make(fetcher, 'printer');
    const first = ids('k', 1);
    const during0 = ids('l', 3);
    fetcher.onCall = (index) => {
      if (index === 0) arrive(p, during0, 4);
    };
    await burst(p, first, during0);
    expect(fetcher.calls[1]).toEqual([during0[0]]); // went at once, not after the first fetch
    expect(fetcher.maxInFlight).toBeGreaterThan(1);
  });

  it.each([
    ['printer', [25, 5]],
    ['a4', [25, 5]],
  ] as const)('leaves one-label-a-page layout %s as before (30 labels: %j)', async (layout, expected) => {
    const fetcher = new SheetFetcher();
    await burst(make(fetcher, layout), ids('p', 30));
    expect(sizes(fetcher.calls)).toEqual(expected);
    expect(fetcher.maxInFlight).toBe(2); // the 5 behind the cap went beside the 25
  });
});
