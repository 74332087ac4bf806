import { createHmac } from 'node:crypto';

/**
 * The `Service-Signature` header value (spec, Events, Signature header):
 * `t=<TIME>,v1=<lower-case hex HMAC-SHA256 of "<TIME>.<raw body bytes>" keyed with the secret>`.
 */
export function signPayload(secret: string, rawBody: string | Uint8Array, unixSeconds: number): string {
  const time = String(Math.floor(unixSeconds));
  const mac = createHmac('sha256', secret);
  mac.update(`${time}.`);
  mac.update(rawBody);
  return `t=${time},v1=${mac.digest('hex')}`;
}
