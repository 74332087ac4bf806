/**
 * The printer lists answer within a moment whatever a printer does: an ipp:// printer that
 * drips its answer a byte at a time is shown from what is known, and its question is asked
 * once at a time in the background.
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTarget } from '../../../src/main/printing/create-target';
import { closeIppConnections } from '../../../src/main/printing/ipp/ipp-connection';
import { readinessWithin } from '../../../src/main/printing/readiness-within';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('readinessWithin', () => {
  it('answers within the wait for an ipp:// printer that drips, and asks it once at a time', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/ipp' });
      const drip = setInterval(() => res.write(Buffer.from([1])), 300);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    cleanups.push(closeIppConnections);
    const target = createTarget(`ipp://127.0.0.1:${(server.address() as AddressInfo).port}/ipp/print`);
    const started = Date.now();
    const first = await readinessWithin(target, 'label', 500);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(first).toEqual({ ready: false, detail: 'the printer has not answered within 500 ms: still asking it' });
    // A second list while the first question still drips does not ask again, nor wait for it
    // again: the question has been out longer than the wait already.
    const again = Date.now();
    await readinessWithin(target, 'label', 500);
    expect(Date.now() - again).toBeLessThan(200);
    expect(requests).toBe(1);
  });

  it('gives a printer’s own answer when it comes in time, and keeps it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'readiness-within-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const target = createTarget(`folder:${dir}`);
    const answer = await readinessWithin(target, 'label');
    expect(answer).toEqual(await target.readiness('label'));
    expect(answer.ready).toBe(true);
  });
});
