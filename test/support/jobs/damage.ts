import { randomUUID } from 'node:crypto';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { Ledger } from '../../../src/main/ledger/ledger';

/** Adds `count` finished jobs to the ledger at `file` (enough pages for damage to land on data). */
export function fillLedger(file: string, count: number): void {
  const ledger = Ledger.open({ path: file, pruneIntervalMs: 0 });
  ledger.transaction(() => {
    for (let n = 0; n < count; n++) {
      const shipmentId = randomUUID();
      const { job } = ledger.createAutoJob({
        shipmentId,
        reference: `FILL-${n}`,
        trackingId: `T${n}`,
        documentType: 'label',
        layout: 'printer',
        target: 'folder:/nowhere',
        trigger: 'webhook',
        bookedAt: new Date(Date.now() - 3_600_000).toISOString(),
      });
      ledger.transition(job.id, 'completed', {});
    }
  });
  ledger.close();
}

/** Overwrites 8 KiB in the middle of the file with a pattern, as a bad disk sector or a stray write would. */
export function damageMiddle(file: string): void {
  const size = statSync(file).size;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, Math.floor(size / 2 / 4096) * 4096);
  closeSync(fd);
}
