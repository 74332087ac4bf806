// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshLanguage } from '../../src/renderer/i18n';
import { renderShipment } from '../../src/renderer/views/result-view';
import { ScanView } from '../../src/renderer/views/scan-view';
import { context, fakeClient, NO_PARTY, settings, settle, shipment } from '../support/fake-agent-client';
import { sayLanguages } from '../support/languages';

const SHIPMENT = shipment({
  trackingId: '00370000000000000001',
  productName: 'Parcel',
  receiver: { ...NO_PARTY, name: 'Anna Berg', city: 'Malmö', countryCode: 'SE' },
  availableDocuments: ['label', 'customsinvoice', 'abd'],
  tracking: [
    { id: '1', status: 'ORDERED', description: null, location: null, occurredAt: '2026-11-24T06:00:00Z', url: null },
    { id: '2', status: 'IN_TRANSIT', description: 'Sorted', location: 'Malmö', occurredAt: '2026-11-24T08:00:00Z', url: null },
  ],
});

afterEach(() => {
  vi.restoreAllMocks();
  refreshLanguage();
  document.body.replaceChildren();
});

describe('result view', () => {
  it('offers Cancel shipment before pickup, and only a note once the carrier has it', () => {
    const ctx = context(fakeClient({ listPrinters: async () => [] }));
    ctx.setSettings(settings());
    const waiting = shipment({ ...SHIPMENT, status: 'BOOKED', tracking: [SHIPMENT.tracking[0]!] });
    document.body.append(renderShipment(waiting, ctx).element);
    expect(document.querySelector('.void-panel button')?.textContent).toBe('Cancel shipment');
    document.body.replaceChildren();
    for (const travelling of [SHIPMENT, shipment({ ...SHIPMENT, status: 'DELIVERED', tracking: [] })]) {
      document.body.append(renderShipment(travelling, ctx).element);
      expect(document.querySelector('.void-panel')).toBeNull();
      expect(document.body.textContent).toContain('With the carrier: it can no longer be canceled here');
      document.body.replaceChildren();
    }
  });

  it('shows the documents in words and reprints the one chosen', async () => {
    const client = fakeClient({ listPrinters: async () => [], reprint: async () => [] });
    const ctx = context(client);
    ctx.setSettings(settings());
    const panel = renderShipment(SHIPMENT, ctx);
    document.body.append(panel.element);
    const chips = Array.from(document.querySelectorAll('[aria-label="Documents available"] li')).map((li) => li.textContent);
    expect(chips).toEqual(['Label', 'Customs invoice', 'Export accompanying document']);
    const select = document.querySelector<HTMLSelectElement>('#reprint-document')!;
    expect(Array.from(select.options).map((o) => [o.value, o.textContent])).toEqual([
      ['label', 'Label'],
      ['customsinvoice', 'Customs invoice'],
      ['abd', 'Export accompanying document'],
    ]);
    const button = document.querySelector<HTMLButtonElement>('button.reprint')!;
    expect(button.textContent).toBe('Reprint label');
    select.value = 'customsinvoice';
    select.dispatchEvent(new Event('change'));
    expect(button.textContent).toBe('Reprint customs invoice');
    button.click();
    await settle();
    expect(client.calls.find((c) => c.op === 'reprint')?.input).toMatchObject({ shipmentId: 'shp_1', documentType: 'customsinvoice' });
    expect(document.body.textContent).not.toMatch(/customsinvoice|\babd\b/);
    // The timeline, newest first, as the list CONTRACTS names: each event's status code is in
    // its text (for assistive technology and the contract) and its tooltip, never shown beside the words.
    const items = Array.from(document.querySelectorAll('[aria-label="Tracking events"] li'));
    expect(items.map((li) => li.querySelector('.event-head')?.getAttribute('title'))).toEqual(['IN_TRANSIT', 'ORDERED']);
    expect(items.map((li) => li.textContent)).toEqual([expect.stringContaining('IN_TRANSIT'), expect.stringContaining('ORDERED')]);
    expect(items.every((li) => li.querySelector('.event-status')?.classList.contains('visually-hidden'))).toBe(true);
    panel.dispose();
  });

  it('a scan that matches nothing is an alert saying what was scanned', async () => {
    const client = fakeClient({
      lookup: async ({ scan }) => ({ kind: 'not_found', scanned: scan, normalized: scan, message: `Nothing found for “${scan}”` }),
    });
    const view = new ScanView(context(client));
    document.body.append(view.element);
    expect(document.querySelector(`label[for="${view.input.id}"]`)?.textContent).toContain('Scan');
    await view.lookup('XYZ');
    expect(document.querySelector('[role=alert]')?.textContent).toBe('Nothing found for “XYZ”');
  });
});

