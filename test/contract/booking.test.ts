import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import {
  apiError,
  BOX,
  COMPLETE_CUSTOMS,
  createAndBook,
  createAndRate,
  domestic,
  NO_RECEIVER,
  PICKUP,
  SE_RECEIVER,
  useHarness,
  UNKNOWN_ID,
} from '../support/contract-harness';

let clockOffsetMs = 0;
// A clock the test can move forward, to watch booking tokens expire.
const h = useHarness({ now: () => new Date(Date.now() + clockOffsetMs) });

const PAYER = { account_number: 'ACC-77', postal_code: '0150', country_code: 'NO' };

async function pdf(name: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(name);
  doc.addPage();
  return doc.save();
}

describe('book', () => {
  it('returns {shipment_id, main_tracking_id}; the shipment then shows carrier, product, tracking id and documents', async () => {
    const { id, rates } = await createAndRate(h.client, domestic({ reference_id: 'BOOK-1' }));
    const rate = rates[0]!;
    const booked = await h.client.book({
      booking_token: rate.booking_token,
      pickup_instructions: 'Door code 1234',
      delivery_instructions: 'Leave at reception',
    });
    expect(booked.shipment_id).toBe(id);
    expect(booked.main_tracking_id).toMatch(/\S/);
    const stored = await h.client.getShipment(id);
    expect(stored.status).toBe('BOOKED');
    expect(stored.carrier_name).toBe(rate.carrier_name);
    expect(stored.product_name).toBe(rate.product_name);
    expect(stored.tracking_id).toBe(booked.main_tracking_id);
    expect(stored.available_documents_types).toContain('label');
    expect(stored.tracking_status?.status).toBe('ORDERED');
  });

  it('tracking: one ORDERED event dated to the booking', async () => {
    const { id } = await createAndBook(h.client);
    const stored = await h.client.getShipment(id);
    const events = await h.client.tracking(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.status).toBe('ORDERED');
    expect(Date.parse(events[0]!.created_at)).toBeCloseTo(Date.parse(stored.booked_at!), -3);
  });

  it('tracking of an unknown shipment → 404', async () => {
    expect((await apiError(h.client.tracking(UNKNOWN_ID))).status).toBe(404);
  });

  it('an unknown token is refused, and a token cannot book twice', async () => {
    const unknown = await apiError(h.client.book({ booking_token: 'no-such-token' }));
    expect(unknown.status).toBe(422);
    const { rate } = await createAndBook(h.client);
    const again = await apiError(h.client.book({ booking_token: rate.booking_token }));
    expect(again.status).toBeGreaterThanOrEqual(400);
  });

  it('a token expires 30 minutes after issue', async () => {
    const { rates } = await createAndRate(h.client);
    clockOffsetMs = 31 * 60_000;
    try {
      const error = await apiError(h.client.book({ booking_token: rates[0]!.booking_token }));
      expect([error.status, error.code]).toEqual([422, 'SERVICE_UNPROCESSABLE']);
      expect(error.serviceMessage).toMatch(/expired/i);
    } finally {
      clockOffsetMs = 0;
    }
    // 29 minutes is still fine.
    const fresh = await createAndRate(h.client);
    clockOffsetMs = 29 * 60_000;
    try {
      await expect(h.client.book({ booking_token: fresh.rates[0]!.booking_token })).resolves.toHaveProperty('shipment_id', fresh.id);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('service point flow', () => {
  it('a service-point rate needs delivery_service_point_token from POST /locations/servicepoints', async () => {
    const to = { ...SE_RECEIVER, is_private_individual: true };
    const { id, rates } = await createAndRate(h.client, domestic({ to }), { include_service_point_rates: true });
    const rate = rates.find((r) => r.require_delivery_service_point)!;
    const missing = await apiError(h.client.book({ booking_token: rate.booking_token }));
    expect(missing.status).toBe(422);

    const { locations } = await h.client.servicePoints({
      address_line: to.address.address_line_1,
      postal_code: to.address.postal_code,
      city: to.address.city,
      country_code: 'SE',
    });
    const point = locations.find((l) => l.carrier === rate.carrier)!;
    expect(point.service_point_token).toMatch(/\S/);
    const booked = await h.client.book({ booking_token: rate.booking_token, delivery_service_point_token: point.service_point_token });
    expect(booked.shipment_id).toBe(id);
  });
});

describe('required documents', () => {
  it('must be uploaded (multipart, one `file` part, 204) before booking', async () => {
    const { id, rates } = await createAndRate(h.client, domestic({ to: NO_RECEIVER }), { included_non_eu_rates: true });
    const rate = rates.find((r) => r.required_documents.length > 1)!;
    expect(rate).toBeDefined();
    const refused = await apiError(h.client.book({ booking_token: rate.booking_token }));
    expect(refused.status).toBe(422);
    h.sandbox.clearRequestLog();
    for (const doc of rate.required_documents) await h.client.uploadDocument(id, doc, await pdf(doc));
    // Spec, Errors: a successful upload is 204 with no content.
    expect(h.sandbox.requestLog().map((r) => r.status)).toEqual(rate.required_documents.map(() => 204));
    await expect(h.client.book({ booking_token: rate.booking_token })).resolves.toHaveProperty('shipment_id', id);
  });

  it('complete customs data means no customsinvoice upload', async () => {
    const { id, rates } = await createAndRate(h.client, domestic({ to: NO_RECEIVER, customs_information: COMPLETE_CUSTOMS }), {
      included_non_eu_rates: true,
    });
    const rate = rates.find((r) => r.required_documents.length === 0);
    expect(rate, 'a rate needing nothing once customs data is complete').toBeDefined();
    await expect(h.client.book({ booking_token: rate!.booking_token })).resolves.toHaveProperty('shipment_id', id);
  });

  it('an upload that is not a PDF is refused; an unknown document type is 400', async () => {
    const { id } = await h.client.createShipment(domestic({ to: NO_RECEIVER }));
    const notPdf = await apiError(h.client.uploadDocument(id, 'abd', new TextEncoder().encode('hello')));
    expect(notPdf.status).toBeGreaterThanOrEqual(400);
    expect(notPdf.status).toBeLessThan(500);
    const unknownType = await apiError(h.client.uploadDocument(id, 'passport', await pdf('x')));
    expect(unknownType.status).toBe(400);
  });
});

describe('booking 422s (Endpoints rule 9)', () => {
  it('a payer is set but the rate does not support third-party customs billing', async () => {
    const { rates } = await createAndRate(h.client, domestic({ third_party_customs_payer: PAYER }));
    const rate = rates.find((r) => r.third_party_customs_payer_supported === false)!;
    const error = await apiError(h.client.book({ booking_token: rate.booking_token }));
    expect([error.status, error.code]).toEqual([422, 'SERVICE_UNPROCESSABLE']);
    const supported = rates.find((r) => r.third_party_customs_payer_supported === true);
    expect(supported, 'a rate that supports the payer').toBeDefined();
    await expect(h.client.book({ booking_token: supported!.booking_token })).resolves.toBeDefined();
  });

  it('a package’s dangerous_goods_type changed after the rates were fetched', async () => {
    const { id, rates } = await createAndRate(h.client);
    const rate = rates.find((r) => r.carrier === 'postnord') ?? rates[0]!;
    await h.client.updateShipment(id, { packages: [{ ...BOX, dangerous_goods_type: 'limited_quantity' }] });
    const error = await apiError(h.client.book({ booking_token: rate.booking_token }));
    expect([error.status, error.code]).toEqual([422, 'SERVICE_UNPROCESSABLE']);
    // Fresh rates give a token that books.
    const fresh = await h.client.rates({ shipment_id: id, requested_pickup_time: PICKUP() });
    await expect(h.client.book({ booking_token: fresh.rates[0]!.booking_token })).resolves.toHaveProperty('shipment_id', id);
  });

  it('the team’s ADR approval was withdrawn since the rates were fetched', async () => {
    h.sandbox.setAdrApproved(true);
    let token: string;
    let id: string;
    try {
      const rated = await createAndRate(h.client, domestic({ packages: [{ ...BOX, dangerous_goods_type: 'adr' }] }));
      token = rated.rates[0]!.booking_token;
      id = rated.id;
      await h.client.uploadDocument(id, 'adr_dangerousgoods', await pdf('adr'));
    } finally {
      h.sandbox.setAdrApproved(false);
    }
    const error = await apiError(h.client.book({ booking_token: token }));
    expect([error.status, error.code]).toEqual([422, 'SERVICE_UNPROCESSABLE']);
  });
});

describe('cancel', () => {
  it('status becomes CANCELED and tracking is an empty list without a carrier event', async () => {
    const { id } = await createAndBook(h.client);
    expect(await h.client.tracking(id)).toHaveLength(1);
    await h.client.cancel({ shipment_id: id });
    expect((await h.client.getShipment(id)).status).toBe('CANCELED');
    expect(await h.client.tracking(id)).toEqual([]);
  });

  it('cancel of an unbooked shipment is refused; of an unknown one 404', async () => {
    const { id } = await h.client.createShipment(domestic());
    const error = await apiError(h.client.cancel({ shipment_id: id }));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect((await apiError(h.client.cancel({ shipment_id: UNKNOWN_ID }))).status).toBe(404);
  });
});
