// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EndOfDayReport, ShipmentDocumentState } from '../../src/shared/domain';
import { refreshLanguage } from '../../src/renderer/i18n';
import { EndOfDayView } from '../../src/renderer/views/end-of-day-view';
import { shipmentDocumentsPanel } from '../../src/renderer/views/shipment-documents';
import { context, fakeClient, printer, settle, shipment as shipmentOf } from '../support/fake-agent-client';
import { sayLanguages } from '../support/languages';
import { endOfDayRow } from '../support/end-of-day';

afterEach(() => {
  vi.restoreAllMocks();
  refreshLanguage();
  document.body.replaceChildren();
});

// 09:14 in the station's time zone, whatever it is.
const AT = new Date(2026, 10, 24, 9, 14).toISOString();
const row = endOfDayRow;
const REPORT: EndOfDayReport = {
  day: '2026-11-24',
  generatedAt: AT,
  counts: { booked: 2, printed: 1, may_have_printed: 0, failed: 0, not_printed: 1, canceled: 0 },
  rows: [row({ state: 'printed', printedAt: AT, printer: 'cups:Zebra' }), row({ shipmentId: 'shp_2', reference: 'ORDER-2' })],
  manifests: { available: 2, printed: 1 },
  serviceError: { code: 'SERVICE_UNAVAILABLE', message: 'HTTP 503', requestId: 'req-9' },
};
const texts = (root: ParentNode, selector: string) => Array.from(root.querySelectorAll(selector), (e) => e.textContent);

describe('End of day in Swedish', () => {
  it('names the counts, columns, states and actions in Swedish', async () => {
    sayLanguages('sv-SE');
    const client = fakeClient({
      endOfDay: async () => REPORT,
      printMissing: async () => ({ queued: 1, retried: 1, waiting: 2, report: REPORT }),
    });
    const view = new EndOfDayView(context(client));
    document.body.append(view.element);
    view.show();
    await settle();
    const el = view.element;
    expect(el.querySelector('h2')?.textContent).toBe('Dagsavslut');
    expect(texts(el, '.eod-table th')).toEqual(['Referens', 'Transportör', 'Spårnings-id', 'Läge']);
    expect(texts(el, '.eod-counts li')).toEqual([
      '2 bokade',
      '1 utskriven',
      '0 kan ha skrivits ut',
      '0 misslyckades',
      '1 inte utskriven',
      '0 avbokade',
    ]);
    expect(texts(el, '.eod-row .eod-state')).toEqual(['utskriven', 'inte utskriven']);
    expect(el.querySelector('.eod-row .eod-detail')?.textContent).toMatch(/^ 09[.:]14 på /);
    expect(el.querySelector('.eod-warning [role=alert]')?.textContent).toBe(
      'Tjänstens lista kunde inte läsas; detta är bara stationens egna jobb: HTTP 503 (förfrågnings-id req-9)',
    );
    const buttons = texts(el, '.eod-actions button');
    expect(buttons).toEqual(['Skriv ut det som saknas (1)', 'Skriv ut manifest (1 av 2 utskrivet)', 'Ladda ner CSV']);
    el.querySelector<HTMLButtonElement>('.eod-actions button.primary')!.click();
    await settle();
    expect(el.querySelector('.inline-result')?.textContent).toBe(
      '1 etikett skickad till utskrift, 1 misslyckad etikett skickad igen, 2 skrivs redan ut eller är utskrivna.',
    );
  });
});

describe('End of day CSV download in the UI language', () => {
  async function download(tags: string[]): Promise<string> {
    sayLanguages(...tags);
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:eod';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const view = new EndOfDayView(context(fakeClient({ endOfDay: async () => REPORT })));
    document.body.append(view.element);
    view.show();
    await settle();
    const buttons = view.element.querySelectorAll<HTMLButtonElement>('.eod-actions button');
    buttons[buttons.length - 1]!.click();
    expect(blobs).toHaveLength(1);
    // ignoreBOM: keep the byte-order mark in the text (a decoder drops it by default).
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blobs[0]!.arrayBuffer());
  }

  it('downloads Swedish words laid out for a Swedish spreadsheet', async () => {
    const text = await download(['sv-SE']);
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(lines[0]).toBe('Referens;Transportör;Spårnings-id;Sändnings-id;Bokningstid;Läge;Utskriftstid;Skrivare;Detaljer;Känd av');
    expect(lines[1]).toBe('ORDER-1;PostNord;0037;shp_1;;utskriven;2026-11-24 09:14:00;cups:Zebra;;båda');
    expect(lines[2]).toBe('ORDER-2;PostNord;0037;shp_2;;inte utskriven;;;;båda');
  });

  it('keeps the documented English file in English', async () => {
    const text = await download(['en-GB']);
    expect(text.split('\r\n')[0]).toBe('reference,carrier,tracking_id,shipment_id,booked_at,state,printed_at,printer,detail,seen_by');
    expect(text.split('\r\n')[1]).toBe(`ORDER-1,PostNord,0037,shp_1,,printed,${AT},cups:Zebra,,both`);
  });
});

describe('documents of a scanned parcel in Swedish', () => {
  it('says the label printed, each document state and the print button in Swedish', async () => {
    sayLanguages('sv-SE');
    const shipment = shipmentOf({ availableDocuments: ['label', 'waybill'] });
    const states: ShipmentDocumentState[] = [
      { documentType: 'label', state: 'printed', detail: null, printedAt: AT, printer: 'cups:Zebra' },
      { documentType: 'waybill', state: 'not_printed', detail: null, printedAt: null, printer: null },
    ];
    const client = fakeClient({
      listPrinters: async () => [printer({ uri: 'cups:Zebra', name: 'Zebra bänk 2' })],
      shipmentDocuments: async () => states,
      printShipmentDocuments: async () => ({ queued: 1, retried: 0, waiting: 1, documents: states }),
    });
    const element = shipmentDocumentsPanel(shipment, context(client));
    document.body.append(element);
    await settle();
    await settle();
    expect(element.getAttribute('aria-label')).toBe('Paketets dokument');
    expect(element.querySelector('.printed-notice')?.textContent).toMatch(
      /^Etiketten skrevs ut 09[.:]14 på Zebra bänk 2\. Skriv ut igen \(Alt\+R\) skriver ut den en gång till\.$/,
    );
    expect(texts(element, '[aria-label="Dokument att skriva ut"] .eod-state')).toEqual(['utskriven', 'skrivs inte ut här']);
    const button = element.querySelector<HTMLButtonElement>('button.print-documents')!;
    expect(button.textContent).toBe('Skriv ut här (1)');
    button.click();
    await settle();
    expect(element.querySelector('.inline-result')?.textContent).toBe(
      '1 dokument skickat till utskrift, 1 skrivs redan ut eller är utskrivet.',
    );
  });
});