describe('result view in Swedish', () => {
  const text = (selector: string) => Array.from(document.querySelectorAll(selector), (e) => e.textContent);

  it('says the shipment, its tracking and the reprint in Swedish, keeping the status codes', async () => {
    sayLanguages('sv-SE');
    const ctx = context(
      fakeClient({ listPrinters: async () => [{ uri: 'cups://Zebra', name: 'Zebra', ready: false } as never], reprint: async () => [] }),
    );
    ctx.setSettings(settings());
    document.body.append(renderShipment(SHIPMENT, ctx).element);
    await settle();
    expect(document.querySelector('.shipment')?.getAttribute('aria-label')).toBe('Sändning ORDER-1');
    expect(document.querySelector('.badge')?.textContent).toBe('Bokad');
    expect(text('.summary dt')).toEqual([
      'Mottagare',
      'Transportör',
      'Spårningsnummer',
      'Referens',
      'Avsändarens referens',
      'Mottagarens referens',
      'Sändnings-id',
    ]);
    expect(document.querySelector('#timeline-title')?.textContent).toBe('Spårning');
    const events = document.querySelector('ol[aria-label="Spårningshändelser"]')!;
    expect(Array.from(events.querySelectorAll('.event-words'), (e) => e.textContent)).toEqual([
      'Under transport',
      'Bokad, väntar på transportören',
    ]);
    expect(Array.from(events.querySelectorAll('.event-head'), (e) => e.getAttribute('title'))).toEqual(['IN_TRANSIT', 'ORDERED']);
    expect(document.querySelector('#reprint-title')?.textContent).toBe('Skriv ut igen');
    expect(document.querySelector('button.reprint')?.textContent).toBe('Skriv ut etikett igen');
    expect(document.querySelector('#reprint-document')?.getAttribute('aria-label')).toBe('Dokument att skriva ut igen');
    expect(text('#reprint-printer option')).toEqual(['Enligt routing (CUPS Labels)', 'Zebra (inte redo)']);
  });

  it('has no tracking yet and a canceled shipment in Swedish', () => {
    sayLanguages('sv-SE');
    const ctx = context(fakeClient({ listPrinters: async () => [] }));
    const canceled = { ...SHIPMENT, status: 'CANCELED', tracking: [] };
    document.body.append(renderShipment(canceled, ctx).element);
    expect(document.querySelector('.canceled-note')?.textContent).toBe('Avbokad: etiketten är ogiltig och kan inte skrivas ut igen.');
    expect(document.querySelector('.timeline p')?.textContent).toBe('Inga spårningshändelser än.');
  });

  it('offers "Print" for a document that never went to a printer, and "Reprint" for one that did', async () => {
    const client = fakeClient({
      listPrinters: async () => [],
      shipmentDocuments: async () => [
        { documentType: 'label', state: 'printed', detail: null, printedAt: '2026-11-24T09:14:00Z', printer: 'cups:Labels' },
        { documentType: 'customsinvoice', state: 'not_printed', detail: null, printedAt: null, printer: null },
        { documentType: 'abd', state: 'not_printed', detail: 'waiting in the queue', printedAt: null, printer: null },
      ],
    });
    const ctx = context(client);
    ctx.setSettings(settings());
    document.body.append(renderShipment({ ...SHIPMENT, status: 'BOOKED' }, ctx).element);
    await settle();
    const button = document.querySelector<HTMLButtonElement>('button.reprint')!;
    const select = document.querySelector<HTMLSelectElement>('#reprint-document')!;
    expect(button.textContent).toBe('Reprint label');
    select.value = 'customsinvoice';
    select.dispatchEvent(new Event('change'));
    expect(button.textContent).toBe('Print customs invoice');
    // In line to print: it goes to a printer anyway, so pressing again is a reprint.
    select.value = 'abd';
    select.dispatchEvent(new Event('change'));
    expect(button.textContent).toBe('Reprint export accompanying document');
  });

  it('shows one badge for a draft: "Not booked", not the service\'s PENDING beside it', () => {
    const ctx = context(
      fakeClient({
        listPrinters: async () => [],
        packDraft: async () => ({ ok: false, problem: { code: 'X', message: 'x', requestId: null, fields: [] } }),
      }),
    );
    document.body.append(
      renderShipment(shipment({ ...SHIPMENT, status: 'PENDING', trackingId: null, availableDocuments: [] }), ctx).element,
    );
    expect(Array.from(document.querySelectorAll('.shipment-head .badge'), (b) => b.textContent)).toEqual(['Not booked']);
  });
});
