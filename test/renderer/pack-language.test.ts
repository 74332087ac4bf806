// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DraftView, PackProblem, RateView, ShipmentView } from '../../src/shared/domain';
import { refreshLanguage } from '../../src/renderer/i18n';
import { packPanel } from '../../src/renderer/views/pack-panel';
import { ParcelsForm } from '../../src/renderer/views/pack-parcels';
import { voidPanel } from '../../src/renderer/views/pack-void';
import { packSettingsPanel } from '../../src/renderer/views/pack-settings';
import { RateList, documentPicker } from '../../src/renderer/views/pack-rates';
import { rateWords } from '../../src/renderer/words';
import { context, fakeClient, settle } from '../support/fake-agent-client';
import { sayLanguages } from '../support/languages';

afterEach(() => {
  vi.restoreAllMocks();
  refreshLanguage();
  document.body.replaceChildren();
});

const party = { name: null, contactName: null, addressLine: null, postalCode: null, city: null, countryCode: null };
const BOOKED: ShipmentView = {
  id: 'shp_b',
  referenceId: 'ORDER-B',
  status: 'BOOKED',
  trackingId: '0037',
  carrierName: 'PostNord',
  productName: null,
  sender: party,
  receiver: party,
  senderReference: null,
  receiverReference: null,
  availableDocuments: ['label'],
  tracking: [],
};

describe('cancel a shipment in Swedish', () => {
  it('asks, names the shipment and says a refusal with its request id in Swedish', async () => {
    sayLanguages('sv-SE');
    const problem: PackProblem = { code: 'CANCEL_REFUSED', message: 'Already picked up', requestId: 'req-7', fields: [] };
    const client = fakeClient({ packCancel: async () => ({ ok: false, problem }) });
    const element = voidPanel(BOOKED, context(client), () => undefined);
    document.body.append(element);
    expect(element.getAttribute('aria-label')).toBe('Avboka sändning');
    const cancel = element.querySelector<HTMLButtonElement>('button.danger')!;
    expect(cancel.textContent).toBe('Avboka sändning');
    cancel.click();
    const confirm = element.querySelector<HTMLElement>('[role=group][aria-label="Bekräfta avbokning"]')!;
    expect(confirm.querySelector('p')?.textContent).toBe(
      'Avboka sändning ORDER-B (spårning 0037)? Etiketten blir ogiltig och kan inte skrivas ut igen.',
    );
    expect(Array.from(confirm.querySelectorAll('button'), (b) => b.textContent)).toEqual(['Bekräfta avbokning', 'Behåll den']);
    confirm.querySelector<HTMLButtonElement>('button.danger')!.click();
    await settle();
    expect(element.querySelector('.pack-status')?.textContent).toBe('Avbokningen misslyckades: Already picked up (förfrågnings-id req-7)');
  });
});

describe('packing settings in Swedish', () => {
  it('names pickup, rules and save in Swedish, and says what was saved', async () => {
    sayLanguages('sv-SE');
    const client = fakeClient({
      getPackSettings: async () => ({ pickup: 'next', pickupTime: '15:00', shippingRuleIds: [] }) as never,
      listShippingRules: async () => [{ id: 'r1', name: 'Billigast', type: 'price', enabled: false }],
      savePackSettings: async () => ({ pickup: 'without', pickupTime: '15:00', shippingRuleIds: ['r1'] }) as never,
    });
    const panel = packSettingsPanel(context(client));
    document.body.append(panel.element);
    await panel.load();
    const el = panel.element;
    expect(el.querySelector('h2')?.textContent).toBe('Packning (boka vid den här stationen)');
    expect(Array.from(el.querySelectorAll('legend'), (l) => l.textContent)).toEqual([
      'Upphämtning',
      'Fraktregler (inga valda: teamets aktiva regler)',
    ]);
    expect(Array.from(el.querySelectorAll('label.choice'), (l) => l.textContent)).toEqual([
      ' Nästa upphämtning vid angiven tid',
      ' Ingen upphämtning (lämnas hos transportören)',
      ' Billigast (price, inaktiv)',
      ' Boka när vikten är stabil',
    ]);
    // Settings' one Save saves the packing settings when they were changed.
    expect(panel.changed).toBe(false);
    el.querySelector<HTMLInputElement>('input[value=without]')!.click();
    expect(panel.changed).toBe(true);
    expect(await panel.save()).toBe(true);
    expect(panel.changed).toBe(false);
    expect(el.querySelector('.save-result [role=status]')?.textContent).toBe(
      'Packning sparad: ingen upphämtning (lämnas hos transportören), 1 regel.',
    );
  });
});

