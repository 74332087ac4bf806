import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client';
import { apiError, useHarness } from '../support/contract-harness';

const h = useHarness({ apiKey: 'contract-key-9f8e', team: 'Contract Team' });

describe('GET /status and authentication', () => {
  it('a valid key gets the status and the team', async () => {
    const status = await h.client.status();
    expect(status.team).toBe('Contract Team');
    expect(status.status).toMatch(/\S/);
  });

  it('a wrong key gets 401 → SERVICE_UNAUTHORIZED with the request id and the service message, without the key', async () => {
    const wrong = new ServiceClient({ baseUrl: h.sandbox.baseUrl, apiKey: 'wrong-key-1234' });
    try {
      const error = await apiError(wrong.status());
      expect(error.code).toBe('SERVICE_UNAUTHORIZED');
      expect(error.status).toBe(401);
      expect(error.serviceMessage).toMatch(/key/i);
      expect(error.message).toMatch(/Settings → Connection/);
      expect(error.message).not.toContain('wrong-key-1234');
      // 401 is never retried.
      expect(h.sandbox.requestLog().filter((r) => r.status === 401)).toHaveLength(1);
    } finally {
      await wrong.close();
    }
  });

  it('a wrong key is refused on every endpoint, not just /status', async () => {
    const wrong = new ServiceClient({ baseUrl: h.sandbox.baseUrl, apiKey: 'wrong-key-1234' });
    try {
      for (const call of [() => wrong.carriers(), () => wrong.listShipments(), () => wrong.book({ booking_token: 'x' })]) {
        expect((await apiError(call())).code).toBe('SERVICE_UNAUTHORIZED');
      }
    } finally {
      await wrong.close();
    }
  });
});
