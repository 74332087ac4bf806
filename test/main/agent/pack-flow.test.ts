/**
 * Pack and ship against the real sandbox and the real headless agent: each step of the
 * flow through the AgentApi, with the service's rules checked on the sandbox's records.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import type { ShipmentInput } from '../../../src/main/api/schemas';
import { localDay } from '../../../src/main/report/day-window';
import { MAX_UPLOAD_BYTES } from '../../../src/shared/agent-api';
import type { PackResult } from '../../../src/shared/domain';
import { shipmentOf, startStation, waitFor, type Station } from '../../support/agent-harness';
import { COMPLETE_CUSTOMS, NO_RECEIVER, SE_RECEIVER, SE_SENDER } from '../../support/contract-harness';

let station: Station;
let client: ServiceClient;
let clock = Date.now();

afterEach(async () => {
  await client?.close();
  await station?.close();
});

async function start(sandboxOptions: Parameters<typeof startStation>[0] = {}, pollIntervalSeconds = 0) {
  station = await startStation(sandboxOptions);
  client = new ServiceClient({ baseUrl: station.sandbox.baseUrl, apiKey: station.sandbox.apiKey, retryBaseMs: 5 });
  const agent = await station.start({ pollIntervalSeconds });
  await agent.agent.poller?.pollOnce();
  return agent.agent.api;
}

/** A draft as an order system leaves it: no bookable validation, gaps left open. */
async function draft(body: ShipmentInput): Promise<string> {
  return (await client.createShipment({ enable_bookable_validation: false, from: SE_SENDER, ...body })).id;
}