describe('a rate in Swedish', () => {
  const RATE: RateView = {
    token: 'tok',
    priceRank: 1,
    carrier: 'pn',
    carrierName: 'PostNord',
    productName: 'MyPack',
    price: null,
    currency: null,
    receiverPays: true,
    daysMin: 1,
    daysMax: 3,
    pickupCutoff: '2026-11-24 16:00',
    needsServicePoint: true,
    requiredDocuments: ['customsinvoice'],
    thirdPartyPayerSupported: false,
    ownAgreementName: null,
    expiresAt: null,
    bookable: false,
  };

  it('says price, days, pickup and what the rate needs in Swedish', () => {
    sayLanguages('sv-SE');
    expect(rateWords(RATE)).toEqual({
      title: 'PostNord MyPack',
      price: 'mottagaren betalar',
      details:
        '1–3 dagar · sista upphämtning 24 nov. 2026 16:00 · kräver ett utlämningsställe · kräver uppladdning av tullfaktura · ingen tredje part som betalar tull',
    });
    expect(rateWords({ ...RATE, daysMax: 1, pickupCutoff: null, receiverPays: false, price: '99', currency: 'SEK' }).details).toMatch(
      /^1 dag · ingen upphämtning/,
    );
    // Money as Swedish writes it, with a decimal comma like the weights.
    expect(rateWords({ ...RATE, receiverPays: false, price: '1234.5', currency: 'SEK' }).price.replaceAll(/[\u00a0\u202f]/g, ' ')).toBe(
      '1 234,50 kr',
    );
  });
});

describe('rates and uploads in Swedish', () => {
  it('names the list, excluded products and applied rules in Swedish', () => {
    sayLanguages('sv-SE');
    const list = new RateList(
      () => undefined,
      () => undefined,
    );
    document.body.append(list.element);
    list.show({
      shipmentId: 'shp',
      rates: [],
      selected: null,
      warnings: [{ carrierName: 'DHL', product: 'Paket', messages: ['too heavy'] }],
      appliedRules: ['Billigast'],
      fetchedAt: '',
    });
    expect(list.element.getAttribute('aria-label')).toBe('Priser');
    expect(list.element.querySelector('[role=radiogroup] li')?.textContent).toBe('Inga priser: se de uteslutna produkterna nedan.');
    expect(list.element.querySelector('summary')?.textContent).toBe('1 produkt utesluten');
    expect(list.element.querySelector('p.muted')?.textContent).toBe('Tillämpade fraktregler: Billigast');
  });

  it('refuses a file that is not a PDF in Swedish', async () => {
    sayLanguages('sv-SE');
    const refused: string[] = [];
    const zone = documentPicker(
      'customsinvoice',
      () => undefined,
      (message) => refused.push(message),
    );
    document.body.append(zone);
    expect(zone.querySelector('.drop-title')?.textContent).toBe('Ladda upp tullfaktura');
    expect(zone.querySelector('.file-info')?.textContent).toBe('Släpp en PDF här eller välj en');
    const input = zone.querySelector<HTMLInputElement>('input[type=file]')!;
    Object.defineProperty(input, 'files', { value: [new File(['x'], 'faktura.txt', { type: 'text/plain' })] });
    input.dispatchEvent(new Event('change'));
    await settle();
    expect(refused).toEqual(['”faktura.txt” är ingen PDF: bara PDF-filer kan laddas upp.']);
  });
});

const DRAFT: DraftView = {
  shipment: { ...BOOKED, id: 'shp_d', referenceId: 'ORDER-D', status: 'PENDING', trackingId: null, availableDocuments: [] },
  stage: 'draft',
  packages: [{ widthCm: 20, heightCm: 20, depthCm: 30.5, weightKg: 1.5, quantity: 2, description: null, favoritePackageId: null }],
  customs: null,
  missing: [{ field: 'receiver.city', label: 'Mottagarens ort', message: 'saknas' }],
  nonEu: false,
  privateReceiver: false,
  thirdPartyPayer: false,
};

