/**
 * Property-based tests of the webhook parser (src/main/intake/envelope.ts) and of the
 * whole receiver behind it (src/main/intake/webhook-server.ts over real HTTP): any body
 * is either accepted or rejected with an error that names the field, never a crash, a
 * 5xx or an accepted forgery.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhook } from '../../../src/main/intake/sources/webhooks/envelope';
import { startWebhookServer, type WebhookServer } from '../../../src/main/intake/sources/webhooks/webhook-server';
import type { BookingNotice } from '../../../src/main/ledger/booking-notice';
import { Ledger } from '../../../src/main/ledger/ledger';
import { signPayload } from '../../../src/sandbox/webhooks/signature';
import { SIZES } from '../../support/reliability/sizes';

const params = { numRuns: SIZES.fuzzRuns };
/** `field.path: message` or `(body): message`, several joined by `; `. */
const FIELD_ERROR = /^(\(body\)|[A-Za-z0-9_.]+): \S/;

const rfc3339 = fc
  .tuple(
    fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true }),
    fc.integer({ min: 0, max: 999_999_999 }),
    fc.constantFrom('Z', '+02:00', '-05:30'),
  )
  .map(([d, nanos, zone]) => {
    const iso = d.toISOString().slice(0, 19);
    return `${iso}.${String(nanos).padStart(9, '0')}${zone}`;
  });
const nullableString = fc.option(fc.string({ maxLength: 40 }), { nil: null });
const unknownFields = fc.dictionary(
  fc
    .string({ minLength: 1, maxLength: 12 })
    .filter((k) => !['message_id', 'type', 'created_at', 'shipment_id', 'data', '__proto__'].includes(k)),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);

const bookedData = fc.record({
  carrier: fc.string({ maxLength: 20 }),
  product: fc.string({ maxLength: 20 }),
  source: fc.constantFrom('API', 'APP', 'NEW_SOURCE'),
  agreement: fc.constantFrom('SERVICE', 'OWN'),
  tracking_id: nullableString,
  reference_id: fc.string({ maxLength: 40 }),
  invoice_reference: nullableString,
  customer_reference: fc.string({ maxLength: 40 }),
  booked_at: rfc3339,
});
const trackingData = fc.record({
  event: fc.constantFrom('IN_TRANSIT', 'DELIVERED', 'DELIVERY_FAILURE', 'ON_HOLD', 'TELEPORTED'),
  carrier: fc.string({ maxLength: 20 }),
  tracking_id: fc.string({ maxLength: 30 }),
  reason: fc.constantFrom('UNKNOWN', 'CUSTOMS', 'NEW_REASON'),
  description: nullableString,
  location: fc.string({ maxLength: 30 }),
  event_time: rfc3339,
});

/** A valid envelope of any type, with unknown fields sprinkled in. */
const validEnvelope = fc
  .record({
    message_id: fc.string({ minLength: 1, maxLength: 60 }),
    created_at: rfc3339,
    shipment_id: fc.string({ minLength: 1, maxLength: 60 }),
    typed: fc.oneof(
      fc.record({ type: fc.constant('SHIPMENT_BOOKED'), data: bookedData }),
      fc.record({ type: fc.constant('TRACKING_EVENT'), data: trackingData }),
      fc.record({
        type: fc.string({ minLength: 1, maxLength: 20 }).filter((t) => t !== 'SHIPMENT_BOOKED' && t !== 'TRACKING_EVENT'),
        data: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      }),
    ),
    extra: unknownFields,
    dataExtra: unknownFields,
  })
  .map(({ typed, extra, dataExtra, ...rest }) => ({ ...extra, ...rest, type: typed.type, data: { ...dataExtra, ...typed.data } }));

/** A value of the wrong type for a given field. */
const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.constant([]), fc.constant({ nested: true }), fc.constant(''));

function expectClearError(result: ReturnType<typeof parseWebhook>): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error).toMatch(FIELD_ERROR);
}