function value<T>(result: PackResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.problem)}`);
  return result.value;
}

const count = (method: string, path: RegExp): number =>
  station.sandbox.requestLog().filter((r) => r.method === method && path.test(r.url)).length;

describe('pack and ship', () => {
  it('shows a draft as not booked, with what booking still needs in packer words', async () => {
    const api = await start();
    const id = await draft({
      reference_id: 'DRAFT-1',
      to: { name: 'Rita Receiver' },
      packages: [{ quantity: 1, type: 'PACKAGE', description: 'Mugs' }],
    });
    const found = await api.lookup({ scan: 'DRAFT-1' });
    expect(found).toMatchObject({ kind: 'found', shipment: { id, status: 'PENDING', trackingId: null } });
    const view = value(await api.packDraft({ shipmentId: id }));
    expect(view.stage).toBe('draft');
    expect(view.packages).toEqual([expect.objectContaining({ weightKg: null, description: 'Mugs', quantity: 1 })]);
    expect(view.missing).toEqual(
      expect.arrayContaining([
        { field: 'to.address.city', label: "Receiver's city", message: 'is missing', code: 'missing' },
        { field: 'packages[0].weight_kg', label: 'Weight of parcel 1', message: 'is missing', code: 'missing' },
      ]),
    );
    // The probe stored nothing: the draft is as it was.
    expect((await client.getShipment(id)).enable_bookable_validation).toBe(false);
  });

  it('saves packages typed with a decimal comma, replacing the stored ones and keeping customs data and payer', async () => {
    const api = await start();
    const payer = { account_number: 'ACC-1', postal_code: '0154', country_code: 'NO' };
    const id = await draft({
      to: NO_RECEIVER,
      packages: [
        { quantity: 1, type: 'PACKAGE', description: 'Mugs' },
        { quantity: 1, description: 'Spare' },
      ],
      customs_information: COMPLETE_CUSTOMS,
      third_party_customs_payer: payer,
    });
    const [preset] = await api.packPresets({});
    expect(preset).toMatchObject({ name: 'Small box', widthCm: 20, heightCm: 20, depthCm: 30 });
    const saved = value(
      await api.packUpdate({
        shipmentId: id,
        packages: [{ presetId: preset!.id, widthCm: '20', heightCm: '20', depthCm: '30', weightKg: '1,5', quantity: 2 }],
      }),
    );
    expect(saved.packages).toEqual([expect.objectContaining({ weightKg: 1.5, quantity: 2, widthCm: 20, favoritePackageId: preset!.id })]);
    expect(saved.missing).toEqual([]);
    const stored = await client.getShipment(id);
    expect(stored.packages).toHaveLength(1);
    expect(stored.third_party_customs_payer).toMatchObject(payer);
    expect(stored.customs_information?.items).toHaveLength(1);
    expect(saved.thirdPartyPayer).toBe(true);
  });

  it('refuses a weight that is not a number, and customs items heavier than the parcels, before the service sees it', async () => {
    const api = await start();
    const id = await draft({ to: NO_RECEIVER, packages: [{ quantity: 1, type: 'PACKAGE' }], customs_information: COMPLETE_CUSTOMS });
    station.sandbox.clearRequestLog();
    const bad = await api.packUpdate({ shipmentId: id, packages: [{ widthCm: 20, heightCm: 20, depthCm: 30, weightKg: '1,5 lbs' }] });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problem.fields).toEqual([
      expect.objectContaining({ field: 'packages[0].weight_kg', label: 'Weight of parcel 1', code: 'notNumber' }),
    ]);
    // The banner gives the field's reason, not a guess at it.
    expect(bad.problem.message).toMatch(/Weight of parcel 1 “1,5lbs” is not a number/);
    const zero = await api.packUpdate({ shipmentId: id, packages: [{ widthCm: 20, heightCm: 20, depthCm: 30, weightKg: '0' }] });
    if (zero.ok) throw new Error('expected a refusal');
    expect(zero.problem.message).toMatch(/Weight of parcel 1 must be more than 0/);
    expect(zero.problem.message).not.toMatch(/not numbers/);
    // Customs items weigh 2 × 0.5 kg: a 0,5 kg parcel cannot hold them.
    const light = await api.packUpdate({ shipmentId: id, packages: [{ widthCm: 20, heightCm: 20, depthCm: 30, weightKg: '0,5' }] });
    expect(light.ok).toBe(false);
    if (light.ok) return;
    expect(light.problem.fields[0]).toMatchObject({ field: 'packages[0].weight_kg' });
    expect(light.problem.fields[0]!.message).toMatch(/customs items weigh 1 kg/);
    expect(count('PUT', /\/shipments\//)).toBe(0);
  });

  it('returns a 422 field map with its request id, next to the fields', async () => {
    const api = await start();
    const id = await draft({
      to: { name: 'No Address AB', contact: { name: 'X' } },
      packages: [{ quantity: 1, weight_kg: 1, width_cm: 1, height_cm: 1, depth_cm: 1 }],
    });
    const rates = await api.packRates({ shipmentId: id });
    expect(rates.ok).toBe(false);
    if (rates.ok) return;
    expect(rates.problem.code).toBe('SERVICE_UNPROCESSABLE');
    expect(rates.problem.requestId).toMatch(/\S+/);
    expect(rates.problem.fields).toEqual(
      expect.arrayContaining([{ field: 'to.address.city', label: "Receiver's city", message: 'is missing', code: 'missing' }]),
    );
  });

  it('rates with the station settings, selects the cheapest, books and prints the label once', async () => {
    const api = await start({}, 3600);
    const id = await draft({ reference_id: 'DRAFT-2', to: SE_RECEIVER, packages: [{ quantity: 1, type: 'PACKAGE' }] });
    value(await api.packUpdate({ shipmentId: id, packages: [{ widthCm: 20, heightCm: 20, depthCm: 30, weightKg: '2.25' }] }));
    const rates = value(await api.packRates({ shipmentId: id }));
    expect(rates.rates.length).toBeGreaterThan(1);
    expect(rates.selected).toBe(rates.rates[0]!.token);
    const chosen = rates.rates[0]!;
    expect(chosen).toMatchObject({ receiverPays: false, needsServicePoint: false, bookable: true });
    expect(chosen.price).toMatch(/\d/);
    expect(chosen.pickupCutoff).toMatch(/^\d{4}-\d{2}-\d{2}/);

    station.sandbox.clearRequestLog();
    // Two quick Enters: one booking.
    const [first, second] = await Promise.all([
      api.packBook({ shipmentId: id, token: chosen.token, deliveryInstructions: 'Door code 1234' }),
      api.packBook({ shipmentId: id, token: chosen.token }),
    ]);
    const booked = value(first);
    expect(value(second).shipmentId).toBe(id);
    expect(booked.alreadyBooked).toBe(false);
    expect(booked.trackingId).toMatch(/\S+/);
    expect(count('POST', /\/shipments\/book$/)).toBe(1);
    // A third press after the booking books nothing either.
    expect(value(await api.packBook({ shipmentId: id, token: chosen.token })).alreadyBooked).toBe(true);
    expect(count('POST', /\/shipments\/book$/)).toBe(1);

    await waitFor(async () => (await station.prints()).some((f) => shipmentOf(f) === id), 'the label');
    // The booking's webhook has arrived by now or arrives later; the poll sees the booking too.
    expect(station.agent!.agent.poller, 'the poll runs in this test').toBeTruthy();
    await station.agent!.agent.poller!.pollOnce();
    await new Promise((r) => setTimeout(r, 500));
    await station.agent!.agent.pipeline.idle();
    expect((await station.prints()).filter((f) => shipmentOf(f) === id)).toHaveLength(1);
    const jobs = await api.listJobs({ search: id });
    expect(jobs.map((j) => j.documentType)).toEqual(['label']);
  });

  it('keeps a booking made here in End of day from the ledger alone, when the service list cannot be read', async () => {
    const api = await start();
    const id = await draft({ reference_id: 'PACK-EOD', to: SE_RECEIVER, packages: [{ quantity: 1, type: 'PACKAGE' }] });
    value(await api.packUpdate({ shipmentId: id, packages: [{ widthCm: 20, heightCm: 20, depthCm: 30, weightKg: '1' }] }));
    const rates = value(await api.packRates({ shipmentId: id }));
    value(await api.packBook({ shipmentId: id, token: rates.rates[0]!.token }));
    await waitFor(async () => (await station.prints()).some((f) => shipmentOf(f) === id), 'the label');

    station.sandbox.setFaults({ errorRate: 1 });
    const report = await api.endOfDay({ day: localDay() });
    expect(report.serviceError).not.toBeNull();
    expect(report.rows.map((r) => [r.reference, r.state, r.seenBy])).toEqual([['PACK-EOD', 'printed', 'station']]);
  });

  it('applies the station shipping rules chosen from GET /shipping-rules', async () => {
    const api = await start();
    const rules = await api.listShippingRules({});
    const only = rules.find((r) => r.name === 'Only DB Schenker');
    expect(only).toMatchObject({ type: 'include', enabled: false });
    await api.savePackSettings({ shippingRuleIds: [only!.id], pickup: 'without' });
    expect(await api.getPackSettings({})).toMatchObject({ shippingRuleIds: [only!.id], pickup: 'without' });
    // A change to one setting leaves the others as they were.
    await api.savePackSettings({ pickupTime: '15:30' });
    expect(await api.getPackSettings({})).toEqual({
      shippingRuleIds: [only!.id],
      pickup: 'without',
      pickupTime: '15:30',
      bookOnStableWeight: false,
    });
    const id = await draft({ to: SE_RECEIVER, packages: [{ quantity: 1, weight_kg: 3, width_cm: 20, height_cm: 20, depth_cm: 30 }] });
    const rates = value(await api.packRates({ shipmentId: id }));
    expect(new Set(rates.rates.map((r) => r.carrier))).toEqual(new Set(['db_schenker']));
    expect(rates.appliedRules).toContain('Only DB Schenker');
  });

  it('books a non-EU draft after its required document is uploaded (PDF only)', async () => {
    const api = await start();
    const id = await draft({ to: NO_RECEIVER, packages: [{ quantity: 1, weight_kg: 3, width_cm: 20, height_cm: 20, depth_cm: 30 }] });
    const rates = value(await api.packRates({ shipmentId: id }));
    const needing = rates.rates.find((r) => r.requiredDocuments.length > 0);
    expect(needing, 'a non-EU rate lists documents to upload').toBeTruthy();
    const refused = await api.packBook({ shipmentId: id, token: needing!.token });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problem.message).toMatch(/Upload the required documents/);
    const notPdf = await api.packUpload({
      shipmentId: id,
      documentType: 'customsinvoice',
      fileName: 'x.txt',
      contentBase64: Buffer.from('hello').toString('base64'),
    });
    expect(notPdf.ok).toBe(false);
    if (!notPdf.ok) expect(notPdf.problem.message).toMatch(/not a PDF/);
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    for (const documentType of needing!.requiredDocuments) {
      expect(
        value(
          await api.packUpload({
            shipmentId: id,
            documentType: documentType as 'customsinvoice',
            fileName: `${documentType}.pdf`,
            contentBase64: pdf.toString('base64'),
          }),
        ),
      ).toEqual({ documentType, bytes: pdf.length });
    }
    const again = value(await api.packRates({ shipmentId: id })).rates.find(
      (r) => r.productName === needing!.productName && r.carrierName === needing!.carrierName,
    )!;
    expect(value(await api.packBook({ shipmentId: id, token: again.token })).shipmentId).toBe(id);
  });

  it("uploads the largest PDF it allows with the longest name, inside the service's body limit, and refuses one byte more", async () => {
    const api = await start();
    const id = await draft({ to: NO_RECEIVER, packages: [{ quantity: 1, weight_kg: 3, width_cm: 20, height_cm: 20, depth_cm: 30 }] });
    const pdf = Buffer.alloc(MAX_UPLOAD_BYTES, 0x20);
    pdf.write('%PDF-1.4\n', 0, 'latin1');
    // 255 characters, each 3 bytes in UTF-8, and quotes the envelope writes as %22: the largest envelope.
    const fileName = `${'€"'.repeat(125)}x.pdf`;
    expect(fileName).toHaveLength(255);
    const upload = (bytes: Buffer) =>
      api.packUpload({ shipmentId: id, documentType: 'customsinvoice', fileName, contentBase64: bytes.toString('base64') });
    expect(value(await upload(pdf))).toEqual({ documentType: 'customsinvoice', bytes: MAX_UPLOAD_BYTES });
    const tooBig = await upload(Buffer.concat([pdf, Buffer.from(' ')]));
    expect(tooBig.ok).toBe(false);
    if (!tooBig.ok) expect(tooBig.problem.message).toMatch(/at most \d+ bytes can be uploaded: make the PDF smaller/);
    expect(count('POST', /\/customsinvoice$/)).toBe(1);
  });

  it('books a service-point rate with the nearest point', async () => {
    const api = await start();
    const id = await draft({
      to: { ...SE_RECEIVER, is_private_individual: true },
      packages: [{ quantity: 1, weight_kg: 1, width_cm: 20, height_cm: 20, depth_cm: 30 }],
    });
    const rates = value(await api.packRates({ shipmentId: id }));
    const pointRate = rates.rates.find((r) => r.needsServicePoint);
    expect(pointRate, 'private receivers get service-point rates').toBeTruthy();
    const points = value(await api.packServicePoints({ shipmentId: id, carrier: pointRate!.carrier ?? undefined }));
    expect(points.length).toBeGreaterThan(1);
    expect(points.map((p) => p.distanceM)).toEqual([...points.map((p) => p.distanceM)].sort((a, b) => (a ?? 0) - (b ?? 0)));
    const without = await api.packBook({ shipmentId: id, token: pointRate!.token });
    expect(without.ok).toBe(false);
    const booked = value(await api.packBook({ shipmentId: id, token: pointRate!.token, servicePointToken: points[0]!.token }));
    expect(booked.trackingId).toMatch(/\S+/);
  });

  it('fetches the rate anew when its token expired, and books the same offer', async () => {
    clock = Date.now();
    const api = await start({ now: () => new Date(clock) });
    const id = await draft({ to: SE_RECEIVER, packages: [{ quantity: 1, weight_kg: 1, width_cm: 20, height_cm: 20, depth_cm: 30 }] });
    const rates = value(await api.packRates({ shipmentId: id }));
    const chosen = rates.rates[1] ?? rates.rates[0]!;
    clock += 31 * 60_000;
    const booked = value(await api.packBook({ shipmentId: id, token: chosen.token }));
    expect(booked.refreshedToken).toBe(true);
    const stored = await client.getShipment(id);
    expect([stored.carrier_name, stored.product_name]).toEqual([chosen.carrierName, chosen.productName]);
  });

  it('voids a booked shipment; its label cannot be reprinted afterwards', async () => {
    const api = await start();
    const id = await draft({
      reference_id: 'DRAFT-9',
      to: SE_RECEIVER,
      packages: [{ quantity: 1, weight_kg: 1, width_cm: 20, height_cm: 20, depth_cm: 30 }],
    });
    const [rate] = value(await api.packRates({ shipmentId: id })).rates;
    value(await api.packBook({ shipmentId: id, token: rate!.token }));
    const canceled = value(await api.packCancel({ shipmentId: id }));
    expect(canceled.stage).toBe('canceled');
    expect(canceled.shipment.tracking[0]).toMatchObject({ status: 'CANCELED' });
    expect((await client.getShipment(id)).status).toBe('CANCELED');
    await expect(api.reprint({ shipmentId: id })).rejects.toMatchObject({ code: 'SHIPMENT_CANCELED', message: /DRAFT-9 was canceled/ });
    // History says so, and its label job is not printed again by a retry either.
    const [label] = await api.listJobs({ search: id });
    expect(label).toMatchObject({ documentType: 'label', shipmentCanceled: true });
    await expect(api.retryJob({ id: label!.id })).rejects.toMatchObject({ code: 'SHIPMENT_CANCELED' });
    const found = await api.lookup({ scan: 'DRAFT-9' });
    expect(found).toMatchObject({ kind: 'found', shipment: { status: 'CANCELED' } });
    // Canceling twice says so instead of failing.
    expect(value(await api.packCancel({ shipmentId: id })).stage).toBe('canceled');
  });

  it('offers no cancel once the carrier has the shipment: the refusal says why in words, and nothing is voided', async () => {
    const api = await start({ simulateCarrier: true, carrierStepMs: 100 });
    const id = await draft({
      reference_id: 'DRAFT-10',
      to: SE_RECEIVER,
      packages: [{ quantity: 1, weight_kg: 1, width_cm: 20, height_cm: 20, depth_cm: 30 }],
    });
    const [rate] = value(await api.packRates({ shipmentId: id })).rates;
    value(await api.packBook({ shipmentId: id, token: rate!.token }));
    await waitFor(async () => (await client.getShipment(id)).status === 'IN_TRANSIT', 'the pickup');
    const refused = await api.packCancel({ shipmentId: id });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toMatch(/DRAFT-10 is already with the carrier \(IN_TRANSIT\): it can no longer be canceled/);
    expect((await client.getShipment(id)).status).not.toBe('CANCELED');
  });
});
