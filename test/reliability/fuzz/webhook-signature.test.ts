/**
 * Property-based tests of the webhook verifier (src/main/intake/signature.ts): it never
 * throws whatever arrives, accepts exactly what the service signs (spec, Events:
 * Signature header) and rejects everything else with one of its named reasons.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifySignature, type VerifySignatureResult } from '../../../src/main/intake/sources/webhooks/signature';
import { signPayload } from '../../../src/sandbox/webhooks/signature';
import { SIZES } from '../../support/reliability/sizes';

const REASONS = ['missing', 'malformed', 'stale', 'mismatch'];
const TOLERANCE_S = 300;
const params = { numRuns: SIZES.fuzzRuns };

/** A plausible clock: 2001..2100, in ms. */
const nowMs = fc.integer({ min: 1_000_000_000_000, max: 4_100_000_000_000 });
const body = fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b));
const secret = fc.string({ minLength: 1, maxLength: 64, unit: 'binary' });
const secrets = fc.uniqueArray(secret, { minLength: 1, maxLength: 6 });

function expectWellFormed(result: VerifySignatureResult, secretCount: number): void {
  if (result.ok) {
    expect(Number.isInteger(result.secretIndex)).toBe(true);
    expect(result.secretIndex).toBeGreaterThanOrEqual(0);
    expect(result.secretIndex).toBeLessThan(secretCount);
  } else {
    expect(REASONS).toContain(result.reason);
  }
}

describe('fuzz: verifySignature', () => {
  it('never throws on arbitrary headers, bodies, secrets and clocks, and never accepts a header it was not given a valid MAC for', () => {
    const header = fc.oneof(
      fc.string({ maxLength: 300, unit: 'binary' }),
      fc.array(fc.string({ maxLength: 200 }), { maxLength: 3 }),
      fc.constant(undefined),
      fc.constant(null),
      // Structured but wrong: right shape, random values.
      fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 80 })).map(([t, v]) => `t=${t},v1=${v}`),
      fc
        .tuple(fc.integer(), fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }))
        .map(([t, v]) => `t=${t},v1=${v}`),
    );
    fc.assert(
      fc.property(
        header,
        body,
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 6 }),
        fc.oneof(nowMs, fc.double()),
        fc.oneof(fc.constant(undefined), fc.integer({ min: -10, max: 100_000 })),
        (h, raw, keys, now, tolerance) => {
          const result = verifySignature({
            header: h as string | string[] | undefined | null,
            rawBody: raw,
            secrets: keys,
            now,
            toleranceSeconds: tolerance,
          });
          expectWellFormed(result, keys.length);
          // A random header carries no MAC over this body with these keys.
          expect(result.ok).toBe(false);
        },
      ),
      params,
    );
  });

  it('accepts what the service signs, within the tolerance, naming the secret that matched', () => {
    fc.assert(
      fc.property(body, secrets, fc.nat(), nowMs, fc.integer({ min: -TOLERANCE_S, max: TOLERANCE_S }), (raw, keys, pick, now, skew) => {
        const index = pick % keys.length;
        const header = signPayload(keys[index]!, raw, Math.floor(now / 1000) + skew);
        const result = verifySignature({ header, rawBody: raw, secrets: keys, now: Math.floor(now / 1000) * 1000 });
        expect(result).toEqual({ ok: true, secretIndex: index });
      }),
      params,
    );
  });

  it('rejects a genuine signature outside the tolerance as stale', () => {
    const skew = fc.oneof(fc.integer({ min: TOLERANCE_S + 1, max: 10_000_000 }), fc.integer({ min: -10_000_000, max: -(TOLERANCE_S + 1) }));
    fc.assert(
      fc.property(body, secrets, nowMs, skew, (raw, keys, now, s) => {
        const t = Math.floor(now / 1000);
        const header = signPayload(keys[0]!, raw, t + s);
        expect(verifySignature({ header, rawBody: raw, secrets: keys, now: t * 1000 })).toEqual({ ok: false, reason: 'stale' });
      }),
      params,
    );
  });

  it('rejects a forged signature (another key) as mismatch', () => {
    fc.assert(
      fc.property(body, secrets, secret, nowMs, (raw, keys, forger, now) => {
        fc.pre(!keys.includes(forger));
        const t = Math.floor(now / 1000);
        const header = signPayload(forger, raw, t);
        expect(verifySignature({ header, rawBody: raw, secrets: keys, now: t * 1000 })).toEqual({ ok: false, reason: 'mismatch' });
      }),
      params,
    );
  });

  it('rejects any change to the signed bytes: body, time or MAC', () => {
    const tamper = fc.oneof(
      fc.record({ kind: fc.constant('body' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
      fc.record({ kind: fc.constant('append' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
      fc.record({ kind: fc.constant('mac' as const), at: fc.integer({ min: 0, max: 63 }), digit: fc.integer({ min: 1, max: 15 }) }),
      fc.record({ kind: fc.constant('time' as const), delta: fc.integer({ min: 1, max: TOLERANCE_S }) }),
    );
    fc.assert(
      fc.property(body, secrets, nowMs, tamper, (raw, keys, now, change) => {
        const t = Math.floor(now / 1000);
        let header = signPayload(keys[0]!, raw, t);
        let received = raw;
        switch (change.kind) {
          case 'body':
            fc.pre(raw.length > 0);
            received = Buffer.from(raw);
            received[change.at % raw.length] = received[change.at % raw.length]! ^ change.xor;
            break;
          case 'append':
            received = Buffer.concat([raw, Buffer.from(change.extra)]);
            break;
          case 'mac': {
            const mac = header.slice(header.indexOf('v1=') + 3);
            const digit = ((parseInt(mac[change.at]!, 16) + change.digit) % 16).toString(16);
            header = `t=${t},v1=${mac.slice(0, change.at)}${digit}${mac.slice(change.at + 1)}`;
            break;
          }
          case 'time':
            header = header.replace(`t=${t}`, `t=${t + change.delta}`);
            break;
        }
        const result = verifySignature({ header, rawBody: received, secrets: keys, now: t * 1000 });
        expect(result).toEqual({ ok: false, reason: 'mismatch' });
      }),
      params,
    );
  });
});
