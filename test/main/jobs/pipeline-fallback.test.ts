import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/main/ledger/ledger';
import type { PrintPipeline } from '../../../src/main/jobs/pipeline';
import { buildPipeline } from '../../support/jobs/builder';
import { PrintError } from '../../../src/main/printing/errors';
import { MemoryTarget, ScriptedFetcher, notice, tempDir } from '../../support/jobs/fakes';

const LABELS = 'mem:zebra';
const SHEETS = 'mem:office';

/** Readiness follows offlineError, as a stopped CUPS queue does. */
class StoppableTarget extends MemoryTarget {
  override async readiness(): Promise<{ ready: boolean; detail: string | null }> {
    return this.offlineError ? { ready: false, detail: (this.offlineError as Error).message } : { ready: true, detail: null };
  }
}
const stopped = () => new PrintError('PRINTER_DISABLED', `CUPS queue "zebra" is disabled: run \`cupsenable 'zebra'\`.`, { target: LABELS });

describe("PrintPipeline: moving a stopped label printer's waiting labels to an A4 printer", () => {
  let tmp: ReturnType<typeof tempDir>;
  let file: string;
  let ledger: Ledger;
  let labels: StoppableTarget;
  let sheets: StoppableTarget;
  let pipelines: PrintPipeline[];

  beforeEach(() => {
    tmp = tempDir();
    file = path.join(tmp.dir, 'ledger.sqlite');
    ledger = Ledger.open({ path: file });
    labels = new StoppableTarget(LABELS);
    sheets = new StoppableTarget(SHEETS);
    pipelines = [];
  });
  afterEach(async () => {
    for (const p of pipelines) await p.stop();
    ledger.close();
    tmp.cleanup();
  });

  const make = (fetcher = new ScriptedFetcher()): PrintPipeline =>
    buildPipeline(
      { ledger, targets: labels },
      {
        fetcher,
        targetFor: (uri) => (uri === LABELS ? labels : sheets),
        mediaFor: (target, layout) => (target === SHEETS ? 'a4' : layout === 'printer' ? 'label' : 'a4'),
      },
      pipelines,
    );

  async function downWith(p: PrintPipeline, ids: string[]): Promise<void> {
    labels.offlineError = stopped();
    await p.start();
    for (const id of ids) p.submitBooking(notice(id));
    await expect.poll(() => p.downPrinters(), { timeout: 5000 }).toEqual([{ target: LABELS, advice: expect.stringMatching(/disabled/) }]);
  }

  it('moves every waiting label once, refetched as a4 sheets; nothing more when the label printer comes back', async () => {
    const fetcher = new ScriptedFetcher();
    const p = make(fetcher);
    await downWith(p, ['s1', 's2', 's3']);
    const moved = await p.moveWaiting(LABELS, SHEETS, 'a4');
    expect(moved.map((j) => [j.shipmentId, j.target, j.layout])).toEqual([
      ['s1', SHEETS, 'a4'],
      ['s2', SHEETS, 'a4'],
      ['s3', SHEETS, 'a4'],
    ]);
    await p.idle();
    expect(sheets.spooled.map((s) => [s.shipmentId, s.layout, s.media])).toEqual([
      ['s1', 'a4', 'a4'],
      ['s2', 'a4', 'a4'],
      ['s3', 'a4', 'a4'],
    ]);
    expect(fetcher.calls.filter((c) => c.label_layout === 'a4').map((c) => c.shipment_ids[0])).toEqual(['s1', 's2', 's3']);
    expect(await p.moveWaiting(LABELS, SHEETS, 'a4')).toEqual([]);
    labels.offlineError = null;
    p.submitBooking(notice('s1')); // the poll sees the same booking again
    await new Promise((r) => setTimeout(r, 100));
    await p.idle();
    expect(labels.spooled).toEqual([]);
    expect(sheets.spooled).toHaveLength(3);
  });

  it('leaves a label the stopped printer already holds where it is: it prints there, once', async () => {
    const p = make();
    await downWith(p, ['s1', 's2']);
    const head = ledger.open().find((j) => j.shipmentId === 's1')!;
    expect(head.spoolAttempted).toBe(true);
    labels.seedSpooled(head.id, 'pending');
    const moved = await p.moveWaiting(LABELS, SHEETS, 'a4');
    expect(moved.map((j) => j.shipmentId)).toEqual(['s2']);
    await expect.poll(() => sheets.shipments(), { timeout: 5000 }).toEqual(['s2']);
    labels.offlineError = null;
    await expect.poll(() => ledger.get(head.id)!.state, { timeout: 5000 }).toBe('spooled');
    expect(labels.spooled).toEqual([]); // found at the spooler, not sent again
    expect(sheets.shipments()).toEqual(['s2']);
  });

  it('keeps the move across a restart: the moved labels print on the A4 printer, the label printer gets none', async () => {
    const first = make();
    sheets.offlineError = new PrintError('PRINTER_DISABLED', 'CUPS queue "office" is disabled.', { target: SHEETS });
    await downWith(first, ['s1', 's2']);
    expect(await first.moveWaiting(LABELS, SHEETS, 'a4')).toHaveLength(2);
    await first.stop();
    ledger.close();
    ledger = Ledger.open({ path: file });
    labels.offlineError = null;
    sheets.offlineError = null;
    const second = make();
    await second.start();
    await second.idle();
    expect(sheets.shipments()).toEqual(['s1', 's2']);
    expect(labels.spooled).toEqual([]);
    expect(await second.moveWaiting(LABELS, SHEETS, 'a4')).toEqual([]);
  });
});
