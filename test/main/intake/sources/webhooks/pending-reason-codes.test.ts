import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { englishOf } from '../../../../../src/shared/agent-messages';
import type { StationRules } from '../../../../../src/shared/domain';
import { pendingHistory, pendingJobView } from '../../../../../src/main/intake/sources/webhooks/pending-decisions';
import { errorFromResponse } from '../../../../../src/main/api/error-mapping';
import { startWebhookServer, type WebhookServer } from '../../../../../src/main/intake/sources/webhooks/webhook-server';
import type { Ledger } from '../../../../../src/main/ledger/ledger';
import { RecordingSink, tempLedger, until } from '../../../../support/intake/fixtures';
import { bookedEnvelope, deliver } from '../../../../support/intake/loopback-sender';

const SECRET = 'whsec-test';
const SENDER_RULE: StationRules = { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'sender_reference', pattern: 'WH-' }] };

describe('a webhook booking waiting for its decision: the reason as a message code', () => {
  let ledger: Ledger;
  let dispose: () => Promise<void>;
  const servers: WebhookServer[] = [];

  beforeEach(async () => {
    ({ ledger, dispose } = await tempLedger());
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    await dispose();
  });

  it("stores the code with the English; the history entry wraps the shipment's details wait around the service error", async () => {
    const failing = errorFromResponse(
      { method: 'GET', path: '/shipments/x', status: 503, requestId: 'req-503', retryAfterMs: null, secret: '' },
      { message: 'Maintenance' },
    );
    const server = await startWebhookServer({
      secrets: [SECRET],
      ledger,
      sink: new RecordingSink(),
      stationRules: SENDER_RULE,
      shipments: {
        getShipment: async () => {
          throw failing;
        },
      },
      decisionRetry: { baseMs: 60_000, maxMs: 60_000 },
    });
    servers.push(server);
    const id = randomUUID();
    expect((await deliver(server.url, bookedEnvelope(id), { secret: SECRET })).status).toBe(200);
    await until(() => server.counters.bookingsDeferred >= 1);

    const [stored] = ledger.pendingBookings();
    expect(stored!.reasonMessage).toMatchObject({
      code: 'intake.needsShipment',
      params: { shipmentId: id, cause: { code: 'service.error', params: { serviceMessage: 'Maintenance', requestId: 'req-503' } } },
    });
    expect(stored!.reason).toBe(englishOf(stored!.reasonMessage!));
    const [waiting] = pendingHistory(ledger, {});
    expect(waiting!.reasonMessage).toEqual({
      code: 'intake.waiting',
      params: { cause: stored!.reasonMessage, nextAttemptAt: stored!.nextAttemptAt },
    });
    expect(waiting!.reason).toBe(`${stored!.reason} Next try at ${stored!.nextAttemptAt}.`);
    expect(waiting!.reason).toMatch(
      /^Waiting for the shipment's details: .*GET \/shipments\/.* failed \(.*Maintenance.*request id req-503\)/,
    );
  });

  it('a booking not tried yet waits for the rules (coded); one stored before codes keeps its English without a code', () => {
    const base = {
      notice: {
        shipmentId: 's-1',
        referenceId: 'R-1',
        trackingId: null,
        carrier: null,
        source: 'API',
        senderReference: null,
        system: null,
        bookedAt: null,
        trigger: 'webhook' as const,
      },
      data: null,
      receivedAt: '2026-11-24T08:00:00.000Z',
      attempts: 0,
      nextAttemptAt: '2026-11-24T08:00:00.000Z',
    };
    const fresh = pendingJobView({ ...base, reason: null });
    expect(fresh.reasonMessage).toEqual({ code: 'intake.waitingForRules', params: {} });
    expect(fresh.reason).toBe('Received by webhook; waiting for the station rules to decide.');
    const old = pendingJobView({ ...base, attempts: 1, reason: 'Waiting for the shipment (old words).', reasonMessage: null });
    expect(old.reasonMessage).toBeUndefined();
    expect(old.reason).toBe('Waiting for the shipment (old words). Next try at 2026-11-24T08:00:00.000Z.');
  });
});
