import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationRules } from '../../../../../src/shared/domain';
import { Ledger } from '../../../../../src/main/ledger/ledger';
import type { BookingNotice } from '../../../../../src/main/ledger/booking-notice';
import { parseWebhook, type ParsedWebhook } from '../../../../../src/main/intake/sources/webhooks/envelope';
import { silentLogger } from '../../../../../src/main/intake/ports';
import { createWebhookHandlers, newHandlerCounters } from '../../../../../src/main/intake/sources/webhooks/handlers';
import { bookedEnvelope } from '../../../../support/intake/loopback-sender';
import { tempDir } from '../../../../support/jobs/fakes';

const ALL: StationRules = { mode: 'all', sources: [], carriers: [], matches: [] };

function parsed(body: string): ParsedWebhook {
  const result = parseWebhook(JSON.parse(body));
  if (!result.ok) throw new Error(result.error);
  return result.webhook;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('SHIPMENT_BOOKED: bookings released together are decided together', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ledger: Ledger;
  beforeEach(() => {
    tmp = tempDir();
    ledger = Ledger.open({ path: path.join(tmp.dir, 'ledger.sqlite'), pruneIntervalMs: 0 });
  });
  afterEach(() => {
    ledger.close();
    tmp.cleanup();
  });

  /** A sink that runs groups in the ledger's transaction (as the pipeline does) and notes where each submission ran. */
  function sink(options: { failGroup?: boolean } = {}) {
    const s = {
      groups: 0,
      inGroup: false,
      submitted: [] as Array<{ shipmentId: string; inGroup: boolean }>,
      submitBooking: (notice: BookingNotice) => void s.submitted.push({ shipmentId: notice.shipmentId, inGroup: s.inGroup }),
      together: <T>(fn: () => T): T => {
        s.groups++;
        s.inGroup = true;
        try {
          return ledger.transaction(() => {
            const result = fn();
            if (options.failGroup) throw new Error('the ledger cannot take it');
            return result;
          });
        } finally {
          s.inGroup = false;
        }
      },
    };
    return s;
  }

  function handler(booked: ReturnType<typeof sink>) {
    const counters = newHandlerCounters();
    const table = createWebhookHandlers(
      { ledger: ledger.intake, sink: booked, stationRules: ALL },
      { counters, logger: silentLogger, now: Date.now },
    );
    return { handler: table.SHIPMENT_BOOKED, counters };
  }

  const deliveries = (n: number) => Array.from({ length: n }, (_, i) => parsed(bookedEnvelope(`shp_${i}`, {}, randomUUID())));

  it('submits them and takes them off the pending list in one transaction', async () => {
    const booked = sink();
    const { handler: h, counters } = handler(booked);
    const webhooks = deliveries(5);
    for (const w of webhooks) expect(h.remember!(w as never)).toBe(true);
    expect(ledger.pendingBookings()).toHaveLength(5);
    for (const w of webhooks) h.process(w as never);
    await until(() => counters.bookingsSubmitted === 5);
    expect(booked.groups).toBe(1);
    expect(booked.submitted).toEqual(webhooks.map((w) => ({ shipmentId: w.envelope.shipment_id, inGroup: true })));
    expect(ledger.pendingBookings()).toEqual([]);
    expect(ledger.getShipment('shp_3')).not.toBeNull();
    await h.close!();
  });

  it('decides them one by one, as before, when the group cannot be written, and loses none', async () => {
    const booked = sink({ failGroup: true });
    const { handler: h, counters } = handler(booked);
    const webhooks = deliveries(4);
    for (const w of webhooks) h.remember!(w as never);
    for (const w of webhooks) h.process(w as never);
    await until(() => counters.bookingsSubmitted === 4);
    // The group's submissions were rolled back with it; each was then submitted on its own.
    expect(booked.submitted.filter((s) => !s.inGroup).map((s) => s.shipmentId)).toEqual(webhooks.map((w) => w.envelope.shipment_id));
    expect(ledger.pendingBookings()).toEqual([]);
    await h.close!();
  });
});
