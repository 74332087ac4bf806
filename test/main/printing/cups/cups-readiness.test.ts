import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CupsTarget } from '../../../../src/main/printing/cups/cups-target';
import { PrintError } from '../../../../src/main/printing/errors';
import { runExecFile, type ExecFileRunner } from '../../../../src/main/process/exec';
import { ippGetPrinter } from '../../../../src/main/printing/ipp/ipp';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { labelSpoolRequest, startPrivateCups, type PrivateCups } from '../../../support/cups';
import { startIppProxy } from '../../../support/ipp-proxy';

/** Runs the real CUPS tools and records each command line. */
function recordingExec(): { exec: ExecFileRunner; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    exec: (file, args, options) => {
      calls.push([file, ...args]);
      return runExecFile(file, args, options);
    },
  };
}

/**
 * A scheduler that refuses the agent's own Get-Printer-Attributes (HTTP 403, as a policy
 * might) and passes everything else, including the CUPS tools' requests (lp asks for the
 * same attributes itself), through to the real cupsd.
 */
async function refusingProxy(upstream: string): Promise<{ server: string; refused: () => number; close: () => Promise<void> }> {
  const [host, port] = upstream.split(':');
  let refused = 0;
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length >= 4 && body.readUInt16BE(2) === 0x000b && !req.headers['user-agent']?.startsWith('CUPS/')) {
        refused++;
        res.writeHead(403).end();
        return;
      }
      const headers = { ...req.headers, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      delete headers.expect;
      const up = http.request({ host, port: Number(port), method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      }),
  };
}

const request = (pdf: Uint8Array): SpoolRequest => labelSpoolRequest('rdy', pdf);

async function spoolError(target: CupsTarget, pdf: Uint8Array): Promise<PrintError> {
  const error = await target.spool(request(pdf)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PrintError);
  return error as PrintError;
}

