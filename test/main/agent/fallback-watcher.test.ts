import { describe, expect, it } from 'vitest';
import { FallbackError, FallbackWatcher, type FallbackOffer } from '../../../src/main/agent/fallback-watcher';
import { routingSchema, type JobView, type LabelLayout } from '../../../src/shared/domain';

function fakePipeline(down: Array<{ target: string; advice: string }>) {
  const moves: Array<[string, string, LabelLayout]> = [];
  return {
    moves,
    down,
    downPrinters: () => down,
    moveWaiting: async (from: string, to: string, layout: LabelLayout) => {
      moves.push([from, to, layout]);
      return [{ id: 'j1', shipmentId: 's1', target: to, layout } as unknown as JobView];
    },
  };
}

const routing = routingSchema.parse({
  labelPrinter: 'cups:zebra1',
  documentPrinter: 'cups:office',
  printers: [
    { name: 'Zebra 1', uri: 'cups:zebra1', media: 'label', fallback: { printer: 'Office', auto: false } },
    { name: 'Zebra 2', uri: 'cups:zebra2', media: '100x150mm', fallback: { printer: 'Sheets', auto: true } },
    { name: 'Office', uri: 'cups:office', media: 'a4' },
    { name: 'Sheets', uri: 'cups:sheets', media: 'letter', layout: '2x2' },
  ],
});

describe('FallbackWatcher', () => {
  it("offers the move once per outage without auto, and moves by itself with auto, in the A4 printer's layout", async () => {
    const pipeline = fakePipeline([
      { target: 'cups:zebra1', advice: 'queue disabled' },
      { target: 'cups:zebra2', advice: 'media empty' },
      { target: 'cups:office', advice: 'A4 printer down: not a label printer' },
    ]);
    const offers: FallbackOffer[] = [];
    const moved: string[] = [];
    const watcher = new FallbackWatcher({
      pipeline,
      routing: () => routing,
      onOffer: (o) => offers.push(o),
      onMoved: (p, to) => moved.push(`${p}>${to}`),
      onError: (e) => {
        throw e;
      },
    });
    await watcher.check();
    await watcher.check();
    expect(offers).toEqual([{ printer: 'cups:zebra1', advice: 'queue disabled', fallback: 'cups:office' }]);
    expect(pipeline.moves).toEqual([
      ['cups:zebra2', 'cups:sheets', '2x2'],
      ['cups:zebra2', 'cups:sheets', '2x2'],
    ]);
    expect(moved).toEqual(['cups:zebra2>cups:sheets', 'cups:zebra2>cups:sheets']);
    // Back up, then down again: a new offer.
    pipeline.down.splice(0, 3);
    await watcher.check();
    pipeline.down.push({ target: 'cups:zebra1', advice: 'queue disabled' });
    await watcher.check();
    expect(offers).toHaveLength(2);
  });

  it('moves on request to the configured fallback or a chosen A4 printer, and refuses label stock or no choice', async () => {
    const pipeline = fakePipeline([]);
    const noFallback = routingSchema.parse({ ...routing, printers: routing.printers!.map((p) => ({ ...p, fallback: undefined })) });
    let current = routing;
    const watcher = new FallbackWatcher({ pipeline, routing: () => current, onOffer: () => {}, onMoved: () => {}, onError: () => {} });
    await watcher.moveToFallback('Zebra 1');
    await watcher.moveToFallback('cups:zebra1', 'Sheets');
    expect(pipeline.moves).toEqual([
      ['cups:zebra1', 'cups:office', 'a4'],
      ['cups:zebra1', 'cups:sheets', '2x2'],
    ]);
    await expect(watcher.moveToFallback('cups:zebra1', 'Zebra 2')).rejects.toThrow(/not an A4 or Letter printer/);
    current = noFallback;
    await expect(watcher.moveToFallback('cups:zebra1')).rejects.toBeInstanceOf(FallbackError);
    await expect(watcher.moveToFallback('cups:zebra1')).rejects.toThrow(/choose an A4 printer/);
  });

  it('offers nothing when the station has no A4 or Letter printer to take the labels, and says the printer stopped once', async () => {
    const pipeline = fakePipeline([{ target: 'folder:/labels', advice: 'the disk is full' }]);
    const alone = routingSchema.parse({ labelPrinter: 'folder:/labels', documentPrinter: 'folder:/labels' });
    const offers: FallbackOffer[] = [];
    const stopped: string[] = [];
    const watcher = new FallbackWatcher({
      pipeline,
      routing: () => alone,
      onOffer: (o) => offers.push(o),
      onStopped: (s) => stopped.push(`${s.printer}: ${s.advice}`),
      onMoved: () => {},
      onError: (e) => {
        throw e;
      },
    });
    await watcher.check();
    await watcher.check();
    expect(offers).toEqual([]);
    expect(stopped).toEqual(['folder:/labels: the disk is full']);
  });
});
