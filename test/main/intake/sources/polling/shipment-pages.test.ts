import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../../src/main/ledger/ledger';
import { Poller } from '../../../../../src/main/intake/sources/polling/poller';
import type { ListShipmentsQuery, ShipmentRecord, ShipmentSourcePort } from '../../../../../src/main/intake/ports';
import { RecordingSink, tempLedger } from '../../../../support/intake/fixtures';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** A service whose list order is whatever `rows` says (paged by limit/offset). */
class ScriptedList implements ShipmentSourcePort {
  rows: ShipmentRecord[] = [];
  async listShipments(q: ListShipmentsQuery): Promise<readonly ShipmentRecord[]> {
    const offset = q.offset ?? 0;
    return this.rows.slice(offset, offset + (q.limit ?? this.rows.length));
  }
}

const booked = (id: string, minutes: number): ShipmentRecord => ({
  id,
  status: 'BOOKED',
  carrier_name: 'PostNord',
  tracking_id: `T-${id}`,
  available_documents_types: ['label'],
  booked_at: at(minutes),
  updated_at: at(minutes),
});

describe('poller paging on a service caught listing out of order', () => {
  let ledger: Ledger;
  let dispose: () => Promise<void>;
  beforeEach(async () => ({ ledger, dispose } = await tempLedger()));
  afterEach(async () => dispose());

  it('keeps reading past a first page that merely looks ordered', async () => {
    const service = new ScriptedList();
    const sink = new RecordingSink();
    let now = T0 + 10 * 60_000;
    const poller = new Poller({
      shipments: service,
      cursors: ledger,
      sink,
      stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
      pageSize: 2,
      initialLookbackMinutes: 60,
      now: () => now,
    });
    // First poll: the service lists an older change before a newer one (not by change time).
    service.rows = [booked('a', 1), booked('b', 5), booked('c', 3)];
    await poller.pollOnce();
    expect(sink.ids().sort()).toEqual(['a', 'b', 'c']);
    // Later: page 1 happens to be ordered and entirely older than the mark; the new booking
    // is on page 2. A service once caught out of order must not be trusted to stop here.
    now += 10 * 60_000;
    service.rows = [booked('b', 5), booked('c', 3), booked('d', 15), booked('a', 1)];
    await poller.pollOnce();
    expect(sink.ids()).toContain('d');
    await poller.stop();
  });
});
