/**
 * "Printed" is the printer's word: hostile raw-port devices on loopback. One resets the
 * connection with label bytes unread, one stops reading, one answers `~HS` with empty counts.
 * None of their jobs may come out `completed`.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRINT_ERROR_CODES, PrintError } from '../../../../src/main/printing/errors';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { ZplConnection, ZplConnectionError } from '../../../../src/main/printing/zpl/zpl-connection';
import { ZplTarget } from '../../../../src/main/printing/zpl/zpl-target';
import { parseHostStatus, drained, statesCounts } from '../../../../src/main/printing/zpl/zpl-status';
import { renderTestPage } from '../../../../src/main/agent/test-page';
import { hostStatusReply, startZplPrinter } from '../../../support/zpl-printer';

const READY = { paperOut: false, headUp: false, ribbonOut: false, paused: false, bufferFull: false } as Parameters<
  typeof hostStatusReply
>[0];

let pdf: Uint8Array;
const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
beforeEach(async () => {
  pdf = await renderTestPage('printer', 'zpl://test', new Date('2026-11-26T06:00:00Z'));
});
afterEach(async () => {
  // A device that stopped reading never notices the agent left: its sockets are closed here.
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A device on loopback; `onSocket` plays its part on each connection. */
async function device(onSocket: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    sockets.add(socket);
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function target(port: number, options: Partial<ConstructorParameters<typeof ZplTarget>[0]> = {}): ZplTarget {
  return new ZplTarget({
    uri: `zpl://127.0.0.1:${port}?dpi=203`,
    host: '127.0.0.1',
    port,
    dpi: 203,
    statusEveryMs: 0,
    answerTimeoutMs: 500,
    ...options,
  });
}

function request(): SpoolRequest {
  return { jobId: 'job1', title: 'job1', pdf, media: 'label', copies: 25, shipmentId: 's1', documentType: 'label', layout: 'printer' };
}

async function failure(promise: Promise<unknown>): Promise<PrintError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PrintError);
  return error as PrintError;
}

describe('a ZPL device that does not take the whole job', () => {
  it('closes the connection with label bytes unread: the job fails "may have printed", never completed', async () => {
    const port = await device((socket) => {
      socket.once('data', () => {
        // Answers ~HS as a ready printer, then reads nothing more and resets the connection.
        socket.write(hostStatusReply(READY, 0, 0, false), 'latin1');
        socket.pause();
        setTimeout(() => socket.resetAndDestroy(), 200);
      });
    });
    const error = await failure(target(port).spool(request()));
    expect(error.code).toBe(PRINT_ERROR_CODES.MAY_HAVE_PRINTED);
    expect(error.message).toMatch(/broke off while sending job job1.*may have printed/);
  });

  it('stops reading: the send has a deadline, the connection is dropped, and the job may have printed', async () => {
    let connections = 0;
    const port = await device((socket) => {
      connections += 1;
      socket.once('data', () => {
        socket.write(hostStatusReply(READY, 0, 0, false), 'latin1');
        socket.pause();
      });
    });
    const connection = await ZplConnection.open({ host: '127.0.0.1', port, timeoutMs: 1000 });
    await connection.ask('~HS', 3);
    const started = Date.now();
    // 64 MB never fits the socket buffers of a peer that stopped reading.
    const error = await connection.write(Buffer.alloc(64 * 1024 * 1024, 0x41), true, 800).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZplConnectionError);
    expect(error).toMatchObject({ reason: 'timeout', sent: true });
    expect((error as Error).message).toMatch(/stopped taking data: \d+ of 67108864 bytes/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(connection.usable).toBe(false);
    expect(connections).toBe(1);
  });
});

