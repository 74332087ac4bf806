import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobError } from '../../../src/main/ledger/errors';
import type { PrintPipeline } from '../../../src/main/jobs/pipeline';
import { MemoryTarget, ScriptedFetcher, notice } from '../../support/jobs/fakes';
import { Harness, until } from '../../support/jobs/harness';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../support/small-disk';

const LABELS = 'mem:labels';
const unavailable = smallDiskUnavailable();

/**
 * The ledger on a real disk that fills up (a 4 MiB tmpfs). A fetch whose ledger
 * write fails must park the station once, not spin the scheduler; the event loop keeps
 * answering; when the disk has room again every waiting label prints once, by itself.
 */
describe.skipIf(unavailable !== null)(
  `PrintPipeline with its ledger on a full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let disk: SmallDisk;
    let h: Harness;
    let target: MemoryTarget;
    let errors: JobError[];
    let back: number;
    let unhandled: unknown[];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);

    beforeAll(() => {
      disk = mountSmallDisk(4 * 1024 * 1024);
    });
    afterAll(() => disk.close());
    beforeEach(() => {
      target = new MemoryTarget(LABELS);
      h = new Harness(new Map([[LABELS, target]]), LABELS, disk.dir);
      errors = [];
      back = 0;
      unhandled = [];
      process.on('unhandledRejection', onUnhandled);
    });
    afterEach(async () => {
      process.off('unhandledRejection', onUnhandled);
      disk.empty();
      await h.close();
    });

    const make = (fetcher = new ScriptedFetcher()): PrintPipeline =>
      h.pipeline({
        fetcher,
        onError: (e) => errors.push(e),
        onLedgerBack: () => (back += 1),
        ledgerRetryBaseMs: 20,
        ledgerRetryMaxMs: 80,
      });

    /** Timer ticks while `fn` runs: a scheduler spinning on a failing step starves them. */
    const ticking = (): { count: () => number; stop: () => void } => {
      let ticks = 0;
      const timer = setInterval(() => (ticks += 1), 10);
      return { count: () => ticks, stop: () => clearInterval(timer) };
    };

    it('parks the lines once while the disk is full, keeps the event loop free, and prints each waiting label once when it has room', async () => {
      const fetcher = new ScriptedFetcher();
      const p = make(fetcher);
      const jobs = ['s1', 's2', 's3'].map((s) => p.submitBooking(notice(s))[0]!); // waiting: not started yet
      disk.fill();
      const ticks = ticking();
      try {
        await p.start();
        await until(() => errors.length >= 1);
        const before = ticks.count();
        await new Promise((r) => setTimeout(r, 400)); // several ledger retries (20 → 80 ms)
        expect(ticks.count() - before).toBeGreaterThan(10);
      } finally {
        ticks.stop();
      }
      expect(target.spooled).toHaveLength(0);
      expect(fetcher.calls).toHaveLength(0); // nothing fetched that the ledger did not record
      // Once, with what to do: not a line per retry.
      expect(errors).toHaveLength(1);
      expect(errors[0]!.code).toBe('LEDGER_WRITE_FAILED');
      expect(errors[0]!.message).toContain('is full or read-only: free space, then the agent resumes by itself');
      expect(p.ledgerDown()?.code).toBe('LEDGER_WRITE_FAILED');
      expect(back).toBe(0);

      disk.empty();
      await until(() => target.spooled.length === 3, 5000);
      await p.idle();
      expect(target.shipments()).toEqual(['s1', 's2', 's3']);
      for (const job of jobs) expect(h.ledger.get(job.id)).toMatchObject({ state: 'completed' });
      expect(back).toBe(1);
      expect(p.ledgerDown()).toBeNull();
      expect(unhandled).toEqual([]);
    });

    it('keeps automatic printing paused when Resume cannot be written, and prints the held label once after a Resume with room', async () => {
      const p = make();
      await p.start();
      p.pause();
      const [job] = p.submitBooking(notice('s1'));
      expect(h.ledger.get(job!.id)).toMatchObject({ state: 'queued', held: true });
      disk.fill();
      expect(() => p.resume()).toThrow(expect.objectContaining({ code: 'LEDGER_WRITE_FAILED' }));
      expect(() => p.resume()).toThrow(
        /^Printing stays paused: the job ledger cannot be written \(SQLITE_FULL;.*Free space, then press Resume again\.$/,
      );
      expect(p.isPaused()).toBe(true); // the UI shows the truth: still paused
      expect(h.ledger.pausedScopes()).toContain('*');
      disk.empty();
      await new Promise((r) => setTimeout(r, 100)); // the station is back, but the pause stays
      expect(target.spooled).toHaveLength(0);
      expect(p.isPaused()).toBe(true);
      p.resume();
      await until(() => target.spooled.length === 1);
      await p.idle();
      expect(target.shipments()).toEqual(['s1']);
      expect(h.ledger.get(job!.id)).toMatchObject({ state: 'completed', held: false });
    });

    it('keeps a printer paused or running as it was when Pause or Resume for it cannot be written', async () => {
      const p = make();
      await p.start();
      p.pause(LABELS);
      const [job] = p.submitBooking(notice('s1'));
      disk.fill();
      expect(() => p.resume(LABELS)).toThrow(expect.objectContaining({ code: 'LEDGER_WRITE_FAILED' }));
      expect(p.isPaused(LABELS)).toBe(true);
      expect(() => p.pause('mem:other')).toThrow(expect.objectContaining({ code: 'LEDGER_WRITE_FAILED' }));
      expect(p.isPaused('mem:other')).toBe(false);
      disk.empty();
      await new Promise((r) => setTimeout(r, 100));
      expect(target.spooled).toHaveLength(0);
      p.resume(LABELS);
      await until(() => target.spooled.length === 1);
      await p.idle();
      expect(h.ledger.get(job!.id)).toMatchObject({ state: 'completed' });
    });
  },
);

const chattrWorks = ((): string | null => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ps-chattr-'));
  const file = path.join(dir, 'probe');
  try {
    fs.writeFileSync(file, '');
    execFileSync('chattr', ['+i', file], { stdio: 'pipe' });
    execFileSync('chattr', ['-i', file], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `chattr +i is not available here: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
})();

