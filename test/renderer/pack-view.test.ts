// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { BookedView, DraftView, PackResult, RateView, RatesView, ShipmentView } from '../../src/shared/domain';
import { renderShipment } from '../../src/renderer/views/result-view';
import { context, fakeClient, settings, settle } from '../support/fake-agent-client';

const party = {
  name: 'Rita',
  contactName: null,
  addressLine: 'Drottninggatan 10',
  postalCode: '11151',
  city: 'Stockholm',
  countryCode: 'SE',
};
const DRAFT: ShipmentView = {
  id: 'shp_d',
  referenceId: 'DRAFT-1',
  status: 'PENDING',
  trackingId: null,
  carrierName: null,
  productName: null,
  sender: party,
  receiver: party,
  senderReference: null,
  receiverReference: null,
  availableDocuments: [],
  tracking: [],
};
const BOOKED: ShipmentView = {
  ...DRAFT,
  id: 'shp_b',
  referenceId: 'ORDER-B',
  status: 'BOOKED',
  trackingId: '00370000000000000042',
  availableDocuments: ['label'],
};

const draftView = (missing: DraftView['missing'] = []): DraftView => ({
  shipment: DRAFT,
  stage: 'draft',
  packages: [{ widthCm: 20, heightCm: 20, depthCm: 30, weightKg: null, quantity: 1, description: 'Mugs', favoritePackageId: null }],
  customs: null,
  missing,
  nonEu: false,
  privateReceiver: false,
  thirdPartyPayer: false,
});

const rate = (n: number, extra: Partial<RateView> = {}): RateView => ({
  token: `tok-${n}`,
  priceRank: n,
  carrier: 'c',
  carrierName: `Carrier ${n}`,
  productName: 'Parcel',
  price: `${n}00.00`,
  currency: 'SEK',
  receiverPays: false,
  daysMin: 1,
  daysMax: 2,
  pickupCutoff: '2026-11-24 16:00',
  needsServicePoint: false,
  requiredDocuments: [],
  thirdPartyPayerSupported: false,
  ownAgreementName: null,
  expiresAt: null,
  bookable: true,
  ...extra,
});
const RATES: RatesView = {
  shipmentId: 'shp_d',
  rates: [rate(1), rate(2, { price: null, receiverPays: true })],
  selected: 'tok-1',
  warnings: [],
  appliedRules: [],
  fetchedAt: '',
};

const ok = <T>(value: T): PackResult<T> => ({ ok: true, value });

afterEach(() => document.body.replaceChildren());

