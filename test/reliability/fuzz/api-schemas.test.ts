/**
 * Property-based tests of the API response schemas (src/main/api/schemas.ts) and of the
 * client that applies them (src/main/api/client.ts): whatever a service answers, parsing
 * either succeeds or fails with a ZodError whose issues carry a field path and a
 * message, and the client turns that into SERVICE_INVALID_RESPONSE with the request id
 * and per-field errors, never anything else.
 *
 * Valid starting points are real answers of the embedded sandbox; the mutation
 * properties replace one field anywhere in them with arbitrary JSON.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceClient } from '../../../src/main/api/client';
import { ApiError, API_ERROR_CODES } from '../../../src/main/api/errors';
import * as schemas from '../../../src/main/api/schemas';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { SIZES } from '../../support/reliability/sizes';

const params = { numRuns: SIZES.fuzzRuns };

/** Every response schema the client applies, by the call that applies it. */
const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  status: schemas.statusResponse,
  createShipment: schemas.createShipmentResponse,
  listShipments: schemas.shipmentList,
  getShipment: schemas.shipment,
  rates: schemas.rateResponse,
  book: schemas.bookResponse,
  cancel: schemas.cancelResponse,
  printUrl: schemas.printUrlResponse,
  tracking: schemas.trackingEvents,
  carriers: schemas.carriersResponse,
  printers: schemas.printersResponse,
  servicePoints: schemas.servicePointsResponse,
  favoriteAddresses: schemas.favoriteAddressesResponse,
  favoritePackages: schemas.favoritePackagesResponse,
  shippingRules: schemas.shippingRulesResponse,
  shipmentDefaults: schemas.shipmentDefaults,
};
const schemaName = fc.constantFrom(...Object.keys(RESPONSE_SCHEMAS));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = Array<string | number>;

/** Every path to a value inside `value` (the root excluded). */
function paths(value: Json, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...paths(v, [...prefix, i])]);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
  return [];
}

function replaceAt(value: Json, path: Path, replacement: Json): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  const obj = value as Record<string, Json>;
  return { ...obj, [head as string]: replaceAt(obj[head as string]!, rest, replacement) };
}

