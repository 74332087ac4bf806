import { describe, expect, it } from 'vitest';
import { signPayload } from '../../../src/sandbox/webhooks/signature';
import { verifySignature } from './verify-independent';

const body =
  '{"message_id":"m1","type":"SHIPMENT_BOOKED","created_at":"2026-11-22T10:00:00.000Z","shipment_id":"s1","data":{"name":"Åsa"}}';
const time = 1_795_000_000;

describe('signPayload', () => {
  it('produces t=<TIME>,v1=<64 lower-case hex> with the given time', () => {
    expect(signPayload('whsec_1', body, time)).toMatch(new RegExp(`^t=${time},v1=[0-9a-f]{64}$`));
  });

  it('is accepted by an independent verifier over the raw bytes', () => {
    const header = signPayload('whsec_1', body, time);
    expect(verifySignature(header, Buffer.from(body, 'utf8'), 'whsec_1', time)).toBe(true);
  });

  it('signs the same bytes the same whether given as a string or as bytes', () => {
    expect(signPayload('whsec_1', new TextEncoder().encode(body), time)).toBe(signPayload('whsec_1', body, time));
  });

  it('is rejected with another secret, another body or another time', () => {
    const header = signPayload('whsec_1', body, time);
    expect(verifySignature(header, Buffer.from(body, 'utf8'), 'whsec_2', time)).toBe(false);
    expect(verifySignature(header, Buffer.from(body.replace('s1', 's2'), 'utf8'), 'whsec_1', time)).toBe(false);
    const moved = header.replace(`t=${time}`, `t=${time + 1}`);
    expect(verifySignature(moved, Buffer.from(body, 'utf8'), 'whsec_1', time)).toBe(false);
  });

  it('puts the time in the signed string, so signatures differ per time', () => {
    const a = signPayload('whsec_1', body, time).split('v1=')[1];
    const b = signPayload('whsec_1', body, time + 1).split('v1=')[1];
    expect(a).not.toBe(b);
  });
});
