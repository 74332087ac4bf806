import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CupsTarget, type CupsTargetOptions } from '../../../../src/main/printing/cups/cups-target';
import { runExecFile, type ExecFileRunner } from '../../../../src/main/process/exec';
import { ippGetJob } from '../../../../src/main/printing/ipp/ipp';
import { PrintError } from '../../../../src/main/printing/errors';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { startPrivateCups, type PrivateCups } from '../../../support/cups';
import { startIppProxy, type IppProxy, type IppProxyRequest } from '../../../support/ipp-proxy';

const PRINT_JOB = 0x0002;

function recordingExec(): { exec: ExecFileRunner; calls: string[][] } {
  const calls: string[][] = [];
  return { calls, exec: (file, args, options) => (calls.push([file, ...args]), runExecFile(file, args, options)) };
}

let seq = 0;
function request(pdf: Uint8Array, overrides: Partial<SpoolRequest> = {}): SpoolRequest {
  const jobId = `ipp${Date.now().toString(36)}x${++seq}`;
  const title = `Print Station ${jobId} SHP-${seq} label`;
  return { jobId, title, pdf, media: 'label', copies: 1, shipmentId: `SHP-${seq}`, documentType: 'label', layout: 'printer', ...overrides };
}

/** The agent's own Print-Job requests (lp sends its own, as `CUPS/…`). */
const agentPrintJob = (r: IppProxyRequest): boolean => r.operation === PRINT_JOB && !r.userAgent.startsWith('CUPS/');

