import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../../src/main/ledger/ledger';
import { LedgerGuard, isLedgerFailure } from '../../../src/main/ledger/ledger-guard';
import type { JobView } from '../../../src/shared/domain';
import { tempDir } from '../../support/jobs/fakes';

const spec = (shipmentId: string) =>
  ({ shipmentId, documentType: 'label', layout: 'printer', target: 'cups:q', trigger: 'webhook', copies: 1 }) as const;

describe('LedgerGuard.together: one commit for several writes', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  let heard: string[];
  let guard: LedgerGuard;
  let failOn: string | null;
  let pumps: number;

  beforeEach(() => {
    tmp = tempDir();
    ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite'), pruneIntervalMs: 0 });
    heard = [];
    failOn = null;
    pumps = 0;
    const transition = ledger.transition.bind(ledger);
    // The ledger refuses the write of one job as a full disk would (an SQLite error code).
    Object.assign(ledger, {
      transition: (id: string, state: Parameters<Ledger['transition']>[1], patch?: Parameters<Ledger['transition']>[2]) => {
        if (id === failOn) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        return transition(id, state, patch);
      },
    });
    guard = new LedgerGuard({
      ledger,
      observer: { onJobChange: (job: JobView) => void heard.push(`${job.id} ${job.state}`), onError: () => undefined },
      queue: { isStopped: () => false, schedulePump: () => void pumps++ },
      retryBaseMs: 5,
      retryMaxMs: 5,
    });
  });
  afterEach(() => {
    guard.stop();
    ledger.close();
    tmp.cleanup();
  });

  it('commits every write at once and tells the observer only after the commit', () => {
    const ids = ['a', 'b', 'c'].map((s) => ledger.createJob(spec(s)).id);
    const heardInside: number[] = [];
    guard.together(() => {
      for (const id of ids) {
        guard.write(id, 'fetching', {});
        heardInside.push(heard.length);
      }
    });
    expect(heardInside).toEqual([0, 0, 0]);
    expect(heard).toEqual(ids.map((id) => `${id} fetching`));
    for (const id of ids) expect(ledger.get(id)!.state).toBe('fetching');
  });

  it('keeps none of the writes when one fails, throws LEDGER_WRITE_FAILED and tells nothing', () => {
    const ids = ['a', 'b', 'c'].map((s) => ledger.createJob(spec(s)).id);
    failOn = ids[2]!;
    let thrown: unknown;
    try {
      guard.together(() => {
        for (const id of ids) guard.write(id, 'spooling', { spoolAttempted: true });
      });
    } catch (error) {
      thrown = error;
    }
    expect(isLedgerFailure(thrown)).toBe(true);
    expect(heard).toEqual([]);
    for (const id of ids) expect(ledger.get(id)).toMatchObject({ state: 'queued', spoolAttempted: false });
  });

  it('orDeferTogether keeps a group the ledger refused and replays it whole once the ledger takes writes', async () => {
    const ids = ['a', 'b'].map((s) => ledger.createJob(spec(s)).id);
    failOn = ids[1]!;
    guard.orDeferTogether(() => {
      for (const id of ids) guard.write(id, 'spooled', { spoolerJobId: 'q-1' });
    });
    expect(guard.down).not.toBeNull();
    for (const id of ids) expect(ledger.get(id)!.state).toBe('queued');
    failOn = null;
    for (let i = 0; i < 100 && guard.down; i++) await new Promise((r) => setTimeout(r, 5));
    expect(guard.down).toBeNull();
    for (const id of ids) expect(ledger.get(id)).toMatchObject({ state: 'spooled', spoolerJobId: 'q-1' });
    expect(heard).toEqual(ids.map((id) => `${id} spooled`));
    expect(pumps).toBeGreaterThan(0);
  });
});
