import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  parseWebhook,
  WEBHOOK_EVENT_TYPES,
  type KnownWebhook,
  type ParsedWebhook,
  type WebhookEventType,
  type WebhookOf,
} from '../../../../../src/main/intake/sources/webhooks/envelope';
import {
  createWebhookHandlers,
  newHandlerCounters,
  webhookRouter,
  type WebhookHandler,
  type WebhookHandlerTable,
} from '../../../../../src/main/intake/sources/webhooks/handlers';
import { silentLogger } from '../../../../../src/main/intake/ports';
import { bookedEnvelope, trackingEnvelope } from '../../../../support/intake/loopback-sender';

/** A handler that records what it was given, for routing checks. */
function recordingHandler<T extends WebhookEventType>(type: T, calls: string[], withRemember: boolean): WebhookHandler<WebhookOf<T>> {
  return {
    ...(withRemember
      ? {
          remember: (webhook: WebhookOf<T>) => {
            calls.push(`${type}.remember ${webhook.envelope.message_id}`);
            return true;
          },
        }
      : {}),
    process: (webhook) => calls.push(`${type}.process ${webhook.type} ${webhook.envelope.message_id}`),
    start: () => calls.push(`${type}.start`),
    close: async () => {
      calls.push(`${type}.close`);
    },
  };
}

/** A recording handler in every row; those in `ownRemember` record deliveries themselves. */
function recordingTable(calls: string[], ownRemember: readonly WebhookEventType[]): WebhookHandlerTable {
  // Built from the schema's list, so a new event type needs no edit here.
  const rows = WEBHOOK_EVENT_TYPES.map((type) => [type, recordingHandler(type, calls, ownRemember.includes(type))]);
  return Object.fromEntries(rows) as WebhookHandlerTable;
}

function parsed(body: string): ParsedWebhook {
  const result = parseWebhook(JSON.parse(body));
  if (!result.ok) throw new Error(result.error);
  return result.webhook;
}

describe('webhook handler table', () => {
  it('is typed so that every event type of the envelope union needs its own handler', () => {
    const noop = { process: () => {} };
    const booked: WebhookHandler<WebhookOf<'SHIPMENT_BOOKED'>> = { process: (w) => void w.data.booked_at };
    const tracking: WebhookHandler<WebhookOf<'TRACKING_EVENT'>> = { process: (w) => void w.data.event };

    // @ts-expect-error a table without a TRACKING_EVENT handler does not compile
    const missing: WebhookHandlerTable = { SHIPMENT_BOOKED: booked };
    // @ts-expect-error a handler of one type cannot stand in another type's row
    const swapped: WebhookHandlerTable = { SHIPMENT_BOOKED: tracking, TRACKING_EVENT: booked };
    // @ts-expect-error a row for a type the union does not have does not compile
    const extra: WebhookHandlerTable = { SHIPMENT_BOOKED: booked, TRACKING_EVENT: tracking, INVOICE_CREATED: noop };
    expect([missing, swapped, extra].every((table) => typeof table === 'object')).toBe(true);
  });

  it('has a row for every event type the envelope union parses, and none beside', () => {
    const ledger = { rememberMessage: () => true, recordTracking: () => true };
    const table = createWebhookHandlers(
      { ledger, sink: { submitBooking: () => undefined }, stationRules: { mode: 'all', sources: [], carriers: [], matches: [] } },
      { counters: newHandlerCounters(), logger: silentLogger, now: Date.now },
    );
    expect(WEBHOOK_EVENT_TYPES.length).toBeGreaterThan(1);
    expect(Object.keys(table).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) expect(typeof table[type].process).toBe('function');
  });

  it('routes each event type to its own handler, before and after the acknowledgement', async () => {
    const calls: string[] = [];
    const remembered: string[] = [];
    const counters = newHandlerCounters();
    const table = recordingTable(calls, ['SHIPMENT_BOOKED']);
    const ledger = { rememberMessage: (id: string) => (remembered.push(id), true) };
    const router = webhookRouter(table, { ledger, counters });

    router.start();
    expect(calls.splice(0)).toEqual(WEBHOOK_EVENT_TYPES.map((type) => `${type}.start`));

    const bookedId = randomUUID();
    const booked = parsed(bookedEnvelope('shp_1', {}, bookedId));
    expect(router.remember(booked)).toBe(true);
    router.process(booked);
    expect(calls.splice(0)).toEqual([`SHIPMENT_BOOKED.remember ${bookedId}`, `SHIPMENT_BOOKED.process SHIPMENT_BOOKED ${bookedId}`]);
    expect(remembered).toEqual([]);

    // A handler without its own `remember` is recorded by message id in the ledger.
    const trackingId = randomUUID();
    const tracking = parsed(trackingEnvelope('shp_1', {}, trackingId));
    expect(router.remember(tracking)).toBe(true);
    router.process(tracking);
    expect(calls.splice(0)).toEqual([`TRACKING_EVENT.process TRACKING_EVENT ${trackingId}`]);
    expect(remembered).toEqual([trackingId]);
    expect(counters.ignored).toBe(0);

    await router.close();
    expect(calls.splice(0)).toEqual(WEBHOOK_EVENT_TYPES.map((type) => `${type}.close`));
  });

  it('remembers and counts an unknown event type, and hands it to no handler', () => {
    const calls: string[] = [];
    const counters = newHandlerCounters();
    const seen = new Set<string>();
    const ledger = { rememberMessage: (id: string) => !seen.has(id) && seen.add(id) !== undefined };
    const router = webhookRouter(recordingTable(calls, WEBHOOK_EVENT_TYPES), { ledger, counters });
    const body = { message_id: 'm-other', type: 'INVOICE_CREATED', created_at: '2026-01-01T10:00:00Z', shipment_id: 'shp_1', data: {} };
    const other = parseWebhook(body);
    if (!other.ok) throw new Error(other.error);
    expect(other.webhook).toMatchObject({ kind: 'other', type: 'INVOICE_CREATED' });

    expect(router.remember(other.webhook)).toBe(true);
    expect(router.remember(other.webhook)).toBe(false);
    router.process(other.webhook);
    expect(counters.ignored).toBe(1);
    expect(calls).toEqual([]);
  });

  it('parses each known type into its own variant of the union', () => {
    const kinds = (['SHIPMENT_BOOKED', 'TRACKING_EVENT'] as const).map((type) => {
      const webhook = parsed(type === 'SHIPMENT_BOOKED' ? bookedEnvelope('shp_1') : trackingEnvelope('shp_1')) as KnownWebhook;
      return [webhook.type, webhook.kind];
    });
    expect(kinds).toEqual([
      ['SHIPMENT_BOOKED', 'booked'],
      ['TRACKING_EVENT', 'tracking'],
    ]);
  });
});
