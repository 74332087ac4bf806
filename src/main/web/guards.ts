/**
 * The two checks every bridge request passes: the Host header (DNS-rebinding defence:
 * a page on evil.example that rebinds its name to 127.0.0.1 still sends its own Host)
 * and the access token (constant-time: the comparison must not leak how many leading
 * characters were right).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import { CodedError } from '../errors';

export class UiServerError extends CodedError {}

/** Hosts the UI server may bind: loopback only, the UI is for this machine. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '::1']);

export function assertLoopback(host: string): void {
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new UiServerError(
      AGENT_ERROR_CODES.UI_HOST_NOT_LOOPBACK,
      `The web UI only listens on loopback (127.0.0.1 or ::1), not "${host}": open it on this machine, or use the desktop app.`,
    );
  }
}

export function allowedHostHeaders(host: string, port: number): ReadonlySet<string> {
  const literal = host.includes(':') ? `[${host}]` : host;
  return new Set([`${literal}:${port}`, `localhost:${port}`]);
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Hashing first gives equal-length buffers, so length differences leak nothing either. */
export function tokenMatches(expected: string, presented: string | string[] | null | undefined): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  return timingSafeEqual(digest(expected), digest(presented));
}
