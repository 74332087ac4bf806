import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/main/ledger/migrations';
import { Ledger } from '../../../src/main/ledger/ledger';
import { tempDir } from '../../support/jobs/fakes';

describe('the ledger’s canceled shipments (migration 6)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let now: Date;
  const open = () => Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite'), pruneIntervalMs: 0, now: () => now });

  beforeEach(() => {
    tmp = tempDir('ps-cancels-');
    now = new Date('2026-11-24T09:00:00.000Z');
  });
  afterEach(() => tmp.cleanup());

  it('keeps a cancel across a restart; the station’s own is never turned into the service’s', () => {
    let ledger = open();
    expect(ledger.recordCancel({ shipmentId: 'S-1', source: 'station', requestId: 'req-1' })).toBe(true);
    expect(ledger.recordCancel({ shipmentId: 's-1', source: 'service' })).toBe(false);
    expect(ledger.recordCancel({ shipmentId: 'S-2', source: 'service' })).toBe(true);
    expect(ledger.recordCancel({ shipmentId: 'S-2', source: 'station' })).toBe(false);
    ledger.close();
    ledger = open();
    expect(ledger.cancelOf('S-1')).toEqual({ shipmentId: 'S-1', source: 'station', canceledAt: now.toISOString(), requestId: 'req-1' });
    expect(ledger.cancelOf('S-2')).toMatchObject({ source: 'station' });
    expect(ledger.cancelOf('S-3')).toBeNull();
    ledger.close();
  });

  it('upgrades a ledger of migration 5 and prunes cancels with the rest of its age', () => {
    const file = path.join(tmp.dir, 'ledger.sqlite');
    const raw = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version <= 5)) raw.exec(m.sql);
    raw.pragma('user_version = 5');
    raw.close();
    const ledger = open();
    ledger.recordCancel({ shipmentId: 'OLD', source: 'station' });
    now = new Date(now.getTime() + 91 * 86_400_000);
    ledger.recordCancel({ shipmentId: 'NEW', source: 'service' });
    ledger.prune();
    expect(ledger.cancelOf('OLD')).toBeNull();
    expect(ledger.cancelOf('NEW')).not.toBeNull();
    ledger.close();
  });
});
