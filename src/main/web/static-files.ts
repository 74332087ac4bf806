/**
 * Serves the built renderer. Only files below the root are ever read: the decoded path
 * is resolved and checked against the root, so `..`, encoded dots and absolute paths
 * cannot escape. Paths without an extension fall back to index.html (client routes).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Sent as a header as well as the page's meta tag: the header also covers responses the
 * meta tag cannot (and frame-ancestors only works as a header).
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  // The page URL carries the access token: never send it on in a Referer.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

export async function serveStatic(root: string, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', ...SECURITY_HEADERS }).end();
    return;
  }
  const file = resolveInside(root, pathname);
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('Not found');
    return;
  }
  const found = (await fileSize(file)) !== null ? file : extname(file) === '' ? join(resolve(root), 'index.html') : null;
  const size = found ? await fileSize(found) : null;
  if (!found || size === null) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('Not found');
    return;
  }
  const type = CONTENT_TYPES[extname(found).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    'content-type': type,
    'content-length': size,
    // index.html is tiny and names the hashed assets: never cache it.
    'cache-control': type.startsWith('text/html') ? 'no-store' : 'public, max-age=3600',
    ...SECURITY_HEADERS,
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(found)
    .on('error', () => res.destroy())
    .pipe(res);
}

/** The absolute file path for a URL path, or null when it would leave the root. */
export function resolveInside(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const base = resolve(root);
  const target = resolve(base, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  const rel = relative(base, target);
  if (rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel === '' ? join(base, 'index.html') : target;
}

async function fileSize(path: string): Promise<number | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}
