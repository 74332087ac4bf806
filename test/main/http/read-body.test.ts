import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody, TOO_LARGE } from '../../../src/main/http/read-body';

let server: Server | null = null;

afterEach(async () => {
  const closing = server;
  server = null;
  if (!closing) return;
  await new Promise<void>((resolve) => {
    closing.close(() => resolve());
    closing.closeAllConnections();
  });
});

/** A loopback server that reads each body with `limit` and reports what readBody gave. */
async function serve(limit: number, seen: Array<string | 'TOO_LARGE' | 'ERROR'>): Promise<number> {
  server = createServer((req, res) => {
    readBody(req, limit).then(
      (body) => {
        seen.push(body === TOO_LARGE ? 'TOO_LARGE' : body.toString('utf8'));
        res.end(body === TOO_LARGE ? 'too large' : 'ok');
        if (body === TOO_LARGE) req.resume();
      },
      () => seen.push('ERROR'),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server!.address() as AddressInfo).port;
}

function post(port: number, chunks: string[], headers: Record<string, string | number> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('readBody', () => {
  it('gives the whole body, across chunks, and an empty one', async () => {
    const seen: Array<string> = [];
    const port = await serve(16, seen);
    expect(await post(port, ['{"a":', '"ü"}'])).toBe('ok');
    expect(await post(port, [])).toBe('ok');
    expect(seen).toEqual(['{"a":"ü"}', '']);
  });

  it('takes a body of exactly the limit', async () => {
    const seen: Array<string> = [];
    const port = await serve(8, seen);
    await post(port, ['12345678']);
    expect(seen).toEqual(['12345678']);
  });

  it('refuses a declared length over the limit before any of the body arrives', async () => {
    const seen: Array<string> = [];
    const port = await serve(8, seen);
    // The headers promise 9 bytes and none follow: only the declared length can answer.
    expect(await post(port, [], { 'content-length': 9 })).toBe('too large');
    expect(seen).toEqual(['TOO_LARGE']);
  }, 5000);

  it('refuses a chunked body once it passes the limit', async () => {
    const seen: Array<string> = [];
    const port = await serve(8, seen);
    expect(await post(port, ['12345', '6789', 'abc'], { 'transfer-encoding': 'chunked' })).toBe('too large');
    expect(seen).toEqual(['TOO_LARGE']);
  });

  it('rejects when the client goes away mid-body', async () => {
    const seen: Array<string> = [];
    const port = await serve(1024, seen);
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'content-length': 100 } });
    req.on('error', () => {});
    req.write('partial');
    await new Promise((r) => setTimeout(r, 50));
    req.destroy();
    await expect.poll(() => seen).toEqual(['ERROR']);
  });
});
