import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  renderTestPage,
  routeTestPagesAsLabels,
  TEST_PAGE_SHIPMENT,
  TEST_PAGE_TYPE,
  testPageLayout,
  withTestPages,
} from '../../../src/main/agent/test-page';
import { servicePdfFetcher } from '../../../src/main/api/service-pdf-fetcher';
import { liveRouting } from '../../../src/main/printing/routing';
import type { Routing } from '../../../src/shared/domain';
import { useHarness } from '../../support/contract-harness';
import { useTempDir } from '../../support/testbed';

const dir = useTempDir('ps-test-page-');

/** The page's text as poppler reads it (what a person sees printed). */
async function textOf(pdf: Uint8Array): Promise<string> {
  const file = join(dir.path, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('test page', () => {
  it('names the media and layout of a label printer and carries a millimetre ruler across the label', async () => {
    const text = await textOf(await renderTestPage('printer', 'cups:Zebra', new Date('2026-11-24T09:14:00Z')));
    expect(text).toContain('Media: 4x6 in label (101.6 x 152.4 mm)');
    expect(text).toContain('Layout: printer');
    expect(text).toContain('Printer: cups:Zebra');
    expect(text).toContain('every tick 1 mm');
    // 4x6 in is 101.6 mm wide: inside the border the ruler reaches 80 mm, not 90.
    const numbers = text.match(/(?<![\d.])\d{1,3}(?![\d.])/g) ?? [];
    for (const mark of ['0', '10', '20', '50', '80']) expect(numbers).toContain(mark);
    expect(numbers).not.toContain('90');
  });

  it('names A4 and reaches 190 mm across an A4 page', async () => {
    const text = await textOf(await renderTestPage('a4', 'cups:Office', new Date('2026-11-24T09:14:00Z')));
    expect(text).toContain('Media: A4 sheet (210 x 297 mm)');
    expect(text).toContain('Layout: a4');
    const numbers = text.match(/(?<![\d.])\d{1,3}(?![\d.])/g) ?? [];
    expect(numbers).toContain('190');
    expect(numbers).not.toContain('200');
  });
});

describe('test page layout on a printer', () => {
  const label = 'cups:Zebra';
  const office = 'cups:Office';

  it('is A4 on the document printer given by URI alone, and a 4x6 label on the label printer', () => {
    const routing = { labelPrinter: label, documentPrinter: office } as Routing;
    expect(testPageLayout(routing, office)).toBe('a4');
    expect(testPageLayout(routing, label)).toBe('printer');
  });

  it('follows a listed printer own media: sheets print their layout, label stock a 4x6 label', () => {
    const routing = {
      labelPrinter: 'Zebra',
      documentPrinter: 'Office',
      printers: [
        { name: 'Zebra', uri: label, media: 'label' },
        { name: 'Office', uri: office, media: 'a4', layout: '1x2' },
      ],
    } as Routing;
    expect(testPageLayout(routing, office)).toBe('1x2');
    expect(testPageLayout(routing, 'Zebra')).toBe('printer');
  });

  it('stays a label on one printer that prints labels and documents alike', () => {
    const routing = { labelPrinter: label, documentPrinter: label } as Routing;
    expect(testPageLayout(routing, label)).toBe('printer');
  });
});

describe('test pages in the jobs', () => {
  const harness = useHarness();
  const routing = { labelPrinter: 'cups:Zebra', documentPrinter: 'cups:Office', autoPrint: ['label'], copies: 1 } as Routing;
  const fetcher = () => withTestPages(servicePdfFetcher({ printing: () => harness.client, client: () => harness.client }), () => routing);

  it('renders a test page here, naming the label printer, and fetches everything else from the service', async () => {
    const page = await fetcher().printFile({ shipment_ids: [TEST_PAGE_SHIPMENT], document_type: TEST_PAGE_TYPE, label_layout: 'printer' });
    expect(page.requestId).toBeNull();
    expect(await textOf(page.pdf)).toContain('Printer: cups:Zebra');
    const booked = await harness.sandbox.bookShipment({ reference_id: 'TEST-PAGE-NEIGHBOUR' });
    const label = await fetcher().printFile({ shipment_ids: [booked.shipmentId], document_type: 'label', label_layout: 'printer' });
    expect(await textOf(label.pdf)).not.toContain('Test page');
  });

  it('asks the service about the shipments beside a test page, never about the test page itself', async () => {
    // The sandbox answers 404 for the test page's shipment id: asking would fail the check.
    expect(await fetcher().canceledAmong!([TEST_PAGE_SHIPMENT], new Date())).toEqual({ canceled: [], requestId: null });
    const booked = await harness.sandbox.bookShipment({ reference_id: 'TEST-PAGE-CANCELED' });
    harness.sandbox.cancelShipment(booked.shipmentId);
    expect((await fetcher().canceledAmong!([TEST_PAGE_SHIPMENT, booked.shipmentId], new Date())).canceled).toEqual([booked.shipmentId]);
  });

  it('routes a test page as a label', () => {
    const route = routeTestPagesAsLabels(liveRouting(() => routing).route);
    expect(route(TEST_PAGE_TYPE)).toEqual(route('label'));
    expect(route(TEST_PAGE_TYPE).target).toBe('cups:Zebra');
  });
});
