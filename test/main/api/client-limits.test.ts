import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { ResponseTooLargeError } from '../../../src/main/api/errors';
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

  it('keeps what it knows of the oversized answer’s size: its Content-Length when sent, and the cap', async () => {
    client = new ServiceClient({ baseUrl: server.baseUrl, apiKey: 'key-limits-123', maxResponseBytes: 64 * 1024, retries: 0 });
    const request = { shipment_ids: ['a'], document_type: 'label', label_layout: 'printer' as const };
    const sizeOf = async () => {
      const error = await client!.printFile(request).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      return (error as ResponseTooLargeError).size;
    };
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 256 * 1024 });
      res.end(Buffer.alloc(256 * 1024, 0x25));
    });
    expect(await sizeOf()).toEqual({ declaredBytes: 256 * 1024, limitBytes: 64 * 1024 });
    // Chunked: no size said, the client stops reading at its cap.
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(Buffer.alloc(256 * 1024, 0x25));
    });
    expect(await sizeOf()).toEqual({ declaredBytes: null, limitBytes: 64 * 1024 });
  });
});