describe('pack view', () => {
  it('shows a draft as not booked, with what booking needs, and keeps typed values next to their errors', async () => {
    const client = fakeClient({
      listPrinters: async () => [],
      packDraft: async () => ok(draftView([{ field: 'packages[0].weight_kg', label: 'Weight of parcel 1', message: 'is missing' }])),
      packPresets: async () => [],
      packUpdate: async () => ({
        ok: false,
        problem: {
          code: 'SERVICE_UNPROCESSABLE',
          message: 'The shipment is not valid',
          requestId: 'req-422',
          fields: [{ field: 'packages[0].weight_kg', label: 'Weight of parcel 1', message: 'must be greater than 0' }],
        },
      }),
    });
    const ctx = context(client);
    ctx.setSettings(settings());
    const panel = renderShipment(DRAFT, ctx);
    document.body.append(panel.element);
    await settle();
    expect(document.querySelector('.badge.stage-draft')?.textContent).toBe('Not booked');
    expect(document.querySelector('[aria-label="Missing for booking"]')?.textContent).toContain('Weight (kg), parcel line 1: is missing');
    expect(document.querySelector('button.reprint')).toBeNull();

    panel.book();
    await settle();
    const weight = document.querySelector<HTMLInputElement>('[aria-label="Weight (kg), parcel line 1"]')!;
    expect(document.activeElement).toBe(weight);
    // The service's "missing" for this parcel is shown by its field as soon as the flow opens.
    expect(weight.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(weight.getAttribute('aria-describedby')!)?.textContent).toBe('is missing');
    weight.value = '0,0001';
    document.querySelector<HTMLFormElement>('form.pack-parcels')!.requestSubmit();
    await settle();
    await settle();
    expect(client.calls.find((c) => c.op === 'packUpdate')?.input).toMatchObject({
      shipmentId: 'shp_d',
      packages: [{ weightKg: '0,0001', widthCm: '20' }],
    });
    expect(weight.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(weight.getAttribute('aria-describedby')!)?.textContent).toBe('must be greater than 0');
    expect(weight.value).toBe('0,0001');
    expect(document.querySelector('.pack-problem')?.textContent).toContain('The shipment is not valid (request id req-422)');
  });

  it('moves the rate choice with arrow keys and books once on two quick Enters', async () => {
    let answer: (r: PackResult<BookedView>) => void = () => undefined;
    const client = fakeClient({
      listPrinters: async () => [],
      packDraft: async () => ok({ ...draftView(), packages: [{ ...draftView().packages[0]!, weightKg: 1.5 }] }),
      packPresets: async () => [],
      packRates: async () => ok(RATES),
      packBook: () => new Promise((resolve) => (answer = resolve)),
      lookup: async () => ({ kind: 'not_found', scanned: '', normalized: '', message: '' }),
    });
    const ctx = context(client);
    const notes: string[] = [];
    const panel = renderShipment(DRAFT, ctx, (note) => notes.push(note));
    document.body.append(panel.element);
    await settle();
    panel.book();
    await settle();
    await settle();
    const radios = Array.from(document.querySelectorAll<HTMLElement>('[role=radiogroup][aria-label=Rates] [role=radio]'));
    expect(radios.map((r) => r.getAttribute('aria-checked'))).toEqual(['true', 'false']);
    expect(radios[1]!.textContent).toContain('receiver pays');
    const group = document.querySelector<HTMLElement>('[role=radiogroup]')!;
    group.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    expect(radios.map((r) => r.getAttribute('aria-checked'))).toEqual(['false', 'true']);
    expect(radios[1]!.tabIndex).toBe(0);
    group.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    group.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await settle();
    expect(client.calls.filter((c) => c.op === 'packBook').map((c) => c.input)).toEqual([{ shipmentId: 'shp_d', token: 'tok-2' }]);
    answer(ok({ shipmentId: 'shp_d', trackingId: 'TRK-1', jobs: [], alreadyBooked: false, refreshedToken: false }));
    await settle();
    expect(notes).toEqual(['Booked DRAFT-1, tracking TRK-1: 0 documents sent to the printer.']);
  });

  it('cancels a booked shipment only after a confirmation naming it and its tracking id', async () => {
    const client = fakeClient({ listPrinters: async () => [], packCancel: async () => ok({ ...draftView(), stage: 'canceled' }) });
    const notes: string[] = [];
    const panel = renderShipment(BOOKED, context(client), (note) => notes.push(note));
    document.body.append(panel.element);
    const cancel = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Cancel shipment')!;
    cancel.click();
    const confirm = document.querySelector<HTMLElement>('[role=group][aria-label="Confirm cancel"]')!;
    expect(confirm.textContent).toContain('ORDER-B');
    expect(confirm.textContent).toContain('00370000000000000042');
    expect(client.calls.some((c) => c.op === 'packCancel')).toBe(false);
    Array.from(confirm.querySelectorAll('button'))
      .find((b) => b.textContent?.includes('Confirm'))!
      .click();
    await settle();
    expect(client.calls.filter((c) => c.op === 'packCancel').map((c) => c.input)).toEqual([{ shipmentId: 'shp_b' }]);
    expect(notes).toEqual(['Canceled ORDER-B: its label is void.']);
  });

  it('shows a canceled shipment without a reprint', () => {
    const panel = renderShipment({ ...BOOKED, status: 'CANCELED' }, context(fakeClient({ listPrinters: async () => [] })));
    document.body.append(panel.element);
    expect(document.querySelector('.badge.stage-canceled')?.textContent).toBe('Canceled');
    expect(document.querySelector('button.reprint')).toBeNull();
    expect(document.body.textContent).toContain('cannot be reprinted');
  });
});
