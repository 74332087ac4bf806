import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { checkServiceAddress, isLocalHost } from '../../../src/main/api/service-address';
import { mergeSettings, defaultSettings } from '../../../src/main/settings/settings-store';
import { json, useLoopback } from '../../support/api/loopback';

const server = useLoopback();
let client: ServiceClient | null = null;
afterEach(async () => {
  await client?.close();
  client = null;
});

describe('ids in a path', () => {
  it.each(['..', '.', 'a\nb', 'x'.repeat(201)])(
    'refuses %j before any request is sent, with a coded error saying the id is invalid',
    async (id) => {
      server.handle((_r, res) => json(res, 200, { id: 's1' }));
      client = new ServiceClient({ baseUrl: server.baseUrl, apiKey: 'k-123456', retries: 0 });
      const error = await client.getShipment(id).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'SERVICE_INVALID_REQUEST' });
      expect((error as Error).message).toMatch(/not a valid id/);
      await expect(client.tracking(id)).rejects.toMatchObject({ code: 'SERVICE_INVALID_REQUEST' });
      expect(server.requests).toHaveLength(0);
    },
  );

  it('still escapes an ordinary id with a slash into one segment', async () => {
    server.handle((_r, res) => json(res, 200, { id: 'a/b', status: 'PENDING' }));
    client = new ServiceClient({ baseUrl: server.baseUrl, apiKey: 'k-123456', retries: 0 });
    await client.getShipment('a/b');
    expect(server.requests[0]!.url).toBe('/external/v1/shipments/a%2Fb');
  });
});

describe('plain http service address', () => {
  it('is accepted on loopback and private hosts', () => {
    for (const host of [
      '127.0.0.1',
      'localhost',
      '[::1]',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.10',
      '169.254.1.1',
      '[fd00::1]',
      'app.localhost',
    ]) {
      expect(() => checkServiceAddress(`http://${host}:8080/external/v1`, false)).not.toThrow();
    }
    expect(isLocalHost('172.32.0.1')).toBe(false);
  });

  it('is refused on a public host (the key would travel in clear) unless explicitly allowed', () => {
    for (const url of ['http://api.example.com/external/v1', 'http://8.8.8.8/v1', 'http://[2001:db8::1]/v1']) {
      expect(() => new ServiceClient({ baseUrl: url, apiKey: 'k-123456', allowPlainHttp: false })).toThrow(
        expect.objectContaining({ code: 'INSECURE_SERVICE_ADDRESS', message: expect.stringContaining('use https://') }),
      );
    }
    const allowed = new ServiceClient({ baseUrl: 'http://api.example.com/v1', apiKey: 'k-123456', allowPlainHttp: true });
    void allowed.close();
    const tls = new ServiceClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'k-123456', allowPlainHttp: false });
    void tls.close();
  });

  it('is refused when saved in settings', () => {
    const current = defaultSettings('https://api.example.com/external/v1');
    expect(() => mergeSettings(current, { apiUrl: 'http://api.example.com/external/v1' })).toThrow(
      expect.objectContaining({ code: 'INSECURE_SERVICE_ADDRESS' }),
    );
    expect(mergeSettings(current, { apiUrl: 'http://127.0.0.1:9/external/v1' }).apiUrl).toBe('http://127.0.0.1:9/external/v1');
  });
});
