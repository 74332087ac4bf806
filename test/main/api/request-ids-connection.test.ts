/**
 * The ring is filled where answers arrive (the transport), for every client the agent's
 * connection makes, successes and refusals alike: a refused call's id is the one support needs.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/api/errors';
import { ServiceConnection } from '../../../src/main/api/service-connection';
import { useTestbed } from '../../support/testbed';

const bed = useTestbed({ sandbox: { port: 0, apiKey: 'ring-test-key-123456' } });

describe('ServiceConnection.recentRequests', () => {
  it('records the X-Service-Request-ID of each answer, 2xx and errors, newest first', async () => {
    const connection = new ServiceConnection({ apiUrl: bed.sandbox.baseUrl, apiKey: 'ring-test-key-123456', client: { retries: 0 } });
    try {
      await connection.current.status();
      await connection.current.getShipment('does-not-exist').catch((error: unknown) => error);
      const failed = (await connection.current.getShipment('does-not-exist').catch((error: unknown) => error)) as ApiError;
      expect(failed).toBeInstanceOf(ApiError);
      const seen = connection.recentRequests.list();
      expect(seen).toHaveLength(3);
      expect(seen[0]).toMatchObject({ method: 'GET', status: failed.status, requestId: failed.requestId });
      expect(seen[2]).toMatchObject({ method: 'GET', path: '/status', status: 200 });
      expect(new Set(seen.map((s) => s.requestId)).size).toBe(3);
      for (const s of seen) expect(s.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    } finally {
      await connection.close();
    }
  });
});
