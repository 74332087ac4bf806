import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FolderTarget } from '../../../src/main/printing/folder/folder-target';
import { MemoryTarget, ScriptedFetcher, notice } from '../../support/jobs/fakes';
import { Harness, until } from '../../support/jobs/harness';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../support/small-disk';

const unavailable = smallDiskUnavailable();
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A folder printer whose disk is full (a real 2 MiB tmpfs) or whose folder
 * went away is a printer that is down: its line waits with the reason, no label fails, and
 * each label is saved once when the folder takes files again, without anyone retrying it.
 */
describe.skipIf(unavailable !== null)(
  `a folder printer on a full or missing disk${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let disk: SmallDisk;
    let h: Harness;
    let dir: string;
    let folder: FolderTarget;

    beforeAll(() => {
      disk = mountSmallDisk(2 * 1024 * 1024);
    });
    afterAll(() => disk.close());
    beforeEach(() => {
      dir = path.join(disk.dir, 'prints');
      folder = new FolderTarget({ uri: `folder:${dir}`, dir, minFreeBytes: 64 * 1024 });
      // The ledger is on the ordinary disk: only the printer's disk fills up.
      h = new Harness(new Map([[folder.uri, folder]]) as ReadonlyMap<string, MemoryTarget | FolderTarget>, folder.uri);
    });
    afterEach(async () => {
      await h.close();
      disk.empty();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const saved = (): string[] =>
      fs
        .readdirSync(dir)
        .filter((n) => !n.startsWith('.'))
        .map((n) => n.split('_')[0]!)
        .sort();

    it('waits while the disk is full, says so, fails nothing, and saves each label once when space returns', async () => {
      const p = h.pipeline({ fetcher: new ScriptedFetcher(), maxAttempts: 2 });
      await p.start();
      p.submitBooking(notice('d0'));
      await p.idle();
      expect(saved()).toEqual(['d0']);
      disk.fill();
      const readiness = await folder.readiness();
      expect(readiness).toMatchObject({
        ready: false,
        detail: `The disk holding ${dir} is full: free some space or choose another folder.`,
      });

      const jobs = ['d1', 'd2', 'd3'].map((s) => p.submitBooking(notice(s))[0]!);
      await until(() => p.downPrinters().length === 1);
      // Several probes: more than maxAttempts, and still nothing failed.
      await until(() => h.changes.filter((c) => c.id === jobs[0]!.id && /waiting for the printer/.test(c.reason ?? '')).length >= 4);
      expect(p.downPrinters()[0]).toMatchObject({
        target: folder.uri,
        advice: `The disk holding ${dir} is full: free some space or choose another folder.`,
      });
      expect(h.ledger.get(jobs[0]!.id)!.reason).toMatch(
        new RegExp(`^The disk holding ${escape(dir)} is full: .*; waiting for the printer`),
      );
      for (const job of jobs) expect(h.ledger.get(job.id)!.state).not.toBe('failed');
      expect(h.changes.filter((c) => c.state === 'failed')).toEqual([]);

      disk.empty();
      await until(() => saved().length === 4, 5000);
      await p.idle();
      expect(saved()).toEqual(['d0', 'd1', 'd2', 'd3']);
      for (const job of jobs) expect(h.ledger.get(job.id)).toMatchObject({ state: 'completed', attempts: 1 });
      expect(p.downPrinters()).toEqual([]);
      expect(fs.readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]); // no temp or probe files left
    });

    it('waits while its folder is gone and the disk is read-only, and saves each label once when it can write again', async () => {
      const p = h.pipeline({ fetcher: new ScriptedFetcher(), maxAttempts: 2 });
      await p.start();
      // The folder went away and nothing can be made in its place (a share remounted read-only).
      fs.rmSync(dir, { recursive: true, force: true });
      disk.readOnly(true);
      try {
        expect(await folder.readiness()).toMatchObject({ ready: false });
        const jobs = ['m1', 'm2'].map((s) => p.submitBooking(notice(s))[0]!);
        await until(() => p.downPrinters().length === 1);
        await until(() => h.changes.filter((c) => c.id === jobs[0]!.id && /waiting for the printer/.test(c.reason ?? '')).length >= 4);
        for (const job of jobs) expect(h.ledger.get(job.id)!.state).not.toBe('failed');
        expect(p.downPrinters()[0]!.advice).toMatch(/write access|read-only|cannot/i);
      } finally {
        disk.readOnly(false);
      }
      await until(() => fs.existsSync(dir) && saved().length === 2, 5000);
      await p.idle();
      expect(saved()).toEqual(['m1', 'm2']);
    });
  },
);
