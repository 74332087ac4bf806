import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentMessage } from '../../../src/shared/agent-messages';
import { Ledger } from '../../../src/main/ledger/ledger';
import { MIGRATIONS } from '../../../src/main/ledger/migrations';
import { tempDir } from '../../support/jobs/fakes';

const PAUSED = agentMessage('job.waitingForPrinter', {
  advice: agentMessage('printer.windowsState', { printer: 'Zebra', state: 'Paused' }),
  delayMs: 8000,
});

describe('Ledger: reasons with their message code (migration 5)', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());

  it('upgrades a ledger from before codes: its reasons stay English without a code; new reasons keep theirs', () => {
    const file = path.join(tmp.dir, 'v4.sqlite');
    const db = new Database(file);
    for (const m of MIGRATIONS.filter((x) => x.version <= 4)) db.exec(m.sql);
    db.pragma('user_version = 4');
    db.prepare(
      `INSERT INTO jobs (id, shipment_id, document_type, layout, target, trigger, state, reason, created_at, updated_at)
       VALUES ('old1', 's-old', 'label', 'printer', 'windows:Zebra', 'webhook', 'failed', 'paper out (old words)',
               '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')`,
    ).run();
    db.close();

    const ledger = Ledger.open({ path: file });
    try {
      const old = ledger.get('old1')!;
      expect(old.reason).toBe('paper out (old words)');
      expect(old).not.toHaveProperty('reasonMessage');
      expect(ledger.search({}).find((j) => j.id === 'old1')).not.toHaveProperty('reasonMessage');

      const coded = ledger.transition('old1', 'queued', { reason: PAUSED });
      expect(coded.reasonMessage).toEqual(PAUSED);
      expect(coded.reason).toBe(
        'Windows printer "Zebra" is paused: resume it in Windows (Settings > Printers & scanners > the printer > Open print queue > ' +
          'Printer > untick Pause Printing); waiting for the printer (checking again in 8 s)',
      );
      // A transition that leaves the reason alone keeps its code; plain text or null clears it.
      expect(ledger.transition('old1', 'fetching', {}).reasonMessage).toEqual(PAUSED);
      expect(ledger.get('old1')!.reasonMessage).toEqual(PAUSED);
      expect(ledger.transition('old1', 'failed', { reason: 'boom' })).not.toHaveProperty('reasonMessage');
      expect(ledger.get('old1')).not.toHaveProperty('reasonMessage');
      ledger.transition('old1', 'queued', { reason: PAUSED });
      expect(ledger.transition('old1', 'fetching', { reason: null })).toMatchObject({ reason: null });
      expect(ledger.get('old1')).not.toHaveProperty('reasonMessage');
    } finally {
      ledger.close();
    }
  });

  it('a stored code this build does not know reads as the English alone', () => {
    const file = path.join(tmp.dir, 'future.sqlite');
    const ledger = Ledger.open({ path: file });
    const job = ledger.createJob({ shipmentId: 's1', documentType: 'label', layout: 'printer', target: 'folder:/x', trigger: 'reprint' });
    ledger.transition(job.id, 'failed', { reason: PAUSED });
    ledger.close();
    const db = new Database(file);
    db.prepare('UPDATE jobs SET reason_message = ? WHERE id = ?').run(JSON.stringify({ code: 'printer.teleported', params: {} }), job.id);
    db.close();
    const again = Ledger.open({ path: file });
    try {
      expect(again.get(job.id)!.reason).toMatch(/waiting for the printer/);
      expect(again.get(job.id)).not.toHaveProperty('reasonMessage');
    } finally {
      again.close();
    }
  });
});
