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
    // The timeline, newest first, as the list CONTRACTS names.
    const events = Array.from(document.querySelectorAll('[aria-label="Tracking events"] li .event-status')).map((e) => e.textContent);
    expect(events).toEqual(['IN_TRANSIT', 'ORDERED']);
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
    expect(Array.from(events.querySelectorAll('.event-status'), (e) => e.textContent)).toEqual(['IN_TRANSIT', 'ORDERED']);
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
});
