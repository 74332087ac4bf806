import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CarrierCache } from '../../../src/main/agent/carrier-cache';
import { Ledger } from '../../../src/main/ledger/ledger';
import { PrintPipeline } from '../../../src/main/jobs/pipeline';
import { findPrinter, mediaOn, routeFor } from '../../../src/main/printing/routing';
import { routingSchema } from '../../../src/shared/domain';
import { MemoryTarget, ScriptedFetcher, notice, tempDir } from '../../support/jobs/fakes';

const routing = routingSchema.parse({
  labelPrinter: 'mem:zebra1',
  documentPrinter: 'mem:office',
  printers: [
    { name: 'Zebra bench 1', uri: 'mem:zebra1', media: '4x6in' },
    { name: 'Zebra bench 2', uri: 'mem:zebra2', media: '100x150mm' },
    { name: 'Office', uri: 'mem:office', media: 'a4' },
    { name: 'Letter sheets', uri: 'mem:sheets', media: 'letter', layout: '3x1' },
  ],
  rules: [
    { carriers: ['DHL Express'], documentTypes: ['label'], printer: 'Zebra bench 2' },
    { carriers: ['bring'], documentTypes: ['label'], printer: 'Letter sheets' },
  ],
});

describe('PrintPipeline routed by carrier', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  let targets: Map<string, MemoryTarget>;
  let pipeline: PrintPipeline;
  let fetcher: ScriptedFetcher;

  beforeEach(async () => {
    tmp = tempDir();
    ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite') });
    targets = new Map(['mem:zebra1', 'mem:zebra2', 'mem:office', 'mem:sheets'].map((uri) => [uri, new MemoryTarget(uri)]));
    const carriers = new CarrierCache({
      source: () => ({
        carriers: async () => ({
          carriers: [
            { carrier: 'dhl', name: 'DHL Express' },
            { carrier: 'bring', name: 'Bring' },
          ],
        }),
      }),
    });
    await carriers.refresh();
    fetcher = new ScriptedFetcher();
    pipeline = new PrintPipeline({
      ledger,
      fetcher,
      targetFor: (uri) => targets.get(uri)!,
      route: (type, carrier) => routeFor(routing, type, carrier, carriers.key),
      mediaFor: (target, layout) => mediaOn(findPrinter(routing, target), layout),
      autoPrintTypes: () => ['label', 'waybill'],
      followIntervalMs: 10,
      reconcileSettleMs: 0,
    });
    await pipeline.start();
  });
  afterEach(async () => {
    await pipeline.stop();
    ledger.close();
    tmp.cleanup();
  });

  it('sends a carrier code from a webhook and the carrier name from a poll to the rule printer, with its layout and media', async () => {
    pipeline.submitBooking(notice('s-code', 'webhook', { carrier: 'dhl' }));
    pipeline.submitBooking(notice('s-name', 'poll', { carrier: 'DHL Express' }));
    pipeline.submitBooking(notice('s-bring', 'webhook', { carrier: 'bring' }));
    pipeline.submitBooking(notice('s-other', 'poll', { carrier: 'PostNord' }));
    await pipeline.idle();
    const at = (uri: string) => targets.get(uri)!.spooled.map((s) => [s.shipmentId, s.documentType, s.layout, s.media]);
    expect(at('mem:zebra2')).toEqual([
      ['s-code', 'label', 'printer', '100x150mm'],
      ['s-name', 'label', 'printer', '100x150mm'],
    ]);
    expect(at('mem:sheets')).toEqual([['s-bring', 'label', '3x1', 'letter']]);
    expect(at('mem:zebra1')).toEqual([['s-other', 'label', 'printer', 'label']]);
    expect(
      at('mem:office')
        .map(([id, type, layout, media]) => `${id} ${type} ${layout} ${media}`)
        .sort(),
    ).toEqual(['s-bring', 's-code', 's-name', 's-other'].map((id) => `${id} waybill a4 a4`));
    // The PDF is asked for in the layout the printer's media takes.
    const labelLayouts = fetcher.calls
      .filter((c) => c.document_type === 'label')
      .map((c) => `${c.shipment_ids[0]} ${c.label_layout}`)
      .sort();
    expect(labelLayouts).toEqual(['s-bring 3x1', 's-code printer', 's-name printer', 's-other printer']);
  });
});
