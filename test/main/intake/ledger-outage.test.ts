import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseWebhook, type ParsedWebhook } from '../../../src/main/intake/sources/webhooks/envelope';
import { createWebhookHandlers, newHandlerCounters } from '../../../src/main/intake/sources/webhooks/handlers';
import { bookedEnvelope } from '../../support/intake/loopback-sender';

function parsed(body: string): ParsedWebhook {
  const result = parseWebhook(JSON.parse(body));
  if (!result.ok) throw new Error(result.error);
  return result.webhook;
}

/** SQLite's error for a full disk, as better-sqlite3 throws it. */
function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

describe('a webhook booking recorded while the ledger cannot take its job', () => {
  it('is handed to the agent once per try and kept, with no line per booking and try, and submitted once the ledger takes writes', async () => {
    const lines: string[] = [];
    const logger = {
      info: (m: string) => lines.push(`INFO ${m}`),
      warn: (m: string) => lines.push(`WARN ${m}`),
      error: (m: string) => lines.push(`ERROR ${m}`),
    };
    let full = true;
    const submitted: string[] = [];
    const handedOff: unknown[] = [];
    const table = createWebhookHandlers(
      {
        ledger: { rememberMessage: () => true, recordTracking: () => true },
        sink: {
          submitBooking: (notice) => {
            if (full) throw diskFull();
            submitted.push(notice.shipmentId);
          },
        },
        stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
        decisionRetry: { baseMs: 10, maxMs: 20 },
        onLedgerFailure: (error) => handedOff.push(error),
      },
      { counters: newHandlerCounters(), logger, now: Date.now },
    );
    const id = randomUUID();
    table.SHIPMENT_BOOKED.process(parsed(bookedEnvelope(id)) as never);
    await expect.poll(() => handedOff.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => l.includes(id))).toEqual([]);

    full = false;
    await expect.poll(() => submitted, { timeout: 5_000 }).toEqual([id]);
    expect(lines.filter((l) => l.includes(id))).toEqual([`INFO intake: booking ${id} submitted: station prints every booking`]);
    await table.SHIPMENT_BOOKED.close?.();
  });
});
