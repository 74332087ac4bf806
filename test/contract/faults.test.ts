import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client';
import { apiError, domestic, useHarness } from '../support/contract-harness';

const h = useHarness({}, { retries: 2, retryBaseMs: 5, timeoutMs: 2_000 });
afterEach(() => {
  h.sandbox.setFaults({ errorRate: 0, rateLimitRate: 0, dropRate: 0, latencyMs: 0, retryAfterSeconds: 1 });
  h.sandbox.clearRequestLog();
});

const apiRequests = () => h.sandbox.requestLog().filter((r) => r.url.startsWith('/external/v1/'));

describe('the client against the sandbox’s fault knobs', () => {
  it('5xx on every call: a read is tried 1 + retries times, then SERVICE_UNAVAILABLE', async () => {
    h.sandbox.setFaults({ errorRate: 1 });
    h.sandbox.clearRequestLog();
    const error = await apiError(h.client.carriers());
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(apiRequests().map((r) => r.status)).toEqual([503, 503, 503]);
  });

  it('5xx: book is tried exactly once', async () => {
    const { id } = await h.client.createShipment(domestic());
    const { rates } = await h.client.rates({ shipment_id: id, required_addons: { without_pickup: true } });
    h.sandbox.setFaults({ errorRate: 1 });
    h.sandbox.clearRequestLog();
    await apiError(h.client.book({ booking_token: rates[0]!.booking_token }));
    expect(apiRequests()).toHaveLength(1);
  });

  it('429 with Retry-After: retried, and the error carries retryAfterMs', async () => {
    h.sandbox.setFaults({ rateLimitRate: 1, retryAfterSeconds: 0 });
    h.sandbox.clearRequestLog();
    const error = await apiError(h.client.printers());
    expect(error.code).toBe('SERVICE_RATE_LIMITED');
    expect(error.retryAfterMs).toBe(0);
    expect(apiRequests()).toHaveLength(3);
  });

  it('dropped connections: SERVICE_UNREACHABLE after the retries; book never retried', async () => {
    h.sandbox.setFaults({ dropRate: 1 });
    h.sandbox.clearRequestLog();
    expect((await apiError(h.client.status())).code).toBe('SERVICE_UNREACHABLE');
    expect(apiRequests()).toHaveLength(3);
    h.sandbox.clearRequestLog();
    expect((await apiError(h.client.book({ booking_token: 'x' }))).code).toBe('SERVICE_UNREACHABLE');
    expect(apiRequests()).toHaveLength(1);
  });

  it('latency beyond the timeout: SERVICE_TIMEOUT', async () => {
    h.sandbox.setFaults({ latencyMs: 600 });
    const impatient = new ServiceClient({ baseUrl: h.sandbox.baseUrl, apiKey: h.sandbox.apiKey, timeoutMs: 200, retries: 0 });
    try {
      expect((await apiError(impatient.status())).code).toBe('SERVICE_TIMEOUT');
    } finally {
      await impatient.close();
    }
  });

  it('intermittent 5xx and drops: reads get through thanks to the retries', async () => {
    h.sandbox.setFaults({ errorRate: 0.3, dropRate: 0.1 });
    const patient = new ServiceClient({ baseUrl: h.sandbox.baseUrl, apiKey: h.sandbox.apiKey, retries: 8, retryBaseMs: 2, retryMaxMs: 20 });
    try {
      for (let i = 0; i < 10; i++) expect((await patient.status()).team).toMatch(/\S/);
      expect(apiRequests().length).toBeGreaterThan(10);
    } finally {
      await patient.close();
    }
  });
});
