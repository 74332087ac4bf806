/**
 * Hostile IPP devices on loopback: one that drips its answer a byte at a time (a total
 * deadline, not an idle timeout, ends the exchange) and one that answers without end (reading
 * stops at the size limit and the connection is dropped, memory stays bounded).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIppConnections, ippPost, IppAnswerTooLargeError } from '../../../../src/main/printing/ipp/ipp-connection';

const servers: http.Server[] = [];

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await closeIppConnections();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('ippPost against hostile devices', () => {
  it('gives up on an answer dripped one byte every 200 ms once the total deadline passes', async () => {
    const server = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/ipp' });
      const drip = setInterval(() => res.write(Buffer.from([0])), 200);
      res.on('close', () => clearInterval(drip));
    });
    const started = Date.now();
    await expect(ippPost(server, '/ipp/print', new Uint8Array(8), { timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    // Idle time never exceeds 200 ms here: only a total deadline ends it.
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('stops reading an endless answer at the size limit and drops the connection', async () => {
    let written = 0;
    const server = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/ipp' });
      const block = Buffer.alloc(64 * 1024);
      // Up to 1 GB, as fast as the agent reads it.
      const pump = (): void => {
        while (written < 1024 ** 3) {
          written += block.length;
          if (!res.write(block)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const before = process.memoryUsage().rss;
    const error = await ippPost(server, '/ipp/print', new Uint8Array(8), { timeoutMs: 20_000, maxAnswerBytes: 1024 * 1024 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IppAnswerTooLargeError);
    expect((error as Error).message).toMatch(/over 1024 KB/);
    expect(written).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a declared content-length over the limit without reading the body', async () => {
    const server = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/ipp', 'content-length': String(1024 ** 3) });
      res.write(Buffer.alloc(1024));
    });
    await expect(ippPost(server, '/ipp/print', new Uint8Array(8), { timeoutMs: 5_000 })).rejects.toBeInstanceOf(IppAnswerTooLargeError);
  });

  it('still reads an ordinary answer whole', async () => {
    const server = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/ipp' });
      res.end(Buffer.alloc(100_000, 7));
    });
    const answer = await ippPost(server, '/ipp/print', new Uint8Array(8));
    expect(answer.length).toBe(100_000);
  });
});