const isPrefix = (a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean => a.length <= b.length && a.every((s, i) => s === b[i]);

function expectZodIssuesWithPaths(error: unknown): z.ZodError {
  expect(error).toBeInstanceOf(z.ZodError);
  const zerr = error as z.ZodError;
  expect(zerr.issues.length).toBeGreaterThan(0);
  for (const issue of zerr.issues) {
    expect(issue.message.trim().length).toBeGreaterThan(0);
    expect(schemas.formatPath(issue.path)).toMatch(/^(\(body\)|\[\d+\]|[^.[\]]+)(\.[^.[\]]+|\[\d+\])*$/);
  }
  return zerr;
}

/** Real answers of the sandbox, one per schema. */
async function sandboxFixtures(sandbox: Sandbox): Promise<Record<string, Json>> {
  const call = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${sandbox.baseUrl}${path}`, {
      method,
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Json;
  };
  const booked = await sandbox.bookShipment({ source: 'API', reference_id: 'FUZZ-1', packages: 2 });
  const created = await call('POST', '/shipments', {
    enable_bookable_validation: true,
    to: {
      name: 'R',
      address: { address_line_1: 'Gatan 1', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
      contact: { name: 'R', email: 'r@example.com', phone: '+46700000000' },
    },
    packages: [{ weight_kg: 2, depth_cm: 30, height_cm: 20, width_cm: 20, quantity: 1, type: 'PACKAGE' }],
  });
  const rates = await call('POST', '/shipments/rates', {
    shipment_id: (created as { id: string }).id,
    requested_pickup_time: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const firstRate = (rates as { rates: Array<{ booking_token: string }> }).rates[0]!;
  return {
    status: await call('GET', '/status'),
    createShipment: created,
    listShipments: await call('GET', '/shipments?limit=5'),
    getShipment: await call('GET', `/shipments/${booked.shipmentId}`),
    rates,
    book: await call('POST', '/shipments/book', { booking_token: firstRate.booking_token }),
    cancel: {},
    printUrl: await call('POST', '/shipments/print', {
      shipment_ids: [booked.shipmentId],
      document_type: 'label',
      label_layout: 'printer',
      output_format: 'url',
    }),
    tracking: await call('GET', `/shipments/${booked.shipmentId}/tracking`),
    carriers: await call('GET', '/carriers'),
    printers: await call('GET', '/printers'),
    servicePoints: await call('POST', '/locations/servicepoints', {
      address_line: 'Gatan 1',
      postal_code: '11151',
      city: 'Stockholm',
      country_code: 'SE',
    }),
    favoriteAddresses: await call('POST', '/favorites/addresses', {}),
    favoritePackages: await call('GET', '/favorites/packages'),
    shippingRules: await call('GET', '/shipping-rules'),
    shipmentDefaults: await call('GET', '/shipment-defaults'),
  };
}

describe('fuzz: API response schemas', () => {
  let sandbox: Sandbox;
  let fixtures: Record<string, Json>;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 7 });
    fixtures = await sandboxFixtures(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('accept the sandbox answers they are fuzzed from', () => {
    for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) {
      const result = schema.safeParse(fixtures[name]);
      expect(result.success, `${name}: ${result.error?.message}`).toBe(true);
    }
  });

  it('never throw on arbitrary JSON except a ZodError whose issues carry field paths', () => {
    fc.assert(
      fc.property(schemaName, fc.jsonValue({ maxDepth: 5 }), (name, value) => {
        const schema = RESPONSE_SCHEMAS[name]!;
        const result = schema.safeParse(value);
        if (!result.success) expectZodIssuesWithPaths(result.error);
        let thrown: unknown = null;
        try {
          schema.parse(value);
        } catch (error) {
          thrown = error;
        }
        expect(thrown === null).toBe(result.success);
        if (thrown !== null) expectZodIssuesWithPaths(thrown);
      }),
      params,
    );
  });

  it('blame the field that was broken: one value replaced anywhere in a real answer fails at that path or accepts', () => {
    fc.assert(
      fc.property(schemaName, fc.nat(), fc.jsonValue({ maxDepth: 2 }), (name, pick, replacement) => {
        const fixture = fixtures[name]!;
        const all = paths(fixture);
        fc.pre(all.length > 0);
        const path = all[pick % all.length]!;
        const mutated = replaceAt(fixture, path, replacement as Json);
        const result = RESPONSE_SCHEMAS[name]!.safeParse(mutated);
        if (result.success) return;
        const zerr = expectZodIssuesWithPaths(result.error);
        // The issue is at the replaced value, inside it, or at an enclosing union or
        // preprocess step that had to reject the whole branch: never somewhere unrelated.
        for (const issue of zerr.issues) {
          expect(
            isPrefix(issue.path, path) || isPrefix(path, issue.path),
            `${name}: issue at ${schemas.formatPath(issue.path)} after replacing ${schemas.formatPath(path)}`,
          ).toBe(true);
        }
      }),
      params,
    );
  });

  it('tolerate unknown fields anywhere in a real answer (spec, Versioning 2)', () => {
    fc.assert(
      fc.property(
        schemaName,
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 16 }),
        fc.jsonValue({ maxDepth: 2 }),
        (name, pick, key, value) => {
          const fixture = fixtures[name]!;
          const objects = [[] as Path, ...paths(fixture)].filter((p) => {
            let v: Json = fixture;
            for (const s of p) v = (v as Record<string | number, Json>)[s]!;
            return v !== null && typeof v === 'object' && !Array.isArray(v);
          });
          fc.pre(objects.length > 0);
          const at = objects[pick % objects.length]!;
          let target: Json = fixture;
          for (const s of at) target = (target as Record<string | number, Json>)[s]!;
          const existing = target as Record<string, Json>;
          fc.pre(!(key in existing) && key !== '__proto__' && key !== 'ID');
          const mutated = replaceAt(fixture, at, { ...existing, [key]: value as Json });
          const result = RESPONSE_SCHEMAS[name]!.safeParse(mutated);
          expect(result.success, result.success ? '' : `${name}: ${result.error.message}`).toBe(true);
        },
      ),
      params,
    );
  });
});

describe('fuzz: the client against a service answering anything', () => {
  let server: Server;
  let client: ServiceClient;
  let next: { status: number; body: string; requestId: string } = { status: 200, body: '{}', requestId: '' };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(next.status, { 'content-type': 'application/json', 'x-service-request-id': next.requestId });
        res.end(next.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}/external/v1`, apiKey: 'fuzz-key-secret', retries: 0, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await client?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  const calls: Record<string, (c: ServiceClient) => Promise<unknown>> = {
    status: (c) => c.status(),
    listShipments: (c) => c.listShipments({}),
    getShipment: (c) => c.getShipment('0b6f2c1e-0000-4000-8000-000000000001'),
    tracking: (c) => c.tracking('0b6f2c1e-0000-4000-8000-000000000001'),
    carriers: (c) => c.carriers(),
    printers: (c) => c.printers(),
    favoritePackages: (c) => c.favoritePackages(),
    shippingRules: (c) => c.shippingRules(),
    shipmentDefaults: (c) => c.shipmentDefaults(),
    printUrl: (c) => c.printUrl({ shipment_ids: ['s1'], document_type: 'label', label_layout: 'printer' }),
  };

  it('resolves or rejects with SERVICE_INVALID_RESPONSE carrying the request id and per-field errors, never leaking the key', async () => {
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
      fc.string({ maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(calls)), body, async (name, text) => {
        next = { status: 200, body: text, requestId: randomUUID() };
        let error: unknown = null;
        try {
          await calls[name]!(client);
        } catch (e) {
          error = e;
        }
        if (error === null) return;
        expect(error).toBeInstanceOf(ApiError);
        const apiError = error as ApiError;
        expect(apiError.code).toBe(API_ERROR_CODES.INVALID_RESPONSE);
        expect(apiError.requestId).toBe(next.requestId);
        expect(apiError.message).toContain(next.requestId);
        expect(apiError.message).not.toContain('fuzz-key-secret');
        for (const key of Object.keys(apiError.fieldErrors)) expect(key.length).toBeGreaterThan(0);
        let json = true;
        try {
          JSON.parse(text);
        } catch {
          json = false;
        }
        if (json) expect(Object.keys(apiError.fieldErrors).length).toBeGreaterThan(0);
      }),
      { numRuns: Math.max(1_000, Math.floor(SIZES.fuzzRuns / 4)) },
    );
  });
});
