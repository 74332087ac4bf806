import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { useLoopback } from '../../support/api/loopback';

const server = useLoopback();
let client: ServiceClient | null = null;
afterEach(async () => {
  await client?.close();
});

describe('ServiceClient response size limit', () => {
  it('refuses an oversized body as an invalid response, with the request id, without retrying', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'x-service-request-id': 'req-big' });
      res.end(Buffer.alloc(256 * 1024, 0x25));
    });
    client = new ServiceClient({
      baseUrl: server.baseUrl,
      apiKey: 'key-limits-123',
      maxResponseBytes: 64 * 1024,
      retries: 2,
      retryBaseMs: 1,
    });
    const before = server.requests.length;
    await expect(client.printFile({ shipment_ids: ['a'], document_type: 'label', label_layout: 'printer' })).rejects.toMatchObject({
      code: 'SERVICE_INVALID_RESPONSE',
      requestId: 'req-big',
      message: expect.stringContaining('larger than the client accepts'),
    });
    expect(server.requests.length - before).toBe(1);
  });
});