describe('CupsTarget readiness over IPP', () => {
  let cups: PrivateCups;
  let pdf: Uint8Array;

  beforeAll(async () => {
    cups = await startPrivateCups({
      queues: [
        { name: 'fast', kind: 'sink' },
        { name: 'Desk_Zebra', kind: 'sink', description: 'Desk Zebra' },
        { name: 'off_reason', kind: 'sink' },
        { name: 'off_plain', kind: 'sink' },
        { name: 'shut_reason', kind: 'sink' },
        { name: 'shut_plain', kind: 'sink' },
        { name: 'both', kind: 'sink' },
        { name: 'via_proxy', kind: 'sink' },
      ],
    });
    const doc = await PDFDocument.create();
    doc.addPage([288, 432]);
    pdf = await doc.save();
  });

  afterAll(async () => {
    await cups?.stop();
  });

  it.each([
    ['ipp', 0],
    ['lp', 5],
  ] as const)('spools each label with no lpstat per label (spool %s: %i lp processes for 5 labels)', async (spool, lpCount) => {
    const { exec, calls } = recordingExec();
    const t = new CupsTarget({ uri: 'cups:fast', queue: 'fast', env: cups.env, exec, spool });
    const before = (await cups.outputs('fast')).length;
    for (let i = 0; i < 5; i++) await t.spool(request(pdf));
    expect(calls.filter((c) => c[0] === 'lp')).toHaveLength(lpCount);
    // Only the scheduler's address, once: readiness is an IPP request.
    expect(calls.filter((c) => c[0] === 'lpstat')).toEqual([['lpstat', '-H']]);
    expect(await t.readiness()).toEqual({ ready: true, detail: null });
    expect(calls.filter((c) => c[0] === 'lpstat')).toHaveLength(1);
    await cups.waitForOutputs('fast', before + 5);
  });

  it('resolves a described queue once per target, not once per label', async () => {
    const { exec, calls } = recordingExec();
    const t = new CupsTarget({ uri: 'cups:Desk Zebra', queue: 'Desk Zebra', env: cups.env, exec });
    for (let i = 0; i < 3; i++) expect((await t.spool(request(pdf))).spoolerJobId).toMatch(/^Desk_Zebra-\d+$/);
    const lpstat = calls.filter((c) => c[0] === 'lpstat').map((c) => c.slice(1).join(' '));
    expect(lpstat.sort()).toEqual(['-H', '-l -p']);
  });

  it('reports a disabled queue as before: PRINTER_DISABLED, with the reason unless it is only "Paused"', async () => {
    await cups.disable('off_reason', 'Media empty');
    await cups.disable('off_plain');
    const { exec, calls } = recordingExec();
    const withReason = new CupsTarget({ uri: 'cups:off_reason', queue: 'off_reason', env: cups.env, exec });
    const expected = `CUPS queue "off_reason" is disabled (Media empty): run \`cupsenable 'off_reason'\` or enable it in printer settings.`;
    const message = { code: 'printer.cupsDisabled', params: { queue: 'off_reason', reason: 'Media empty' } };
    expect(await withReason.readiness()).toEqual({ ready: false, detail: expected, message });
    const error = await spoolError(withReason, pdf);
    expect(error.code).toBe('PRINTER_DISABLED');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(expected);
    expect(await spoolError(new CupsTarget({ uri: 'cups:off_plain', queue: 'off_plain', env: cups.env, exec }), pdf)).toMatchObject({
      code: 'PRINTER_DISABLED',
      message: `CUPS queue "off_plain" is disabled: run \`cupsenable 'off_plain'\` or enable it in printer settings.`,
    });
    // Nothing was handed to lp, and readiness did not spawn lpstat -p.
    expect(calls.filter((c) => c[0] === 'lp' || (c[0] === 'lpstat' && c[1] !== '-H'))).toEqual([]);
    await cups.enable('off_reason');
    expect(await withReason.readiness()).toEqual({ ready: true, detail: null });
  });

  it('reports a rejecting queue as before: PRINTER_REJECTING, with the reason unless it is only "Rejecting Jobs"', async () => {
    await cups.reject('shut_reason', 'Maintenance');
    await cups.reject('shut_plain');
    const { exec, calls } = recordingExec();
    const withReason = new CupsTarget({ uri: 'cups:shut_reason', queue: 'shut_reason', env: cups.env, exec });
    const expected = `CUPS queue "shut_reason" is not accepting jobs (Maintenance): run \`cupsaccept 'shut_reason'\` or accept jobs in printer settings.`;
    const message = { code: 'printer.cupsRejecting', params: { queue: 'shut_reason', reason: 'Maintenance' } };
    expect(await withReason.readiness()).toEqual({ ready: false, detail: expected, message });
    expect(await spoolError(withReason, pdf)).toMatchObject({ code: 'PRINTER_REJECTING', retryable: true, message: expected });
    expect(await spoolError(new CupsTarget({ uri: 'cups:shut_plain', queue: 'shut_plain', env: cups.env, exec }), pdf)).toMatchObject({
      code: 'PRINTER_REJECTING',
      message: `CUPS queue "shut_plain" is not accepting jobs: run \`cupsaccept 'shut_plain'\` or accept jobs in printer settings.`,
    });
    expect(calls.filter((c) => c[0] === 'lp' || (c[0] === 'lpstat' && c[1] !== '-H'))).toEqual([]);
  });

  it('says "disabled" first for a queue that is disabled and rejecting, as lpstat did', async () => {
    await cups.reject('both', 'Jam');
    await cups.disable('both', 'Jam');
    const t = new CupsTarget({ uri: 'cups:both', queue: 'both', env: cups.env });
    expect((await t.readiness()).detail).toBe(
      `CUPS queue "both" is disabled (Jam): run \`cupsenable 'both'\` or enable it in printer settings.`,
    );
    const printer = await ippGetPrinter({ server: cups.server }, 'both');
    expect(printer).toMatchObject({ name: 'both', state: 'stopped', stateMessage: 'Jam', acceptingJobs: false });
    expect(printer!.stateReasons).toContain('paused');
  });

  it('reports a missing queue as PRINTER_NOT_FOUND (not retryable) without asking lpstat', async () => {
    const { exec, calls } = recordingExec();
    const t = new CupsTarget({ uri: 'cups:gone', queue: 'gone', env: cups.env, exec });
    const expected = 'CUPS queue "gone" does not exist: check the name with `lpstat -p` or choose another printer in settings.';
    expect(await t.readiness()).toEqual({
      ready: false,
      detail: expected,
      message: { code: 'printer.cupsNotFound', params: { queue: 'gone' } },
    });
    expect(await spoolError(t, pdf)).toMatchObject({ code: 'PRINTER_NOT_FOUND', retryable: false, message: expected });
    expect(calls.map((c) => c.slice(0, 2).join(' '))).toEqual(['lpstat -H']);
    expect(await ippGetPrinter({ server: cups.server }, 'gone')).toBeNull();
  });

  it('reports an unreachable scheduler as SPOOLER_UNAVAILABLE (retryable), by address or through CUPS_SERVER', async () => {
    const byServer = new CupsTarget({ uri: 'cups:fast@127.0.0.1:1', queue: 'fast', server: '127.0.0.1:1', env: cups.env });
    const expected =
      'Cannot reach 127.0.0.1:1 to print to cups:fast@127.0.0.1:1: start CUPS (systemctl start cups) or check the server address.';
    const message = { code: 'printer.cupsUnreachable', params: { server: '127.0.0.1:1', printer: 'cups:fast@127.0.0.1:1' } };
    expect(await byServer.readiness()).toEqual({ ready: false, detail: expected, message });
    expect(await spoolError(byServer, pdf)).toMatchObject({ code: 'SPOOLER_UNAVAILABLE', retryable: true, message: expected });
    const byEnv = new CupsTarget({ uri: 'cups:fast', queue: 'fast', env: { ...cups.env, CUPS_SERVER: '127.0.0.1:1' } });
    expect(await spoolError(byEnv, pdf)).toMatchObject({
      code: 'SPOOLER_UNAVAILABLE',
      message: 'Cannot reach 127.0.0.1:1 to print to cups:fast: start CUPS (systemctl start cups) or check the server address.',
    });
  });

  it('asks over IPP again once ippRetryMs has passed after a refusal, instead of staying on lpstat until restart (N8)', async () => {
    const proxy = await refusingProxy(cups.server);
    try {
      const { exec, calls } = recordingExec();
      let now = 1_000_000;
      const t = new CupsTarget({
        uri: `cups:fast@${proxy.server}`,
        queue: 'fast',
        server: proxy.server,
        env: cups.env,
        exec,
        ippRetryMs: 60_000,
        nowMs: () => now,
      });
      expect(await t.readiness()).toEqual({ ready: true, detail: null });
      expect(proxy.refused()).toBe(1);
      const lpstats = () => calls.filter((c) => c[0] === 'lpstat').length;
      expect(lpstats()).toBe(1);
      // Within the retry window lpstat answers and IPP is not asked.
      now += 59_000;
      expect(await t.readiness()).toEqual({ ready: true, detail: null });
      expect([proxy.refused(), lpstats()]).toEqual([1, 2]);
      // After it IPP is asked again (here refused again: lpstat answers once more).
      now += 2_000;
      expect(await t.readiness()).toEqual({ ready: true, detail: null });
      expect([proxy.refused(), lpstats()]).toEqual([2, 3]);
    } finally {
      await proxy.close();
    }
    // A scheduler that stopped refusing is asked over IPP from then on: no lpstat at all.
    const { exec, calls } = recordingExec();
    let now = 0;
    const direct = new CupsTarget({
      uri: `cups:fast@${cups.server}`,
      queue: 'fast',
      server: cups.server,
      env: cups.env,
      exec,
      ippRetryMs: 10,
      nowMs: () => now,
    });
    (direct as unknown as { ippRefusedAt: number | null }).ippRefusedAt = 0;
    expect(await direct.readiness()).toEqual({ ready: true, detail: null });
    now = 11;
    expect(await direct.readiness()).toEqual({ ready: true, detail: null });
    expect(await direct.readiness()).toEqual({ ready: true, detail: null });
    expect(calls.filter((c) => c[0] === 'lpstat').map((c) => c.slice(1).join(' '))).toEqual([`-h ${cups.server} -p fast -a fast`]);
  });

  it('keeps the start-CUPS advice when the scheduler is unreachable while looking a job up or following it', async () => {
    const t = new CupsTarget({ uri: 'cups:fast@127.0.0.1:1', queue: 'fast', server: '127.0.0.1:1', env: cups.env });
    const expected =
      'Cannot reach 127.0.0.1:1 to print to cups:fast@127.0.0.1:1: start CUPS (systemctl start cups) or check the server address.';
    await expect(t.findSpooled('job-1')).rejects.toMatchObject({ code: 'SPOOLER_UNAVAILABLE', message: expected, printerDown: true });
    await expect(t.jobState('fast-12')).rejects.toMatchObject({ code: 'SPOOLER_UNAVAILABLE', message: expected });
    await expect(t.jobStates(['fast-12', 'fast-13'])).rejects.toMatchObject({ code: 'SPOOLER_UNAVAILABLE', message: expected });
  });

  it('takes an IPP status refusal of the readiness query for a refusal (lpstat answers), not for an unreachable scheduler', async () => {
    const proxy = await startIppProxy(cups.server);
    proxy.decide = (r) => (r.operation === 0x000b && !r.userAgent.startsWith('CUPS/') ? { ipp: 0x0401, message: 'Forbidden' } : 'pass');
    try {
      const { exec, calls } = recordingExec();
      const t = new CupsTarget({ uri: `cups:via_proxy@${proxy.server}`, queue: 'via_proxy', server: proxy.server, env: cups.env, exec });
      expect(await t.readiness()).toEqual({ ready: true, detail: null });
      expect(calls.filter((c) => c[0] === 'lpstat')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('falls back to lpstat, with the same answers, when the scheduler refuses the IPP query', async () => {
    const proxy = await refusingProxy(cups.server);
    try {
      const { exec, calls } = recordingExec();
      const t = new CupsTarget({ uri: `cups:via_proxy@${proxy.server}`, queue: 'via_proxy', server: proxy.server, env: cups.env, exec });
      expect(await t.readiness()).toEqual({ ready: true, detail: null });
      expect((await t.spool(request(pdf))).spoolerJobId).toMatch(/^via_proxy-\d+$/);
      // A job finishing after cupsdisable would replace the state message with its own.
      await cups.waitForJobs({ queue: 'via_proxy' });
      await cups.disable('via_proxy', 'Out of labels');
      expect(await spoolError(t, pdf)).toMatchObject({
        code: 'PRINTER_DISABLED',
        message: `CUPS queue "via_proxy" is disabled (Out of labels): run \`cupsenable 'via_proxy'\` or enable it in printer settings.`,
      });
      // Refused once, then lpstat answers without asking over IPP again.
      expect(proxy.refused()).toBe(1);
      expect(calls.filter((c) => c[0] === 'lpstat').map((c) => c.slice(1).join(' '))).toEqual([
        `-h ${proxy.server} -p via_proxy -a via_proxy`,
        `-h ${proxy.server} -p via_proxy -a via_proxy`,
        `-h ${proxy.server} -p via_proxy -a via_proxy`,
      ]);
      await cups.enable('via_proxy');
    } finally {
      await proxy.close();
    }
  });
});
