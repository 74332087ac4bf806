import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRINT_ERROR_CODES, PrintError } from '../../../../src/main/printing/errors';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { ZPL_UNCONFIRMED_NOTE, ZplTarget } from '../../../../src/main/printing/zpl/zpl-target';
import { renderTestPage } from '../../../../src/main/agent/test-page';
import { waitFor } from '../../../support/agent-harness';
import { startZplPrinter, type ZplPrinter } from '../../../support/zpl-printer';

let printer: ZplPrinter;
let pdf: Uint8Array;
beforeEach(async () => {
  printer = await startZplPrinter();
  pdf = await renderTestPage('printer', 'zpl://test', new Date('2026-11-26T06:00:00Z'));
});
afterEach(async () => {
  await printer.close();
});

function target(query = '?dpi=203', options: { timeoutMs?: number; answerTimeoutMs?: number } = {}): ZplTarget {
  return new ZplTarget({
    uri: `zpl://127.0.0.1:${printer.port}${query}`,
    host: '127.0.0.1',
    port: printer.port,
    dpi: query === '' ? null : 203,
    statusEveryMs: 0,
    ...options,
  });
}

function request(overrides: Partial<SpoolRequest> = {}): SpoolRequest {
  return {
    jobId: 'job1',
    title: 'print-station job1',
    pdf,
    media: 'label',
    copies: 1,
    shipmentId: 's1',
    documentType: 'label',
    layout: 'printer',
    ...overrides,
  };
}

async function caught(promise: Promise<unknown>): Promise<PrintError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PrintError);
  return error as PrintError;
}

