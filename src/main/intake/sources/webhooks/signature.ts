import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `Service-Signature: t=<unix>,v1=<hex>` verification (spec, Events: Signature header).
 * HMAC-SHA256 over `<t>.<raw body bytes>`, keyed with each configured secret, so several
 * endpoints and a secret being rotated are accepted at the same time.
 */

export interface VerifySignatureInput {
  /** The header value, or undefined/null when the request had none. */
  readonly header: string | readonly string[] | undefined | null;
  /** The body exactly as received, before any parsing. */
  readonly rawBody: Buffer;
  /** Every secret currently accepted (up to 5 endpoints plus rotation). */
  readonly secrets: readonly string[];
  /** Current time in milliseconds since the epoch. @default Date.now() */
  readonly now?: number;
  /** Largest accepted difference between `t` and now, in seconds. @default 300 */
  readonly toleranceSeconds?: number;
}

export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'mismatch';
export type VerifySignatureResult =
  { readonly ok: true; readonly secretIndex: number } | { readonly ok: false; readonly reason: SignatureFailure };

interface ParsedHeader {
  readonly timestamp: string;
  readonly signatures: readonly Buffer[];
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** Parses `t=..,v1=..[,v1=..]` in any order, with spaces; unknown schemes (v0, v2) are ignored. */
export function parseSignatureHeader(header: string): ParsedHeader | null {
  let timestamp: string | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,15}$/.test(value)) return null;
      timestamp = value;
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

export function verifySignature(input: VerifySignatureInput): VerifySignatureResult {
  const { rawBody, secrets, now = Date.now(), toleranceSeconds = 300 } = input;
  const header = Array.isArray(input.header) ? input.header[0] : input.header;
  if (typeof header !== 'string' || header.trim() === '') return { ok: false, reason: 'missing' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  if (Math.abs(now / 1000 - Number(parsed.timestamp)) > toleranceSeconds) return { ok: false, reason: 'stale' };
  const signedPrefix = Buffer.from(`${parsed.timestamp}.`, 'utf8');
  for (let i = 0; i < secrets.length; i++) {
    const expected = createHmac('sha256', secrets[i] as string)
      .update(signedPrefix)
      .update(rawBody)
      .digest();
    // Every candidate is compared (no early exit per signature) and all are 32 bytes long,
    // as timingSafeEqual requires.
    let match = false;
    for (const candidate of parsed.signatures) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) match = true;
    }
    if (match) return { ok: true, secretIndex: i };
  }
  return { ok: false, reason: 'mismatch' };
}
