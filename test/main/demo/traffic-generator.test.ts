import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { TrafficGenerator, type DemoDraft } from '../../../src/main/demo/traffic-generator';
import { createLogger } from '../../../src/main/log';
import { startStation, type Station } from '../../support/agent-harness';

let station: Station;
let client: ServiceClient;
beforeEach(async () => {
  station = await startStation();
  client = new ServiceClient({ baseUrl: station.sandbox.baseUrl, apiKey: station.sandbox.apiKey });
});
afterEach(async () => {
  await client.close();
  await station.close();
});

function generator(lines: string[], drafts: DemoDraft[]): TrafficGenerator {
  const log = createLogger({ write: (line) => lines.push(line), timestamps: false });
  return new TrafficGenerator({
    client,
    sandboxOrigin: station.sandbox.origin,
    apiKey: station.sandbox.apiKey,
    log,
    onDraft: (d) => drafts.push(d),
  });
}

describe('demo traffic', () => {
  it('leaves every third shipment unbooked as DRAFT-000N, says to scan it, and the station finds it by that scan', async () => {
    const lines: string[] = [];
    const drafts: DemoDraft[] = [];
    const traffic = generator(lines, drafts);
    const made = [];
    for (let i = 0; i < 6; i++) made.push(await traffic.next());
    expect(made.map((m) => [m.referenceId, m.source])).toEqual([
      ['DEMO-0001', 'API'],
      ['DEMO-0002', 'APP'],
      ['DRAFT-0003', 'DRAFT'],
      ['DEMO-0004', 'APP'],
      ['DEMO-0005', 'API'],
      ['DRAFT-0006', 'DRAFT'],
    ]);
    expect(drafts.map((d) => [d.referenceId, d.gap])).toEqual([
      ['DRAFT-0003', 'no weight yet'],
      ['DRAFT-0006', 'no parcel size yet'],
    ]);
    // Announced once, through onDraft (the demo prints it): not a second time in the log.
    expect(lines.some((l) => l.includes('DRAFT-0003'))).toBe(false);

    const draft = await client.getShipment(made[2]!.shipmentId);
    expect(draft).toMatchObject({ status: 'PENDING', reference_id: 'DRAFT-0003', tracking_id: null });
    expect(draft.packages?.[0]?.weight_kg).toBeUndefined();
    for (const booked of [made[0]!, made[1]!]) expect((await client.getShipment(booked.shipmentId)).status).toBe('BOOKED');

    // The agent's scan lookup goes through the service's reference lookup.
    const { agent } = await station.start();
    const found = await agent.api.lookup({ scan: 'DRAFT-0003' });
    expect(found).toMatchObject({ kind: 'found', matchedBy: 'reference', shipment: { id: made[2]!.shipmentId, status: 'PENDING' } });
  });

  it('draftEvery 0 books every shipment', async () => {
    const traffic = new TrafficGenerator({
      client,
      sandboxOrigin: station.sandbox.origin,
      apiKey: station.sandbox.apiKey,
      draftEvery: 0,
      log: createLogger({ write: () => {}, timestamps: false }),
    });
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await traffic.next());
    expect(made.map((m) => m.source)).toEqual(['API', 'APP', 'API']);
  });

  it("each draft's stated reason is what booking asks for, and booking without it is refused naming that field", async () => {
    const drafts: DemoDraft[] = [];
    const traffic = new TrafficGenerator({
      client,
      sandboxOrigin: station.sandbox.origin,
      apiKey: station.sandbox.apiKey,
      draftEvery: 1,
      log: createLogger({ write: () => {}, timestamps: false }),
      onDraft: (d) => drafts.push(d),
    });
    for (let i = 0; i < 3; i++) await traffic.next();
    expect(drafts.map((d) => d.gap)).toEqual([
      'no weight yet',
      'no parcel size yet',
      'to Norway without customs data: upload a customs invoice',
    ]);
    const { agent } = await station.start();
    const api = agent.api;
    const draftOf = async (d: DemoDraft) => {
      const result = await api.packDraft({ shipmentId: d.shipmentId });
      if (!result.ok) throw new Error(result.problem.message);
      return result.value;
    };
    // What the station shows as missing is what the words say.
    expect((await draftOf(drafts[0]!)).missing.map((m) => m.label)).toEqual(['Weight of parcel 1']);
    expect((await draftOf(drafts[1]!)).missing.map((m) => m.label)).toEqual([
      'Length of parcel 1',
      'Height of parcel 1',
      'Width of parcel 1',
    ]);
    // Nor can they be rated (and so booked) without it: the refusal names the field.
    for (const d of drafts.slice(0, 2)) {
      const rates = await api.packRates({ shipmentId: d.shipmentId });
      expect(rates.ok).toBe(false);
      if (!rates.ok) expect(rates.problem.fields.length).toBeGreaterThan(0);
    }
    // The Norway draft rates, every rate asks for the customs invoice, and booking without it names it.
    const rated = await api.packRates({ shipmentId: drafts[2]!.shipmentId });
    if (!rated.ok) throw new Error(rated.problem.message);
    expect(rated.value.rates.length).toBeGreaterThan(0);
    expect(rated.value.rates.every((r) => r.requiredDocuments.includes('customsinvoice'))).toBe(true);
    const booked = await api.packBook({ shipmentId: drafts[2]!.shipmentId, token: rated.value.rates[0]!.token });
    expect(booked.ok).toBe(false);
    if (!booked.ok) {
      expect(booked.problem.fields).toContainEqual({
        field: 'documents.customsinvoice',
        label: 'Customs invoice',
        message: 'must be uploaded before booking',
      });
    }
    expect((await client.getShipment(drafts[2]!.shipmentId)).status).toBe('PENDING');
  });
});
