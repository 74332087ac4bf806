import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ParsedWebhook } from '../../../../../src/main/intake/sources/webhooks/envelope';
import {
  newReceiverCounters,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../../../src/main/intake/sources/webhooks/webhook-receiver';
import { deliver } from '../../../../support/intake/loopback-sender';
import { until } from '../../../../support/intake/fixtures';

const SECRET = 'whsec-test';

/** A delivery of a type no handler exists for: the receiver treats every type alike. */
function body(messageId: string, type = 'PARCEL_WEIGHED'): string {
  return JSON.stringify({ message_id: messageId, type, created_at: '2026-01-01T10:00:00Z', shipment_id: 'shp_1', data: { grams: 1200 } });
}

describe('webhook receiver', () => {
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it('records a verified delivery before the 2xx and hands it on after, knowing nothing of its type', async () => {
    const events: string[] = [];
    const seen = new Set<string>();
    const counters = newReceiverCounters();
    const deliveries = {
      remember: (webhook: ParsedWebhook) => {
        events.push(`remember ${webhook.type}`);
        if (seen.has(webhook.envelope.message_id)) return false;
        seen.add(webhook.envelope.message_id);
        return true;
      },
      process: (webhook: ParsedWebhook) => events.push(`process ${webhook.type}`),
    };
    receiver = await startWebhookReceiver({ secrets: [SECRET] }, deliveries, counters);
    const id = randomUUID();

    const first = await deliver(receiver.url, body(id));
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ status: 'accepted' });
    await until(() => events.length === 2);
    expect(events).toEqual(['remember PARCEL_WEIGHED', 'process PARCEL_WEIGHED']);

    const again = await deliver(receiver.url, body(id));
    expect(JSON.parse(again.body)).toEqual({ status: 'duplicate' });
    expect(events).toEqual(['remember PARCEL_WEIGHED', 'process PARCEL_WEIGHED', 'remember PARCEL_WEIGHED']);
    expect(counters).toMatchObject({ accepted: 1, duplicates: 1 });
  });

  it('does not acknowledge what it could not record (500, so the service delivers it again)', async () => {
    const processed: string[] = [];
    const counters = newReceiverCounters();
    const deliveries = {
      remember: (): boolean => {
        throw new Error('disk full');
      },
      process: (webhook: ParsedWebhook) => processed.push(webhook.envelope.message_id),
    };
    receiver = await startWebhookReceiver({ secrets: [SECRET] }, deliveries, counters);
    const res = await deliver(receiver.url, body(randomUUID()));
    expect(res.status).toBe(500);
    expect(counters.rejected.internal).toBe(1);
    expect(counters.accepted).toBe(0);
    expect(processed).toEqual([]);
  });

  it('answers 503 with Retry-After when the ledger cannot take the delivery (disk full), so the service delivers it again', async () => {
    const processed: string[] = [];
    const counters = newReceiverCounters();
    const deliveries = {
      remember: (): boolean => {
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      },
      process: (webhook: ParsedWebhook) => processed.push(webhook.envelope.message_id),
    };
    receiver = await startWebhookReceiver({ secrets: [SECRET] }, deliveries, counters);
    const res = await deliver(receiver.url, body(randomUUID()));
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(counters.rejected.unavailable).toBe(1);
    expect(counters.rejected.internal).toBe(0);
    expect(processed).toEqual([]);
  });

  it('hands on nothing that is unsigned or unparsable', async () => {
    const calls: string[] = [];
    const counters = newReceiverCounters();
    const deliveries = {
      remember: (webhook: ParsedWebhook) => (calls.push(webhook.envelope.message_id), true),
      process: (webhook: ParsedWebhook) => void calls.push(webhook.envelope.message_id),
    };
    receiver = await startWebhookReceiver({ secrets: [SECRET] }, deliveries, counters);
    expect((await deliver(receiver.url, body(randomUUID()), { secret: 'wrong' })).status).toBe(401);
    expect((await deliver(receiver.url, JSON.stringify({ type: 'SHIPMENT_BOOKED' }))).status).toBe(400);
    expect(calls).toEqual([]);
    expect(counters.rejected).toMatchObject({ mismatch: 1, invalid: 1 });
  });
});

describe('webhook receiver: refusals an operator can fix', () => {
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it('logs one warning per reason a minute saying what to check, then the count of those left out', async () => {
    const warnings: string[] = [];
    const logger = { info() {}, warn: (m: string) => void warnings.push(m), error: (m: string) => void warnings.push(`error ${m}`) };
    let clock = 1_800_000_000_000;
    const deliveries = { remember: () => true, process() {} };
    receiver = await startWebhookReceiver({ secrets: [SECRET], logger, now: () => clock }, deliveries);
    const time = () => Math.floor(clock / 1000);

    for (let i = 0; i < 5; i++) {
      expect((await deliver(receiver.url, body(randomUUID()), { secret: 'whsec-wrong', time: time() })).status).toBe(401);
    }
    expect(warnings).toEqual([
      'intake: webhook refused (401): its signature matches no configured webhook secret. Check that the webhook secret in ' +
        "the service's API settings is the one given to the station (PRINT_STATION_WEBHOOK_SECRET, --config webhookSecrets).",
    ]);

    // A clock 1000 s behind the service's: its own reason, its own line.
    expect((await deliver(receiver.url, body(randomUUID()), { time: time() + 1000 })).status).toBe(401);
    expect((await deliver(receiver.url, body(randomUUID()), { time: time() + 1000 })).status).toBe(401);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe(
      "intake: webhook refused (401): its signature time is 1000 s off this station's clock (at most 300 s allowed). " +
        "Check the station's clock (time sync, NTP).",
    );

    clock += 59_000;
    await deliver(receiver.url, body(randomUUID()), { secret: 'whsec-wrong', time: time() });
    expect(warnings).toHaveLength(2);
    clock += 1_000;
    await deliver(receiver.url, body(randomUUID()), { secret: 'whsec-wrong', time: time() });
    expect(warnings).toHaveLength(3);
    expect(warnings[2]).toMatch(
      /^intake: webhook refused \(401\): its signature matches no configured webhook secret\. .*\(5 more refused for the same reason since the last such line\)$/,
    );
    // A good delivery logs no warning.
    expect((await deliver(receiver.url, body(randomUUID()), { time: time() })).status).toBe(200);
    expect(warnings).toHaveLength(3);
  });
});
