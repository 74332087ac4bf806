import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobError } from '../../../src/main/ledger/errors';
import { Ledger } from '../../../src/main/ledger/ledger';
import { tempDir } from '../../support/jobs/fakes';

const HOLDER = path.join(import.meta.dirname, 'fixtures', 'ledger-holder.ts');

function holdLedger(file: string): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER], {
    env: { ...process.env, PS_LEDGER: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('open\n')) resolve({ child, exited });
    });
    child.on('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
  });
}

/** Review M7: two agents on one data directory must not both run. */
describe('Ledger single-agent lock', () => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it(
    'refuses a second agent on the same data directory while the first runs, and opens once it was killed',
    { timeout: 30_000 },
    async () => {
      const tmp = tempDir('ps-lock-');
      cleanups.push(tmp.cleanup);
      const file = path.join(tmp.dir, 'ledger.sqlite');
      const { child, exited } = await holdLedger(file);
      cleanups.push(() => void child.kill('SIGKILL'));

      const error = (() => {
        try {
          Ledger.open({ path: file, pruneIntervalMs: 0, openBusyTimeoutMs: 200 }).close();
          return null;
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(JobError);
      expect((error as JobError).code).toBe('LEDGER_LOCKED');
      expect((error as JobError).message).toBe(
        `Another Print Station agent is already using ${tmp.dir} (ledger.sqlite is locked); stop it or use another --data-dir.`,
      );

      // A crash (SIGKILL) releases the lock with the process: the next agent opens and sees the job.
      child.kill('SIGKILL');
      await exited;
      const ledger = Ledger.open({ path: file, pruneIntervalMs: 0 });
      cleanups.push(() => ledger.close());
      expect(ledger.search({ text: 'held' })).toHaveLength(1);
    },
  );

  it('is released by close() within one process, so the same agent can reopen its ledger', () => {
    const tmp = tempDir('ps-lock-');
    cleanups.push(tmp.cleanup);
    const file = path.join(tmp.dir, 'ledger.sqlite');
    const first = Ledger.open({ path: file, pruneIntervalMs: 0 });
    expect(() => Ledger.open({ path: file, pruneIntervalMs: 0, openBusyTimeoutMs: 50 })).toThrow(/already using/);
    first.close();
    const second = Ledger.open({ path: file, pruneIntervalMs: 0 });
    cleanups.push(() => second.close());
    expect(second.counts().queued).toBe(0);
  });
});