describe('~HS answers without numbers', () => {
  const blank = ['030,0,0,1218,,0,0,0,000,0,0,0', '001,0,0,0,0,2,6,0,,1,000', '1234,0'];

  it('is not drained', () => {
    const status = parseHostStatus(blank);
    expect(statesCounts(status)).toBe(false);
    expect(drained(status)).toBe(false);
    expect(drained(parseHostStatus(['030,0,0,1218,abc,0,0,0,000,0,0,0', '001,0,0,0,0,2,6,0,xyz,1,000', '1234,0']))).toBe(false);
    expect(drained(parseHostStatus(['030,0,0,1218,000,0,0,0,000,0,0,0', '001,0,0,0,0,2,6,0,00000000,1,000', '1234,0']))).toBe(true);
  });

  it('leaves a followed job "lost" (may have printed), not completed', async () => {
    let answers = 0;
    const port = await device((socket) => {
      socket.on('data', (chunk: Buffer) => {
        for (const _ of chunk.toString('latin1').matchAll(/~HS/g)) {
          answers += 1;
          // Honest before and right after the labels, then blank counts on the follow-up.
          const reply = answers <= 2 ? hostStatusReply(READY, 0, 0, false) : blank.map((s) => `\x02${s}\x03\r\n`).join('');
          socket.write(reply, 'latin1');
        }
      });
    });
    const zpl = target(port);
    const spooled = await zpl.spool(request());
    expect(spooled.spoolerJobId).not.toBeNull();
    expect(await zpl.jobState(spooled.spoolerJobId!)).toBe('lost');
  });
});

describe('label PDFs over the limits', () => {
  async function pdfOf(pages: number, widthIn: number, heightIn: number): Promise<Uint8Array> {
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    for (let i = 0; i < pages; i++) doc.addPage([widthIn * 72, heightIn * 72]);
    return doc.save();
  }

  it('refuses 2,000 pages and a 100-inch page before rendering: the job fails with the reason, nothing printed', async () => {
    const { startZplPrinter } = await import('../../../support/zpl-printer');
    const printer = await startZplPrinter();
    try {
      const zpl = target(printer.port);
      const many = await failure(zpl.spool({ ...request(), copies: 1, pdf: await pdfOf(2000, 4, 6) }));
      expect(many.code).toBe(PRINT_ERROR_CODES.UNSUPPORTED);
      expect(many.retryable).toBe(false);
      expect(many.message).toMatch(/2000 pages, more than the 100 a print request may have: nothing was printed/);
      const long = await failure(zpl.spool({ ...request(), copies: 1, pdf: await pdfOf(1, 4, 100) }));
      expect(long.message).toMatch(/page 1 of the label PDF is 4\.0 × 100\.0 in, larger than the 10 × 12 in/);
      expect(printer.formats).toEqual([]);
      // A 4x6 label of 100 pages is within the limits.
      const fine = await zpl.spool({ ...request(), copies: 1, pdf: await pdfOf(100, 4, 6) });
      expect(fine.spoolerJobId).not.toBeNull();
    } finally {
      await printer.close();
    }
  });
});

describe('a ZPL device that silently stops reading a small job', () => {
  it('reads 2 KB, then neither reads nor answers: the job is not completed but "may have printed", and nothing printed', async () => {
    const printer = await startZplPrinter({ stopReadingAfterBytes: 2048 });
    try {
      const zpl = target(printer.port, { answerTimeoutMs: 300 });
      const job = { ...request(), copies: 1 };
      const started = Date.now();
      const outcome = await zpl.spool(job).then(
        (result) => result,
        (e: unknown) => e,
      );
      // TCP took the few KB into its buffers: the send itself went through, no label was read whole.
      expect(printer.received().length).toBeGreaterThanOrEqual(2048);
      expect(printer.formats).toHaveLength(0);
      expect(outcome).toBeInstanceOf(PrintError);
      expect(outcome).toMatchObject({ code: PRINT_ERROR_CODES.MAY_HAVE_PRINTED, retryable: false });
      expect((outcome as PrintError).message).toMatch(
        /did not answer after the labels of job job1 \(no answer to ~HS within \d+ ms\): it may have printed: check the printer, then retry by hand/,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(printer.printed).toHaveLength(0);
    } finally {
      await printer.close();
    }
  });

  it('a printer that reads the whole job and answers after it still completes', async () => {
    const printer = await startZplPrinter();
    try {
      const zpl = target(printer.port, { answerTimeoutMs: 300 });
      const spooled = await zpl.spool({ ...request(), copies: 1 });
      await expect.poll(() => zpl.jobState(spooled.spoolerJobId!), { timeout: 5000 }).toBe('completed');
      expect(printer.printed).toHaveLength(1);
    } finally {
      await printer.close();
    }
  });
});
