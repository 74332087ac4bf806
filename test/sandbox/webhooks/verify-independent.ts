import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A receiver's check written from the spec's text alone (Events, Signature header), not
 * from src/: parse `t=<TIME>,v1=<SIGNATURE>`, HMAC-SHA256 over TIME, ".", then the raw
 * body bytes with the endpoint secret, compare in constant time, reject a stale TIME.
 */
export function verifySignature(
  header: string | undefined,
  rawBody: Buffer,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  if (!header) return false;
  const fields = new Map<string, string>();
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const time = fields.get('t');
  const signature = fields.get('v1');
  if (!time || !/^\d+$/.test(time) || !signature || !/^[0-9a-f]+$/.test(signature)) return false;
  if (Math.abs(nowSeconds - Number(time)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${time}.`, 'utf8'), rawBody]))
    .digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