describe('zpl:// printers', () => {
  it('asks ~HS before the labels and after them, on one connection, and counts a job printed only once the printer has drained', async () => {
    printer.set({ msPerLabel: 150 });
    const zpl = target();
    const spooled = await zpl.spool(request({ copies: 3 }));
    expect(spooled.completed).toBe(false);
    // ~HI once (the printer's identity, for the test label), then the job's own connection.
    expect(printer.connections()).toBe(2);
    expect(printer.labelConnections()).toBe(1);
    expect(printer.received().toString('latin1')).toMatch(/^~HI~HS\^XA[^~]*\^XZ\n~HS$/);
    expect(printer.formats).toHaveLength(1);
    expect(printer.formats[0]).toMatch(/^\^XA\^PW812\^LL1218\^.*\^PQ3,/);
    // Bytes sent is not printed: three labels at 150 ms each are still printing.
    expect(await zpl.jobState(spooled.spoolerJobId!)).toBe('printing');
    await waitFor(async () => (await zpl.jobState(spooled.spoolerJobId!)) === 'completed', 'the labels printed', 5000);
    expect(printer.printed).toHaveLength(3);
  });

  it('asks the resolution with ~HI when the URI does not say it', async () => {
    printer.set({ dotsPerMm: 12, model: 'ZT411-300dpi' });
    await target('').spool(request());
    expect(printer.questions).toEqual(['~HI', '~HS', '~HS']);
    expect(printer.formats[0]).toMatch(/^\^XA\^PW1200\^LL1800\^/);
  });

  it('prints the test page as the ZPL test label with the printer’s identity', async () => {
    const zpl = target('');
    await zpl.spool(request({ documentType: 'testpage', shipmentId: 'test-page' }));
    expect(printer.formats[0]).toContain('Printer identity: ZD421-203dpi V92.21.39Z, 8 dots/mm');
    expect(printer.formats[0]).toContain('Rendered at: 203 dpi');
  });

  it.each([
    [{ paperOut: true }, /paper out.*media/],
    [{ headUp: true }, /head open/],
    [{ ribbonOut: true }, /ribbon out/],
    [{ paused: true }, /paused/],
    [{ bufferFull: true }, /buffer full/],
  ])('refuses a job while the printer reports %o, sends nothing, and says so in readiness', async (state, words) => {
    printer.set(state);
    const zpl = target('');
    const error = await caught(zpl.spool(request()));
    expect(error.code).toBe(PRINT_ERROR_CODES.PRINTER_DISABLED);
    expect(error.printerDown).toBe(true);
    expect(error.message).toMatch(words);
    expect(printer.formats).toEqual([]);
    const readiness = await zpl.readiness();
    expect(readiness.ready).toBe(false);
    expect(readiness.detail).toMatch(words);
    expect(readiness.detail).toContain('ZD421-203dpi');
    printer.set({ paperOut: false, headUp: false, ribbonOut: false, paused: false, bufferFull: false });
    expect(await zpl.readiness()).toEqual({ ready: true, detail: null });
  });

  it.each([
    [{ paperOut: true }, /paper out/],
    [{ headUp: true }, /head open/],
    [{ ribbonOut: true }, /ribbon out/],
  ])('asks ~HQES when a faulted printer leaves ~HS unanswered (%o), and says what it reports', async (state, words) => {
    printer.set({ quietWhenFaulted: true, ...state });
    const zpl = new ZplTarget({ uri: `zpl://127.0.0.1:${printer.port}`, host: '127.0.0.1', port: printer.port, answerTimeoutMs: 300 });
    const readiness = await zpl.readiness();
    expect(readiness.ready).toBe(false);
    expect(readiness.detail).toMatch(words);
    expect(readiness.detail).not.toMatch(/does not answer/);
    const error = await caught(zpl.spool(request()));
    expect(error.code).toBe(PRINT_ERROR_CODES.PRINTER_DISABLED);
    expect(printer.formats).toEqual([]);
    expect(printer.questions).toContain('~HQES');
    printer.set({ paperOut: false, headUp: false, ribbonOut: false });
    expect((await zpl.readiness()).ready).toBe(true);
  });

  it('opens one connection at a time: readiness asked while a job is being sent waits its turn', async () => {
    const zpl = target();
    await zpl.readiness();
    let most = 0;
    const spooling = zpl.spool(request({ copies: 1 }));
    const asking = Promise.all([zpl.readiness(), zpl.readiness(), zpl.jobStates([])]);
    const watch = setInterval(() => {
      most = Math.max(most, printer.openConnections());
    }, 1);
    await Promise.all([spooling, asking]);
    clearInterval(watch);
    expect(most).toBeLessThanOrEqual(1);
    expect(printer.formats).toHaveLength(1);
  });

  it('counts a printer that refuses the connection as down', async () => {
    await printer.stop();
    const zpl = target();
    const error = await caught(zpl.spool(request()));
    expect(error.code).toBe(PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE);
    expect(error.printerDown).toBe(true);
    expect(error.message).toMatch(/does not answer \(connection refused\): check that it is switched on/);
    expect((await zpl.readiness()).detail).toMatch(/does not answer/);
    await printer.start();
    expect((await zpl.readiness()).ready).toBe(true);
  });

  it('sends the labels to a device that takes connections but never answers (a plain 9100 sink): spooled, not followed, and readiness says it cannot report its state', async () => {
    printer.set({ silent: true });
    const zpl = target('?dpi=203', { answerTimeoutMs: 300 });
    const spooled = await zpl.spool(request());
    expect(spooled).toEqual({ spoolerJobId: null, completed: false, note: ZPL_UNCONFIRMED_NOTE });
    expect(printer.questions).toEqual(['~HI', '~HS', '~HQES', '~HS']);
    await waitFor(() => printer.formats.length === 1, 'the label arrived', 2000);
    // A second label is not held back by the full wait again: ~HS only, half a second.
    const started = Date.now();
    expect((await zpl.spool(request({ jobId: 'job2' }))).spoolerJobId).toBeNull();
    expect(Date.now() - started).toBeLessThan(1500);
    const readiness = await zpl.readiness();
    expect(readiness.ready).toBe(true);
    expect(readiness.detail).toMatch(/does not report its state/);
    // Once it answers, it is followed as any other.
    printer.set({ silent: false });
    expect(await zpl.readiness()).toEqual({ ready: true, detail: null });
    expect((await zpl.spool(request({ jobId: 'job3' }))).spoolerJobId).not.toBeNull();
  });

  it('counts a printer that answered ~HS and then falls silent as down, not as a sink: its labels wait', async () => {
    const zpl = target('?dpi=203', { answerTimeoutMs: 300 });
    expect(await zpl.readiness()).toEqual({ ready: true, detail: null });
    printer.set({ silent: true });
    const readiness = await zpl.readiness();
    expect(readiness.ready).toBe(false);
    expect(readiness.detail).toMatch(/does not answer \(no answer to ~HS within 300 ms\)/);
    const error = await caught(zpl.spool(request()));
    expect(error.printerDown).toBe(true);
    expect(printer.formats).toEqual([]);
    printer.set({ silent: false });
    expect((await zpl.spool(request())).spoolerJobId).not.toBeNull();
  });

  it('renders at 203 dpi when ~HI goes unanswered and the URI has no ?dpi=, and readiness says to set it', async () => {
    printer.set({ silentHi: true });
    const zpl = target('', { answerTimeoutMs: 300 });
    const spooled = await zpl.spool(request());
    expect(spooled.spoolerJobId).not.toBeNull();
    expect(printer.formats[0]).toMatch(/^\^XA\^PW812\^LL1218\^/);
    const readiness = await zpl.readiness();
    expect(readiness.ready).toBe(true);
    expect(readiness.detail).toMatch(/no answer to ~HI\): labels are rendered at 203 dpi.*\?dpi=300/);
    // Asked once: later jobs do not wait for it again.
    await zpl.spool(request({ jobId: 'job2' }));
    expect(printer.questions.filter((q) => q === '~HI')).toHaveLength(1);
  });

  it.each(['lines-crlf', 'lines-lf'] as const)('reads ~HS and ~HI answered without STX/ETX, one line each (%s)', async (framing) => {
    printer.set({ framing, dotsPerMm: 12, model: 'Clone-300' });
    const zpl = target('', { answerTimeoutMs: 1000 });
    printer.set({ paperOut: true });
    const readiness = await zpl.readiness();
    expect(readiness.ready).toBe(false);
    expect(readiness.detail).toMatch(/Clone-300.*paper out/);
    printer.set({ paperOut: false });
    const spooled = await zpl.spool(request());
    expect(printer.formats[0]).toMatch(/^\^XA\^PW1200\^LL1800\^/);
    await waitFor(async () => (await zpl.jobState(spooled.spoolerJobId!)) === 'completed', 'the label printed', 5000);
  });

  it('follows a printer that closes the connection right after the data: no false failure, completed once drained', async () => {
    printer.set({ closeAfterFormat: true, msPerLabel: 100 });
    const zpl = target();
    const spooled = await zpl.spool(request({ copies: 2 }));
    expect(printer.formats).toHaveLength(1);
    expect(await zpl.jobState(spooled.spoolerJobId!)).toBe('printing');
    await waitFor(async () => (await zpl.jobState(spooled.spoolerJobId!)) === 'completed', 'the labels printed', 5000);
    expect(printer.printed).toHaveLength(2);
  });

  it('sends once to a printer that answers ~HS after the job data only once it has printed it, waits for that answer, and follows it to completed', async () => {
    printer.set({ statusAfterData: true, msPerLabel: 600 });
    const zpl = target('?dpi=203', { answerTimeoutMs: 300 });
    const started = performance.now();
    const spooled = await zpl.spool(request());
    // Its answer after the labels is waited for past the answer time, a label's printing time longer.
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
    expect(printer.printed).toHaveLength(1);
    expect(spooled.spoolerJobId).not.toBeNull();
    await waitFor(async () => (await zpl.jobState(spooled.spoolerJobId!)) === 'completed', 'the label printed', 5000);
    expect(printer.formats).toHaveLength(1);
    expect(printer.printed).toHaveLength(1);
  });

  it('waits for a slow printer within the answer time', async () => {
    printer.set({ answerDelayMs: 400 });
    const zpl = target('', { answerTimeoutMs: 1500 });
    expect(await zpl.readiness()).toEqual({ ready: true, detail: null });
    const spooled = await zpl.spool(request());
    await waitFor(async () => (await zpl.jobState(spooled.spoolerJobId!)) === 'completed', 'the label printed', 5000);
    expect(printer.formats).toHaveLength(1);
  });
});

describe('a device on the port that is not a ZPL printer', () => {
  it('is not ready, and what it sends is not kept without end', async () => {
    const net = await import('node:net');
    const chatty = net.createServer((socket) => {
      socket.on('error', () => undefined);
      const junk = Buffer.alloc(16 * 1024, 0x41);
      const flood = (): void => {
        if (!socket.destroyed && socket.write(junk)) setImmediate(flood);
        else if (!socket.destroyed) socket.once('drain', flood);
      };
      flood();
    });
    await new Promise<void>((resolve) => chatty.listen(0, '127.0.0.1', resolve));
    const port = (chatty.address() as import('node:net').AddressInfo).port;
    try {
      const zpl = new ZplTarget({ uri: `zpl://127.0.0.1:${port}`, host: '127.0.0.1', port, answerTimeoutMs: 2000 });
      const readiness = await zpl.readiness();
      expect(readiness.ready).toBe(false);
      expect(readiness.detail).toMatch(/more than a ZPL printer answers/);
    } finally {
      await new Promise<void>((resolve) => chatty.close(() => resolve()));
    }
  });
});