/** The same through an immutable ledger (chattr +i on its WAL): SQLite's I/O error, not SQLITE_FULL. */
describe.skipIf(chattrWorks !== null)(
  `PrintPipeline with an immutable ledger file${chattrWorks ? ` (skipped: ${chattrWorks})` : ''}`,
  () => {
    let h: Harness;
    let target: MemoryTarget;
    let wal: string;
    beforeEach(() => {
      target = new MemoryTarget(LABELS);
      h = new Harness(new Map([[LABELS, target]]), LABELS);
      wal = `${h.file}-wal`;
    });
    afterEach(async () => {
      execFileSync('chattr', ['-i', wal], { stdio: 'pipe' });
      await h.close();
    });

    it('parks the lines once while the file cannot be written and prints each label once after chattr -i', async () => {
      const errors: JobError[] = [];
      let back = 0;
      const p = h.pipeline({
        onError: (e) => errors.push(e),
        onLedgerBack: () => (back += 1),
        ledgerRetryBaseMs: 20,
        ledgerRetryMaxMs: 80,
      });
      const jobs = ['i1', 'i2'].map((s) => p.submitBooking(notice(s))[0]!);
      execFileSync('chattr', ['+i', wal], { stdio: 'pipe' });
      await p.start();
      await until(() => errors.length >= 1);
      await new Promise((r) => setTimeout(r, 200));
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toMatch(/^Cannot write the job ledger \(SQLITE_IOERR[A-Z_]*\): the disk holding .* is full or read-only/);
      expect(target.spooled).toHaveLength(0);
      execFileSync('chattr', ['-i', wal], { stdio: 'pipe' });
      await until(() => target.spooled.length === 2);
      await p.idle();
      expect(target.shipments()).toEqual(['i1', 'i2']);
      for (const job of jobs) expect(h.ledger.get(job.id)).toMatchObject({ state: 'completed' });
      expect(back).toBe(1);
    });
  },
);