describe('CupsTarget spooling over IPP Print-Job', () => {
  let cups: PrivateCups;
  let proxy: IppProxy;
  let pdf: Uint8Array;

  beforeAll(async () => {
    cups = await startPrivateCups({ queues: [{ name: 'sink', kind: 'sink' }] });
    const doc = await PDFDocument.create();
    doc.addPage([288, 432]);
    pdf = await doc.save();
  });
  afterAll(async () => {
    await cups?.stop();
  });
  afterEach(async () => {
    await proxy?.close();
  });

  const viaProxy = async (extra: Partial<CupsTargetOptions> = {}): Promise<CupsTarget> => {
    proxy = await startIppProxy(cups.server);
    return new CupsTarget({ uri: `cups:sink@${proxy.server}`, queue: 'sink', server: proxy.server, env: cups.env, ...extra });
  };

  it('sends one Print-Job per label with the title, PDF format, media and scaling, on one keep-alive connection', async () => {
    const { exec, calls } = recordingExec();
    const t = await viaProxy({ exec });
    const label = request(pdf, { copies: 2 });
    const a4 = request(pdf, { media: 'a4', documentType: 'waybill', layout: 'a4' });
    const results = [await t.spool(label), await t.spool(a4)];
    for (let i = 0; i < 3; i++) results.push(await t.spool(request(pdf)));
    expect(calls).toEqual([]);
    // Readiness and Print-Job, ten requests, one connection.
    expect(proxy.requests).toHaveLength(10);
    expect(proxy.connections()).toBe(1);

    const jobs = proxy.requests.filter(agentPrintJob);
    expect(jobs).toHaveLength(5);
    const operation = (r: IppProxyRequest) => r.ipp.groups.find((g) => g.tag === 0x01)!.attrs;
    const jobGroup = (r: IppProxyRequest) => r.ipp.groups.find((g) => g.tag === 0x02)!.attrs;
    expect(operation(jobs[0]!).get('job-name')).toEqual([label.title]);
    expect(operation(jobs[0]!).get('document-format')).toEqual(['application/pdf']);
    expect(Object.fromEntries(jobGroup(jobs[0]!))).toEqual({ copies: [2], media: ['oe_4x6-label_4x6in'], 'print-scaling': ['none'] });
    expect(Object.fromEntries(jobGroup(jobs[1]!))).toEqual({ copies: [1], media: ['iso_a4_210x297mm'], 'print-scaling': ['fit'] });

    // The spooler job id is the scheduler's job-id, and the job carries the title.
    // (Get-Job-Attributes: Get-Jobs leaves the name empty for jobs cupsd has unloaded.)
    const nameOf = async (spoolerJobId: string) => (await ippGetJob({ server: cups.server }, Number(spoolerJobId.split('-').at(-1))))?.name;
    expect(await nameOf(results[0]!.spoolerJobId!)).toBe(label.title);
    expect(await nameOf(results[1]!.spoolerJobId!)).toBe(a4.title);
    expect(new Set(results.map((r) => r.spoolerJobId)).size).toBe(5);
    await cups.waitForJobs({ queue: 'sink' });
    expect(await t.findSpooled(label.jobId)).toEqual({ spoolerJobId: results[0]!.spoolerJobId, state: 'completed' });
  });

  it('prints through lp when the scheduler asks for authentication (HTTP 401), says so once, and tries IPP again later', async () => {
    const { exec, calls } = recordingExec();
    const lines: string[] = [];
    let now = 0;
    const t = await viaProxy({ exec, log: (line) => lines.push(line), ippRetryMs: 60_000, nowMs: () => now });
    proxy.decide = (r) => (agentPrintJob(r) ? { http: 401 } : 'pass');
    const before = (await cups.outputs('sink')).length;
    const first = await t.spool(request(pdf));
    const second = await t.spool(request(pdf));
    expect(first.spoolerJobId).toMatch(/^sink-\d+$/);
    expect(second.spoolerJobId).toMatch(/^sink-\d+$/);
    expect(calls.filter((c) => c[0] === 'lp')).toHaveLength(2);
    // Refused once; within ippRetryMs lp prints without asking over IPP again.
    expect(proxy.requests.filter(agentPrintJob)).toHaveLength(1);
    expect(lines).toEqual([
      `cups:sink@${proxy.server}: CUPS refused the IPP print request for "sink" (HTTP 401); printing through lp instead, trying IPP again in 60 s.`,
    ]);
    await cups.waitForOutputs('sink', before + 2);

    now += 60_000;
    await t.spool(request(pdf));
    expect(proxy.requests.filter(agentPrintJob)).toHaveLength(2);
    expect(calls.filter((c) => c[0] === 'lp')).toHaveLength(3);
    expect(lines).toHaveLength(1); // the same reason is not logged again

    // Once the scheduler takes Print-Job again, lp is no longer used.
    proxy.decide = () => 'pass';
    now += 60_000;
    await t.spool(request(pdf));
    await t.spool(request(pdf));
    expect(calls.filter((c) => c[0] === 'lp')).toHaveLength(3);
    expect(proxy.requests.filter(agentPrintJob)).toHaveLength(4);
    await cups.waitForOutputs('sink', before + 5);
  });

  it('prints through lp when the scheduler refuses Print-Job with an IPP status, naming it and its message', async () => {
    const { exec, calls } = recordingExec();
    const lines: string[] = [];
    const t = await viaProxy({ exec, log: (line) => lines.push(line) });
    proxy.decide = (r) => (agentPrintJob(r) ? { ipp: 0x0403, message: 'Not authorized' } : 'pass');
    const result = await t.spool(request(pdf));
    expect(result.spoolerJobId).toMatch(/^sink-\d+$/);
    expect(calls.filter((c) => c[0] === 'lp')).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('(Not authorized, IPP status 0x0403); printing through lp instead');
  });

  it("escapes the scheduler's own words in that line: a status message cannot forge a log line", async () => {
    const lines: string[] = [];
    const t = await viaProxy({ log: (line) => lines.push(line) });
    proxy.decide = (r) => (agentPrintJob(r) ? { ipp: 0x0402, message: 'Login\nfake: job printed' } : 'pass');
    await t.spool(request(pdf));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toContain('(Login\\nfake: job printed, IPP status 0x0402)');
  });

  it('reports a scheduler that refuses connections as down with the start-CUPS advice, spawning no lp', async () => {
    const { exec, calls } = recordingExec();
    const t = new CupsTarget({
      uri: 'cups:sink@127.0.0.1:1',
      queue: 'sink',
      server: '127.0.0.1:1',
      env: cups.env,
      exec,
      checkReadiness: false,
    });
    const error = await t.spool(request(pdf)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrintError);
    expect(error).toMatchObject({
      code: 'SPOOLER_UNAVAILABLE',
      retryable: true,
      printerDown: true,
      message: 'Cannot reach 127.0.0.1:1 to print to cups:sink@127.0.0.1:1: start CUPS (systemctl start cups) or check the server address.',
    });
    expect(calls).toEqual([]);
  });

  it('treats a connection that broke off after the request as "may be queued": retryable, not printer-down, and findable by title', async () => {
    const t = await viaProxy({ checkReadiness: false });
    proxy.decide = (r) => (agentPrintJob(r) ? 'drop-after-forward' : 'pass');
    const req = request(pdf);
    const error = await t.spool(req).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SPOOL_FAILED', retryable: true, printerDown: false });
    expect((error as PrintError).message).toContain('looked up by its title before it is sent again');
    // The scheduler did take it: the print queue's lookup before a resend finds it.
    proxy.decide = () => 'pass';
    expect(await t.findSpooled(req.jobId)).toMatchObject({ spoolerJobId: expect.stringMatching(/^sink-\d+$/) });
  });
});

describe('CupsTarget over IPP on a scheduler reached by its Unix socket (CUPS_SERVER=/path, as `lpstat -H` names a local cupsd)', () => {
  it.each(['ipp', 'lp'] as const)('spools, follows and finds a job (spool %s)', async (spool) => {
    const cups = await startPrivateCups({ queues: [{ name: 'local', kind: 'sink' }], unixSocket: true });
    try {
      const doc = await PDFDocument.create();
      doc.addPage([288, 432]);
      const pdf = await doc.save();
      const { exec, calls } = recordingExec();
      const t = new CupsTarget({ uri: 'cups:local', queue: 'local', env: { ...cups.env, CUPS_SERVER: cups.socketPath! }, exec, spool });
      expect(await t.readiness()).toEqual({ ready: true, detail: null });
      const req = request(pdf);
      const result = await t.spool(req);
      expect(result.spoolerJobId).toMatch(/^local-\d+$/);
      expect(calls.filter((c) => c[0] === 'lp')).toHaveLength(spool === 'lp' ? 1 : 0);
      await cups.waitForOutputs('local', 1);
      await cups.waitForJobs({ queue: 'local' });
      expect(await t.findSpooled(req.jobId)).toEqual({ spoolerJobId: result.spoolerJobId, state: 'completed' });
    } finally {
      await cups.stop();
    }
  });
});
