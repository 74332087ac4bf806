import { describe, expect, it } from 'vitest';
import { errorFromResponse, notFoundAdvice } from '../../../src/main/api/error-mapping';

const ctx = (method: string, path: string) => ({
  method,
  path,
  status: 404,
  requestId: 'rq-404',
  retryAfterMs: null,
  secret: 'the-secret-key',
});

describe('404 advice depends on the route', () => {
  it('a route without an id (GET /status) points at the service address, with no doubled period', () => {
    const error = errorFromResponse(ctx('GET', '/status'), { message: 'Nothing at /status. The API lives under /external/v1.' });
    expect(error.message).toBe(
      'The service does not know GET /status: Nothing at /status. The API lives under /external/v1. ' +
        'Check the service address: it ends in /external/v1 (Settings → Connection, or --api-url) (request id rq-404)',
    );
  });

  it('a shipment route asks to check the shipment id; another id route the id in the request', () => {
    expect(errorFromResponse(ctx('GET', '/shipments/abc'), { message: 'No such shipment.' }).message).toBe(
      'The service does not know GET /shipments/abc: No such shipment. Check the shipment id (request id rq-404)',
    );
    expect(notFoundAdvice('/shipments/abc/tracking?x=1')).toBe('Check the shipment id');
    expect(notFoundAdvice('/printers/p-1')).toBe('Check the id in the request');
    expect(notFoundAdvice('/carriers')).toMatch(/^Check the service address/);
  });
});