describe('fuzz: parseWebhook', () => {
  it('never throws on arbitrary JSON; every rejection names the offending field', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const result = parseWebhook(value);
        if (!result.ok) expect(result.error).toMatch(FIELD_ERROR);
      }),
      params,
    );
  });

  it('never throws on arbitrary JS values (prototype tricks, symbols, undefined)', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withSparseArray: true,
          withTypedArray: true,
        }),
        (value) => {
          const result = parseWebhook(value);
          if (!result.ok) expect(result.error).toMatch(FIELD_ERROR);
        },
      ),
      params,
    );
  });

  it('accepts every valid envelope with unknown fields and new enum values, keeping the kind of its type', () => {
    fc.assert(
      fc.property(validEnvelope, (envelope) => {
        const result = parseWebhook(JSON.parse(JSON.stringify(envelope)));
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const kind = envelope.type === 'SHIPMENT_BOOKED' ? 'booked' : envelope.type === 'TRACKING_EVENT' ? 'tracking' : 'other';
        expect(result.webhook.kind).toBe(kind);
        expect(result.webhook.envelope.message_id).toBe(envelope.message_id);
        expect(result.webhook.envelope.shipment_id).toBe(envelope.shipment_id);
      }),
      params,
    );
  });

  it('rejects a known field of the wrong type, naming that field', () => {
    const field = fc.constantFrom('message_id', 'type', 'created_at', 'shipment_id', 'data');
    fc.assert(
      fc.property(validEnvelope, field, wrongType, (envelope, name, bad) => {
        // An empty object is a valid `data`.
        fc.pre(!(name === 'data' && typeof bad === 'object' && bad !== null && !Array.isArray(bad)));
        const result = parseWebhook({ ...envelope, [name]: bad });
        expectClearError(result);
        if (!result.ok) expect(result.error).toContain(name);
      }),
      params,
    );
  });

  it('rejects a data field of the wrong type inside a known event type, naming data.<field>', () => {
    const broken = fc.oneof(
      fc.record({
        type: fc.constant('SHIPMENT_BOOKED'),
        field: fc.constantFrom('carrier', 'tracking_id', 'reference_id', 'booked_at', 'source'),
      }),
      fc.record({ type: fc.constant('TRACKING_EVENT'), field: fc.constantFrom('event', 'tracking_id', 'event_time', 'description') }),
    );
    fc.assert(
      fc.property(validEnvelope, broken, fc.oneof(fc.integer(), fc.boolean(), fc.constant(['x'])), (envelope, { type, field }, bad) => {
        const data = type === 'SHIPMENT_BOOKED' ? { booked_at: '2026-01-01T00:00:00Z' } : { event: 'IN_TRANSIT' };
        const result = parseWebhook({ ...envelope, type, data: { ...data, [field]: bad } });
        expectClearError(result);
        if (!result.ok) expect(result.error).toContain(`data.${field}`);
      }),
      params,
    );
  });
});

describe('fuzz: the webhook receiver over HTTP', () => {
  const SECRET = 'whsec-fuzz';
  let dir: string;
  let ledger: Ledger;
  let server: WebhookServer;
  const submitted: BookingNotice[] = [];

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rel-fuzz-'));
    ledger = Ledger.open({ path: path.join(dir, 'ledger.db'), pruneIntervalMs: 0 });
    server = await startWebhookServer({
      secrets: [SECRET],
      ledger,
      sink: { submitBooking: (notice) => submitted.push(notice) },
      stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
    });
  });
  afterAll(async () => {
    await server?.close();
    ledger?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function post(body: Buffer, signature: string | null): Promise<{ status: number; json: { error?: string; status?: string } }> {
    const res = await request(server.url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'service-signature': signature }) },
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: JSON.parse(text) as { error?: string; status?: string } };
  }

  // Bodies: arbitrary bytes, arbitrary JSON, and valid envelopes, each signed right,
  // signed with another key, or unsigned.
  const rawBody = fc.oneof(
    fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
    validEnvelope.map((v) => Buffer.from(JSON.stringify(v))),
  );
  const signing = fc.constantFrom('valid', 'forged', 'stale', 'none');

  it('answers every delivery 200, 400 with the field, or 401; never 5xx; accepts only what is validly signed', async () => {
    const runs = Math.max(1_000, Math.floor(SIZES.fuzzRuns / 4));
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(rawBody, signing, async (body, how) => {
        const now = Math.floor(Date.now() / 1000);
        const signature =
          how === 'valid'
            ? signPayload(SECRET, body, now)
            : how === 'forged'
              ? signPayload('not-the-secret', body, now)
              : how === 'stale'
                ? signPayload(SECRET, body, now - 3600)
                : null;
        const before = server.counters.accepted + server.counters.duplicates;
        const { status, json } = await post(body, signature);
        expect([200, 400, 401]).toContain(status);
        if (how !== 'valid') {
          expect(status).toBe(401);
          expect(json.error).toBe(how === 'none' ? 'missing' : how === 'stale' ? 'stale' : 'mismatch');
          expect(server.counters.accepted + server.counters.duplicates).toBe(before);
          return;
        }
        if (status === 400) {
          expect(json.error).toMatch(/^invalid: (body is not JSON|(\(body\)|[A-Za-z0-9_.]+): \S)/);
        } else {
          expect(json.status === 'accepted' || json.status === 'duplicate').toBe(true);
          if (json.status === 'accepted') accepted += 1;
        }
      }),
      { numRuns: runs },
    );
    expect(server.counters.rejected.internal).toBe(0);
    expect(server.counters.accepted).toBe(accepted);
    // Accepted bookings reach the pipeline port (on the next turns).
    await new Promise((r) => setTimeout(r, 50));
    for (const notice of submitted) expect(typeof notice.shipmentId).toBe('string');
  });
});
