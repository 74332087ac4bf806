import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CupsTarget } from '../../../../src/main/printing/cups/cups-target';
import { PRINT_ERROR_CODES, PrintError } from '../../../../src/main/printing/errors';
import { ippGetJobs } from '../../../../src/main/printing/ipp/ipp';
import { startIppProxy } from '../../../support/ipp-proxy';
import type { SpoolRequest } from '../../../../src/main/printing/target';
import { labelSpoolRequest, startPrivateCups, type PrivateCups } from '../../../support/cups';

const execFileAsync = promisify(execFile);

const request = (pdf: Uint8Array): SpoolRequest => labelSpoolRequest('js', pdf);

describe('CupsTarget.jobStates on a private cupsd', () => {
  let cups: PrivateCups;
  let pdf: Uint8Array;

  beforeAll(async () => {
    cups = await startPrivateCups({
      queues: [
        { name: 'sink', kind: 'sink' },
        { name: 'sink2', kind: 'sink' },
        { name: 'held', kind: 'sink' },
      ],
    });
    await cups.disable('held');
    const doc = await PDFDocument.create();
    doc.addPage([288, 432]);
    pdf = await doc.save();
  });

  afterAll(async () => {
    await cups?.stop();
  });

  const target = (queue: string) => new CupsTarget({ uri: `cups:${queue}`, queue, env: cups.env, checkReadiness: false });

  it('reports completed for spooled jobs on several queues, matching jobState id for id', async () => {
    const sink = target('sink');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await sink.spool(request(pdf))).spoolerJobId!);
    for (let i = 0; i < 2; i++) ids.push((await target('sink2').spool(request(pdf))).spoolerJobId!);
    await cups.waitForOutputs('sink', 5);
    await cups.waitForOutputs('sink2', 2);
    await cups.waitForJobs();

    // Any CupsTarget of the scheduler can answer for ids of another queue: the queue is in the id.
    const states = await sink.jobStates(ids);
    expect([...states.keys()].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(states.get(id), id).toBe('completed');
      expect(await sink.jobState(id), id).toBe(states.get(id));
    }
  });

  it('reports pending, canceled and unknown exactly as jobState does', async () => {
    const held = target('held');
    const pending = (await held.spool(request(pdf))).spoolerJobId!;
    const canceled = (await held.spool(request(pdf))).spoolerJobId!;
    await execFileAsync('cancel', [canceled], { env: cups.env });
    const forgotten = 'sink-999999';
    const unparseable = 'no job number';
    const ids = [pending, canceled, forgotten, unparseable];

    const states = await held.jobStates(ids);
    expect(Object.fromEntries(states)).toEqual({
      [pending]: 'pending',
      [canceled]: 'canceled',
      [forgotten]: 'unknown',
      [unparseable]: 'unknown',
    });
    for (const id of ids) expect(await held.jobState(id), id).toBe(states.get(id));
  });

  it('asks only about the jobs in flight: one Get-Jobs per queue naming their job-ids, never the whole history', async () => {
    const proxy = await startIppProxy(cups.server);
    try {
      const viaProxy = new CupsTarget({
        uri: `cups:sink@${proxy.server}`,
        queue: 'sink',
        server: proxy.server,
        env: cups.env,
        checkReadiness: false,
      });
      const held = new CupsTarget({
        uri: `cups:held@${proxy.server}`,
        queue: 'held',
        server: proxy.server,
        env: cups.env,
        checkReadiness: false,
      });
      const done = (await viaProxy.spool(request(pdf))).spoolerJobId!;
      const waiting = (await held.spool(request(pdf))).spoolerJobId!;
      await cups.waitForJobs({ queue: 'sink' });
      proxy.requests.length = 0;

      const states = await viaProxy.jobStates([done, waiting]);
      expect(Object.fromEntries(states)).toEqual({ [done]: 'completed', [waiting]: 'pending' });
      const asked = proxy.requests.map((r) => ({
        operation: r.operation,
        which: r.ipp.groups[0]?.attrs.get('which-jobs')?.[0] ?? null,
        jobIds: r.ipp.groups[0]?.attrs.get('job-ids') ?? null,
      }));
      // Per queue one Get-Jobs for exactly the asked jobs (cupsd takes job-ids).
      expect(asked).toEqual([
        { operation: 0x000a, which: null, jobIds: [Number(done.split('-').at(-1))] },
        { operation: 0x000a, which: null, jobIds: [Number(waiting.split('-').at(-1))] },
      ]);
      // A job the scheduler no longer knows is unknown, as before.
      expect(Object.fromEntries(await viaProxy.jobStates(['sink-999999']))).toEqual({ 'sink-999999': 'unknown' });
      // The whole history (which-jobs=all) is never asked for when following.
      const listed = await ippGetJobs({ server: cups.server }, 'sink', 'all');
      expect(listed.length).toBeGreaterThan(1);
    } finally {
      await proxy.close();
    }
  });

  it('asks a printer that refuses job-ids for its not-completed jobs, then each ended job alone, from then on', async () => {
    const proxy = await startIppProxy(cups.server);
    proxy.decide = (r) => (r.operation === 0x000a && r.ipp.groups[0]?.attrs.has('job-ids') ? { ipp: 0x040b } : 'pass');
    try {
      const viaProxy = new CupsTarget({
        uri: `cups:sink@${proxy.server}`,
        queue: 'sink',
        server: proxy.server,
        env: cups.env,
        checkReadiness: false,
      });
      const done = (await viaProxy.spool(request(pdf))).spoolerJobId!;
      await cups.waitForJobs({ queue: 'sink' });
      for (let round = 0; round < 2; round++) {
        proxy.requests.length = 0;
        expect(Object.fromEntries(await viaProxy.jobStates([done]))).toEqual({ [done]: 'completed' });
        const asked = proxy.requests.map((r) => [
          r.operation,
          r.ipp.groups[0]?.attrs.get('which-jobs')?.[0] ?? r.ipp.groups[0]?.attrs.get('job-id')?.[0],
        ]);
        const notCompleted = [0x000a, 'not-completed'];
        const alone = [0x0009, Number(done.split('-').at(-1))];
        expect(asked).toEqual(round === 0 ? [[0x000a, undefined], notCompleted, alone] : [notCompleted, alone]);
      }
    } finally {
      await proxy.close();
    }
  });

  it('throws SPOOLER_UNAVAILABLE when the scheduler cannot be reached, so the follower asks again later', async () => {
    const gone = new CupsTarget({ uri: 'cups:sink@127.0.0.1:9', queue: 'sink', server: '127.0.0.1:9', env: cups.env });
    const error = await gone.jobStates(['sink-1']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrintError);
    expect((error as PrintError).code).toBe(PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE);
  });
});
