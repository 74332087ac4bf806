import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { ApiError, ResponseTooLargeError } from '../../../src/main/api/errors';
import { servicePdfFetcher } from '../../../src/main/api/service-pdf-fetcher';
import { useHarness } from '../../support/contract-harness';

const harness = useHarness();

function fetcherOnSandbox(printing: ServiceClient = harness.client) {
  const heard: string[] = [];
  const fetcher = servicePdfFetcher({
    printing: () => printing,
    client: () => harness.client,
    onReached: () => heard.push('reached'),
    onFailed: (error) => heard.push(`failed ${error.code}`),
  });
  return { fetcher, heard };
}

describe('servicePdfFetcher', () => {
  it("fetches a booked shipment's label and says the service was reached", async () => {
    const { fetcher, heard } = fetcherOnSandbox();
    const booked = await harness.sandbox.bookShipment({ reference_id: 'FETCH-1' });
    const { pdf } = await fetcher.printFile({ shipment_ids: [booked.shipmentId], document_type: 'label', label_layout: 'printer' });
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(heard).toEqual(['reached']);
    expect(await fetcher.availableDocuments(booked.shipmentId)).toContain('label');
    expect(await fetcher.canceledAmong([booked.shipmentId], new Date())).toMatchObject({ canceled: [] });
  });

  it('passes a refusal on as the ApiError it is, and says so', async () => {
    const { fetcher, heard } = fetcherOnSandbox();
    const refused = await fetcher
      .printFile({ shipment_ids: ['no-such-shipment'], document_type: 'label', label_layout: 'printer' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(heard).toEqual([`failed ${(refused as ApiError).code}`]);
  });

  it('passes on a PDF too large to read as the ResponseTooLargeError it is, the service counted as reached (the document is at fault)', async () => {
    const capped = new ServiceClient({ baseUrl: harness.sandbox.baseUrl, apiKey: harness.sandbox.apiKey, maxResponseBytes: 4 * 1024 });
    try {
      const { fetcher, heard } = fetcherOnSandbox(capped);
      const booked = await harness.sandbox.bookShipment({ reference_id: 'FETCH-LARGE', packages: 5 });
      const refused = await fetcher
        .printFile({ shipment_ids: [booked.shipmentId], document_type: 'label', label_layout: 'printer' })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ResponseTooLargeError);
      expect(heard).toEqual(['reached']);
    } finally {
      await capped.close();
    }
  });

  it('asks the client it is given at each call, so a new address or key applies to the next fetch', async () => {
    let current: { printFile: () => Promise<never> } | null = null;
    const fetcher = servicePdfFetcher({
      printing: () => current ?? harness.client,
      client: () => harness.client,
    });
    const booked = await harness.sandbox.bookShipment({ reference_id: 'FETCH-2' });
    await fetcher.printFile({ shipment_ids: [booked.shipmentId], document_type: 'label', label_layout: 'printer' });
    current = { printFile: () => Promise.reject(new Error('the replaced client')) };
    await expect(fetcher.printFile({ shipment_ids: [booked.shipmentId], document_type: 'label', label_layout: 'printer' })).rejects.toThrow(
      'the replaced client',
    );
  });
});
