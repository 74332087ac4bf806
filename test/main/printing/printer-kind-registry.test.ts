/**
 * A printer kind's facts come from its registry entry and nowhere else: a kind registered
 * only here (it is in no list of src/) batches or not as its entry says when the real job
 * engine prints to it, is asked for its readiness no more often than its entry says, is
 * checked at start and discovered by its entry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PrinterWatch } from '../../../src/main/agent/printer-watch';
import type { PdfFetcher } from '../../../src/main/jobs/ports';
import { discoverPrinters } from '../../../src/main/printing/discovery';
import type { PrinterKindEntry } from '../../../src/main/printing/printer-kind-entry';
import { readinessMinIntervalOf, registerPrinterKind } from '../../../src/main/printing/printer-kinds';
import { checkPrinterAtStart } from '../../../src/main/printing/startup-check';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { MemoryTarget, notice } from '../../support/jobs/fakes';
import { Harness } from '../../support/jobs/harness';

const KIND = 'test-kind';
const URI = `${KIND}:bench-1`;

/** A printer of the test kind: an in-memory spooler that says it is of that kind. */
class TestKindTarget extends MemoryTarget {
  override readonly kind = KIND as never;
}

function testKind(facts: Partial<PrinterKindEntry<{ readonly name: string }>>): PrinterKindEntry<{ readonly name: string }> {
  return {
    forms: [`${KIND}:NAME`],
    parse: (rest) => ({ name: rest }),
    format: (address) => address.name,
    create: (_address, { uri }) => new TestKindTarget(uri),
    reconcilable: true,
    batches: false,
    readinessMinIntervalMs: 0,
    checkedAtStart: true,
    fields: { rawZpl: false, address: 'printer-name', dpi: false },
    ...facts,
  };
}

/** One PDF naming every shipment of the call, in order (as the service does). */
const fetcher: PdfFetcher = {
  async printFile(req) {
    return { pdf: new TextEncoder().encode(`%PDF ${req.shipment_ids.join(',')}`), requestId: null };
  },
};

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `k${String(i).padStart(2, '0')}`);

describe('a printer kind registered only in this test', () => {
  let unregister: (() => void) | null = null;
  let h: Harness | null = null;
  afterEach(async () => {
    unregister?.();
    unregister = null;
    await h?.close();
    h = null;
  });

  /** Prints 30 labels to one printer of the test kind through the real pipeline; the PDFs it spooled. */
  async function print30(): Promise<string[][]> {
    const target = new TestKindTarget(URI);
    h = new Harness(new Map<string, PrinterTarget>([[URI, target]]), URI);
    const p = h.pipeline({ fetcher });
    await p.start();
    const [first, ...rest] = ids(30);
    p.submitBooking(notice(first!));
    await new Promise((r) => setImmediate(r));
    for (const id of rest) p.submitBooking(notice(id));
    await p.idle();
    expect(h.ledger.counts().completed).toBe(30);
    return target.spooled.map((s) => s.pdfText!.split(' ')[1]!.split(','));
  }

  it('batches its waiting labels when its entry says it batches', async () => {
    unregister = registerPrinterKind(KIND, testKind({ batches: true }));
    const jobs = await print30();
    // Every label once and in order, most of them in printer jobs of many labels.
    expect(jobs.flat()).toEqual(ids(30));
    expect(jobs.length).toBeLessThanOrEqual(5);
    expect(Math.max(...jobs.map((labels) => labels.length))).toBeGreaterThan(1);
  });

  it('prints one label per printer job when its entry says it does not batch', async () => {
    unregister = registerPrinterKind(KIND, testKind({ batches: false }));
    expect(await print30()).toEqual(ids(30).map((id) => [id]));
  });

  it('is asked for its readiness no more often than its entry says', async () => {
    unregister = registerPrinterKind(KIND, testKind({ readinessMinIntervalMs: 10_000 }));
    expect(readinessMinIntervalOf(URI)).toBe(10_000);
    const asked: string[] = [];
    let now = 0;
    const watch = new PrinterWatch({
      printers: () => [
        { uri: URI, media: 'label' },
        { uri: 'zpl://a', media: 'label' },
      ],
      readiness: async (uri) => {
        asked.push(uri);
        return { ready: true, detail: null };
      },
      onChange: () => undefined,
      minGapMs: readinessMinIntervalOf,
      now: () => now,
    });
    for (now = 0; now <= 20_000; now += 4000) await watch.check();
    // Asked at 0 and 12 s (4 s and 8 s after an answer are too soon, and 16 s and 20 s after the next); the ZPL printer (no interval of its own) at each of the 6 looks.
    expect(asked.filter((u) => u === URI)).toHaveLength(2);
    expect(asked.filter((u) => u === 'zpl://a')).toHaveLength(6);
  });

  it('is checked at start and discovered by its entry', async () => {
    unregister = registerPrinterKind(
      KIND,
      testKind({
        checkAtStart: async (target) => ({ fatal: `printer ${target.uri}: no such bench`, warning: null }),
        discover: async () => [{ uri: URI, name: 'Bench 1', kind: KIND as never, media: 'label', ready: true, detail: null }],
      }),
    );
    expect(await checkPrinterAtStart(new TestKindTarget(URI))).toEqual({ fatal: `printer ${URI}: no such bench`, warning: null });
    const found = await discoverPrinters({ platform: 'win32', pdfToPrinter: { getPrinters: async () => [] } });
    expect(found.map((p) => p.uri)).toEqual([URI]);
  });

  it('is refused a second registration, and once removed no longer batches', async () => {
    unregister = registerPrinterKind(KIND, testKind({ batches: true }));
    expect(() => registerPrinterKind(KIND, testKind({}))).toThrow(/registered already/);
    expect(() => registerPrinterKind('cups', testKind({}))).toThrow(/registered already/);
    unregister();
    unregister = null;
    expect(await print30()).toEqual(ids(30).map((id) => [id]));
  });
});
