import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSignatureHeader, verifySignature } from '../../../../../src/main/intake/sources/webhooks/signature';
import { signPayload } from '../../../../../src/sandbox/webhooks/signature';

const body = Buffer.from('{"message_id":"m1","type":"SHIPMENT_BOOKED"}');
const now = 1_760_000_000_000;
const t = now / 1000;

function mac(secret: string, time: number, raw: Buffer = body): string {
  return createHmac('sha256', secret).update(`${time}.`).update(raw).digest('hex');
}

describe('verifySignature', () => {
  it('accepts the header the service sends (spec algorithm)', () => {
    const header = signPayload('s1', body, t);
    expect(verifySignature({ header, rawBody: body, secrets: ['s1'], now })).toEqual({ ok: true, secretIndex: 0 });
  });

  it('tells which of several secrets matched', () => {
    const header = signPayload('s3', body, t);
    expect(verifySignature({ header, rawBody: body, secrets: ['s1', 's2', 's3', 's4', 's5', 'rotated'], now })).toEqual({
      ok: true,
      secretIndex: 2,
    });
  });

  it('parses any order, spaces and several v1 values; ignores other schemes', () => {
    const good = mac('s1', t);
    const header = ` v0=${'0'.repeat(64)} , v1=${'a'.repeat(64)},  v1=${good.toUpperCase()} , t=${t} `;
    expect(verifySignature({ header, rawBody: body, secrets: ['s1'], now })).toEqual({ ok: true, secretIndex: 0 });
    expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
  });

  it('reports missing, malformed, stale and mismatch', () => {
    const secrets = ['s1'];
    expect(verifySignature({ header: undefined, rawBody: body, secrets, now })).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignature({ header: '  ', rawBody: body, secrets, now })).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignature({ header: `v1=${mac('s1', t)}`, rawBody: body, secrets, now })).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature({ header: `t=${t}`, rawBody: body, secrets, now })).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature({ header: `t=${t},v1=zz`, rawBody: body, secrets, now })).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature({ header: `t=${t},v1=${mac('s1', t).slice(2)}`, rawBody: body, secrets, now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifySignature({ header: `t=abc,v1=${mac('s1', t)}`, rawBody: body, secrets, now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifySignature({ header: `t=${t},t=${t},v1=${mac('s1', t)}`, rawBody: body, secrets, now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifySignature({ header: signPayload('s1', body, t - 301), rawBody: body, secrets, now })).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(verifySignature({ header: signPayload('s1', body, t + 301), rawBody: body, secrets, now })).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(verifySignature({ header: signPayload('other', body, t), rawBody: body, secrets, now })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('accepts within the tolerance and honours a configured one', () => {
    const header = signPayload('s1', body, t - 299);
    expect(verifySignature({ header, rawBody: body, secrets: ['s1'], now }).ok).toBe(true);
    expect(verifySignature({ header, rawBody: body, secrets: ['s1'], now, toleranceSeconds: 60 })).toEqual({ ok: false, reason: 'stale' });
  });

  it('verifies the raw bytes: re-serialised JSON or a changed byte does not verify', () => {
    const raw = Buffer.from('{ "a": 1,  "b": "é" }');
    const header = signPayload('s1', raw, t);
    expect(verifySignature({ header, rawBody: raw, secrets: ['s1'], now }).ok).toBe(true);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString())));
    expect(verifySignature({ header, rawBody: reserialised, secrets: ['s1'], now })).toEqual({ ok: false, reason: 'mismatch' });
    const flipped = Buffer.from(raw);
    flipped[3] = flipped[3]! ^ 1;
    expect(verifySignature({ header, rawBody: flipped, secrets: ['s1'], now })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('binds the timestamp: a signature moved to another t does not verify', () => {
    const sig = mac('s1', t - 10);
    expect(verifySignature({ header: `t=${t},v1=${sig}`, rawBody: body, secrets: ['s1'], now })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('takes the first of repeated headers', () => {
    const header = [signPayload('s1', body, t), 'garbage'];
    expect(verifySignature({ header, rawBody: body, secrets: ['s1'], now }).ok).toBe(true);
  });
});
