import { createHash } from 'node:crypto';
import type { KeyPair } from '@nats-io/nkeys';

/**
 * NATS JWTs (operator, account, user) built and signed here with nkeys: a JWT is three
 * base64url parts, the last an ed25519 signature of the first two by the issuer's nkey.
 * Only the claims nats-server 2.9 reads for a site are written (tested against it in
 * test/main/site/setup). `jti` is the base32 of the claims' SHA-256, as the Go library does.
 */

export interface PermissionLists {
  readonly pub: { readonly allow: readonly string[] };
  readonly sub: { readonly allow: readonly string[] };
}

const UNLIMITED_ACCOUNT = {
  subs: -1,
  data: -1,
  payload: -1,
  imports: -1,
  exports: -1,
  wildcards: true,
  conn: -1,
  leaf: -1,
  mem_storage: -1,
  disk_storage: -1,
  streams: -1,
  consumer: -1,
};

function base64url(value: string | Uint8Array): string {
  return Buffer.from(value).toString('base64url');
}

function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

function sign(issuer: KeyPair, subject: string, name: string, nats: Record<string, unknown>): string {
  const claims: Record<string, unknown> = { iat: Math.floor(Date.now() / 1000), iss: issuer.getPublicKey(), name, sub: subject, nats };
  claims.jti = base32(createHash('sha256').update(JSON.stringify(claims)).digest());
  const head = `${base64url(JSON.stringify({ typ: 'JWT', alg: 'ed25519-nkey' }))}.${base64url(JSON.stringify(claims))}`;
  return `${head}.${base64url(issuer.sign(new TextEncoder().encode(head)))}`;
}

/** The operator's own JWT (self-signed); `systemAccount` is the account the server uses for its own traffic. */
export function operatorJwt(operator: KeyPair, name: string, systemAccount: string): string {
  return sign(operator, operator.getPublicKey(), name, { type: 'operator', version: 2, system_account: systemAccount });
}

/** An account signed by the operator; `jetstream`: JetStream on, without limits. */
export function accountJwt(operator: KeyPair, account: KeyPair, name: string, jetstream: boolean): string {
  const limits = jetstream ? UNLIMITED_ACCOUNT : { ...UNLIMITED_ACCOUNT, mem_storage: 0, disk_storage: 0, streams: 0, consumer: 0 };
  return sign(operator, account.getPublicKey(), name, {
    type: 'account',
    version: 2,
    limits,
    default_permissions: { pub: {}, sub: {} },
  });
}

/** A user of `account` with exactly these publish and subscribe permissions. */
export function userJwt(account: KeyPair, user: KeyPair, name: string, permissions: PermissionLists): string {
  return sign(account, user.getPublicKey(), name, {
    type: 'user',
    version: 2,
    pub: { allow: [...permissions.pub.allow] },
    sub: { allow: [...permissions.sub.allow] },
    subs: -1,
    data: -1,
    payload: -1,
  });
}

/** A standard NATS `.creds` file: the user's JWT and its nkey seed. */
export function credsFile(jwt: string, seed: Uint8Array): string {
  return [
    '-----BEGIN NATS USER JWT-----',
    jwt,
    '------END NATS USER JWT------',
    '',
    '************************* IMPORTANT *************************',
    'NKEY Seed printed below can be used to sign and prove identity.',
    'NKEYs are sensitive and should be treated as secrets.',
    '',
    '-----BEGIN USER NKEY SEED-----',
    new TextDecoder().decode(seed),
    '------END USER NKEY SEED------',
    '',
    '*************************************************************',
    '',
  ].join('\n');
}