describe('the parcels form in Swedish', () => {
  it('names every field with its parcel line, the box choice and the buttons in Swedish', () => {
    sayLanguages('sv-SE');
    const form = new ParcelsForm(DRAFT.packages, () => undefined);
    form.setPresets([{ id: 'b1', name: 'Liten', widthCm: 10, heightCm: 20, depthCm: 2.5, weightKg: 0.2, dangerousGoods: null }]);
    document.body.append(form.element);
    const el = form.element;
    expect(el.getAttribute('aria-label')).toBe('Kollin');
    expect(el.querySelector('legend')?.textContent).toBe('Kollirad 1');
    expect(Array.from(el.querySelectorAll('input'), (i) => i.getAttribute('aria-label'))).toEqual([
      'Bredd (cm), kollirad 1',
      'Höjd (cm), kollirad 1',
      'Längd (cm), kollirad 1',
      'Vikt (kg), kollirad 1',
      'Antal kollin, kollirad 1',
    ]);
    const box = el.querySelector('select')!;
    expect(box.getAttribute('aria-label')).toBe('Kartong, kollirad 1');
    expect(Array.from(box.options, (o) => o.textContent)).toEqual(['Eget mått', 'Liten (10×20×2,5 cm)']);
    expect(Array.from(el.querySelectorAll('button'), (b) => b.textContent)).toEqual([
      'Spara kollin och hämta priser',
      'Lägg till kollirad',
    ]);
    el.querySelector<HTMLButtonElement>('button.link')!.click();
    expect(el.querySelectorAll('legend')[1]?.textContent).toBe('Kollirad 2');
  });
});

describe('the booking panel in Swedish', () => {
  it('says what the shipment holds and lacks, opens the flow and shows a refusal with its request id in Swedish', async () => {
    sayLanguages('sv-SE');
    const refusal: PackProblem = { code: 'VALIDATION', message: 'Ogiltig vikt', requestId: 'req-9', fields: [] };
    const client = fakeClient({
      packDraft: async () => ({ ok: true, value: DRAFT }),
      packPresets: async () => [],
      packUpdate: async () => ({ ok: false, problem: refusal }),
    });
    const panel = packPanel(DRAFT.shipment, context(client), () => undefined);
    document.body.append(panel.element);
    await settle();
    const el = panel.element;
    expect(el.querySelector('h3')?.textContent).toBe('Inte bokad: gör klart den här');
    expect(el.querySelector('button.primary')?.textContent).toBe('Boka sändning…');
    expect(Array.from(el.querySelectorAll('dt'), (d) => d.textContent)).toEqual(['Avsändare', 'Kollin', 'Referenser', 'Tull']);
    expect(el.querySelectorAll('dd')[1]?.textContent).toBe('2 × 20×20×30,5 cm, 1,5 kg');
    expect(el.querySelector('ul')?.getAttribute('aria-label')).toBe('Saknas för bokning');
    expect(el.querySelector('.missing p')?.textContent).toBe('Saknas för bokning:');

    panel.open();
    await settle();
    expect(el.querySelector('form')?.getAttribute('aria-label')).toBe('Kollin');
    expect(el.querySelector('button.book')?.textContent).toBe('Boka och skriv ut');
    expect(Array.from(el.querySelectorAll('.pack-notes input'), (i) => i.getAttribute('aria-label'))).toEqual([
      'Upphämtningsinstruktioner till föraren',
      'Leveransinstruktioner till föraren',
    ]);
    el.querySelector<HTMLButtonElement>('form button[type=submit]')!.click();
    await settle();
    expect(el.querySelector('.pack-problem p.fail')?.textContent).toBe('Ogiltig vikt (förfrågans id req-9)');
  });
});

describe('customs items in the booking panel', () => {
  const withCustoms = (): DraftView => ({
    ...DRAFT,
    customs: {
      currency: 'SEK',
      invoiceNumber: null,
      termsOfSale: null,
      items: [
        { description: 'T-shirt', quantity: 3, unitWeightKg: 0.25, unitValue: 1234.5, hsCode: null, countryOfOrigin: null },
        { description: null, quantity: null, unitWeightKg: null, unitValue: null, hsCode: null, countryOfOrigin: null },
      ],
    },
  });
  const customsLine = async (): Promise<string> => {
    const client = fakeClient({ packDraft: async () => ({ ok: true, value: withCustoms() }), packPresets: async () => [] });
    const panel = packPanel(DRAFT.shipment, context(client), () => undefined);
    document.body.append(panel.element);
    await settle();
    // Intl separates digit groups and the unit with no-break spaces: read them as spaces.
    return (panel.element.querySelectorAll('dd')[3]?.textContent ?? '').replaceAll(/[\u00a0\u202f]/g, ' ');
  };

  it('gives the item weight and value in the UI language’s digits, like the parcels’ weights', async () => {
    sayLanguages('sv-SE');
    expect(await customsLine()).toBe('3 × T-shirt, 0,25 kg, 1 234,5 SEK; ? × artikel, ? kg, ? SEK');
    document.body.replaceChildren();
    sayLanguages('en-GB');
    expect(await customsLine()).toBe('3 × T-shirt, 0.25 kg, 1,234.5 SEK; ? × item, ? kg, ? SEK');
  });
});
