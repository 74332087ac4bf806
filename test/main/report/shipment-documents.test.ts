/**
 * Documents per parcel on the real agent and sandbox: every document a booked shipment
 * needs with its print state, and "print the missing ones" printing each exactly once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shipmentOf, startStation, waitFor, type Station } from '../../support/agent-harness';

let station: Station;
beforeEach(async () => {
  station = await startStation();
});
afterEach(async () => {
  await station.close();
});

describe('documents per parcel', () => {
  it('shows each document with its state and prints the missing ones once', async () => {
    const agent = await station.start();
    const { api } = agent.agent;
    await agent.agent.poller?.pollOnce();
    const booked = await station.sandbox.bookShipment({ source: 'API', reference_id: 'DOCS-1', carrier: 'db_schenker' });
    await waitFor(async () => (await station.prints()).length === 1, 'the label');
    await agent.agent.pipeline.idle();
    const found = await api.lookup({ scan: 'DOCS-1' });
    if (found.kind !== 'found') throw new Error('not found');
    const types = found.shipment.availableDocuments;
    expect(types).toContain('manifest');

    const before = await api.shipmentDocuments({ shipmentId: booked.shipmentId, documentTypes: [...types] });
    expect(before.find((d) => d.documentType === 'label')).toMatchObject({ state: 'printed', printer: `folder:${station.printDir}` });
    const others = before.filter((d) => d.documentType !== 'label');
    expect(others.map((d) => d.state)).toEqual(types.filter((t) => t !== 'label').map(() => 'not_printed'));

    const first = await api.printShipmentDocuments({ shipmentId: booked.shipmentId });
    expect(first.queued).toBe(types.length - 1);
    expect(first.waiting).toBe(1); // the label: printed already, never again
    const second = await api.printShipmentDocuments({ shipmentId: booked.shipmentId });
    expect(second.queued + second.retried).toBe(0);
    await waitFor(async () => (await station.prints()).length === types.length, 'every document');
    await agent.agent.pipeline.idle();
    const files = (await station.prints()).filter((f) => shipmentOf(f) === booked.shipmentId);
    for (const type of types)
      expect(
        files.filter((f) => f.includes(`_${type}_`)),
        type,
      ).toHaveLength(1);
    const after = await api.shipmentDocuments({ shipmentId: booked.shipmentId, documentTypes: [...types] });
    expect(after.every((d) => d.state === 'printed')).toBe(true);
  });
});
