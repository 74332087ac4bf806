/**
 * Hostile IPP answers inside the 4 MB answer cap: a Get-Printer-Attributes with hundreds of
 * thousands of attributes, a Get-Jobs with a hundred thousand jobs, collections nested a
 * million deep. Decoding stops at the codec's bounds (50,000 attributes and values, 16 levels),
 * which is what keeps their memory to a few tens of MB, and never overflows the stack: the
 * printer is "not ready" or its jobs cannot be asked about, in words. (The memory itself is not
 * asserted here: a process's RSS and heap move with the garbage collector from run to run.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TAG } from '../../../../src/main/printing/ipp/ipp-codec';
import { closeIppConnections, IPP_MAX_ANSWER_BYTES } from '../../../../src/main/printing/ipp/ipp-connection';
import { IppTarget } from '../../../../src/main/printing/ipp/ipp-target';
import { ippUriRef } from '../../../../src/main/printing/ipp/ipp';

const servers: http.Server[] = [];
afterEach(async () => {
  await closeIppConnections();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A printer on loopback that answers every request with `answer` (its request id patched in). */
async function printerAnswering(answer: Buffer): Promise<IppTarget> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = Buffer.concat(chunks);
      const out = Buffer.from(answer);
      if (request.length >= 8) request.copy(out, 4, 4, 8);
      res.writeHead(200, { 'content-type': 'application/ipp', 'content-length': out.length });
      res.end(out);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const uri = `ipp://127.0.0.1:${(server.address() as AddressInfo).port}/ipp/print`;
  return new IppTarget({ uri, ref: { ...ippUriRef(uri)!, printerUri: uri } });
}

/** One attribute: tag, name, value. */
function attr(tag: number, name: string, value: Buffer): Buffer {
  const head = Buffer.alloc(3);
  head.writeUInt8(tag, 0);
  head.writeUInt16BE(name.length, 1);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(value.length, 0);
  return Buffer.concat([head, Buffer.from(name, 'latin1'), length, value]);
}

function int(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n, 0);
  return b;
}

/** A successful answer: the operation group's charset and language, then `body`, filled up to just under the cap. */
function answerOf(parts: (i: number) => Buffer): Buffer {
  const head = Buffer.concat([
    Buffer.from([1, 1, 0, 0, 0, 0, 0, 1, TAG.operation]),
    attr(0x47, 'attributes-charset', Buffer.from('utf-8')),
    attr(0x48, 'attributes-natural-language', Buffer.from('en')),
  ]);
  const chunks: Buffer[] = [head];
  let size = head.length;
  for (let i = 0; ; i++) {
    const part = parts(i);
    if (size + part.length + 1 > IPP_MAX_ANSWER_BYTES - 16) break;
    chunks.push(part);
    size += part.length;
  }
  chunks.push(Buffer.from([TAG.end]));
  return Buffer.concat(chunks);
}

describe('IPP answers with thousands of attributes', () => {
  it('Get-Printer-Attributes with hundreds of thousands of attribute names: not ready, in words, memory bounded', async () => {
    const answer = answerOf((i) => Buffer.concat([i === 0 ? Buffer.from([TAG.printer]) : Buffer.alloc(0), attr(0x21, `x${i}`, int(i))]));
    const target = await printerAnswering(answer);
    const value = await target.readiness();
    expect(value.ready).toBe(false);
    expect(value.detail).toMatch(/more than 50000 attributes and values: not a printer's answer/);
  });

  it('Get-Jobs with a hundred thousand jobs: the jobs cannot be asked about, in words, memory bounded', async () => {
    const answer = answerOf((i) =>
      Buffer.concat([Buffer.from([TAG.job]), attr(0x21, 'job-id', int(i + 1000)), attr(0x23, 'job-state', int(5))]),
    );
    const target = await printerAnswering(answer);
    const value = await target.jobStates(['7']).catch((e: unknown) => e as Error);
    expect(value).toBeInstanceOf(Error);
    expect((value as Error).message).toMatch(/more than 50000 attributes and values: not a printer's answer/);
  });

  it('collections nested a million deep: not ready, in words, no stack overflow', async () => {
    const nested = Buffer.concat([attr(TAG.memberAttrName, '', Buffer.from('a')), attr(TAG.begCollection, '', Buffer.alloc(0))]);
    const answer = answerOf((i) =>
      i === 0 ? Buffer.concat([Buffer.from([TAG.printer]), attr(TAG.begCollection, 'media-col-default', Buffer.alloc(0))]) : nested,
    );
    const target = await printerAnswering(answer);
    const value = await target.readiness();
    expect(value.ready).toBe(false);
    expect(value.detail).toMatch(/nested deeper than \d+/);
  });
});
