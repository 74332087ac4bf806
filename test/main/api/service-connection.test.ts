import { afterEach, describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { ServiceConnection } from '../../../src/main/api/service-connection';
import { json, useLoopback } from '../../support/api/loopback';

const server = useLoopback();
let connection: ServiceConnection | null = null;
afterEach(async () => {
  await connection?.close();
});

describe('ServiceConnection', () => {
  it('lets a call in flight finish when settings point it elsewhere', async () => {
    server.handle((_req, res) => {
      setTimeout(() => json(res, 200, { status: 'ok', team: 'Slow Team' }, { 'x-service-request-id': 'r1' }), 300);
    });
    connection = new ServiceConnection({ apiUrl: server.baseUrl, apiKey: 'first-key-0001' });
    const inFlight = connection.current.status();
    await new Promise((r) => setTimeout(r, 50));
    expect(connection.reconfigure(`${server.baseUrl}/other`, 'second-key-0002')).toBe(true);
    await expect(inFlight).resolves.toMatchObject({ team: 'Slow Team' });
    expect(connection.url).toBe(`${server.baseUrl}/other`);
  });

  it('never shows the key when inspected, and refuses calls without one', () => {
    connection = new ServiceConnection({ apiUrl: server.baseUrl, apiKey: 'secret-key-0003' });
    expect(inspect(connection, { depth: 5 })).not.toContain('secret-key-0003');
    connection.reconfigure(server.baseUrl, null);
    expect(() => connection!.current).toThrow(/No API key/);
  });
});
