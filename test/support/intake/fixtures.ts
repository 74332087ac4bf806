import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BookingNotice } from '../../../src/main/ledger/booking-notice';
import { Ledger } from '../../../src/main/ledger/ledger';

/** A real ledger in a fresh temp dir; `dispose` closes it and removes the dir. */
export async function tempLedger(): Promise<{ ledger: Ledger; dir: string; dispose: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'intake-'));
  const ledger = Ledger.open({ path: path.join(dir, 'ledger.db'), pruneIntervalMs: 0 });
  return {
    ledger,
    dir,
    dispose: async () => {
      ledger.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The pipeline's port, observed: records every notice handed to it, in order. */
export class RecordingSink {
  readonly notices: BookingNotice[] = [];
  submitBooking(notice: BookingNotice): unknown[] {
    this.notices.push(notice);
    return [];
  }
  ids(): string[] {
    return this.notices.map((n) => n.shipmentId);
  }
}

export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
