import { describe, expect, it } from 'vitest';
import { parseWebhook } from '../../../../../src/main/intake/sources/webhooks/envelope';

const base = { message_id: 'm1', created_at: '2026-01-01T10:00:00Z', shipment_id: 'shp_1' };

describe('parseWebhook', () => {
  it('parses SHIPMENT_BOOKED with nanosecond timestamps and unknown fields', () => {
    const r = parseWebhook({
      ...base,
      type: 'SHIPMENT_BOOKED',
      extra: 1,
      data: {
        carrier: 'dhl',
        source: 'APP',
        tracking_id: null,
        reference_id: 'R1',
        booked_at: '2026-01-01T10:00:00.123456789+01:00',
        novel: [1],
      },
    });
    expect(r.ok && r.webhook.kind).toBe('booked');
    if (r.ok && r.webhook.kind === 'booked') {
      expect(r.webhook.data).toMatchObject({ carrier: 'dhl', source: 'APP', tracking_id: null, novel: [1] });
    }
  });

  it('parses TRACKING_EVENT with an unknown event name', () => {
    const r = parseWebhook({
      ...base,
      type: 'TRACKING_EVENT',
      data: { event: 'TELEPORTED', reason: 'NEW_REASON', event_time: '2026-01-01T10:00:00.5Z', location: '' },
    });
    expect(r.ok && r.webhook.kind).toBe('tracking');
  });

  it('passes unknown types as other', () => {
    const r = parseWebhook({ ...base, type: 'INVOICE_CREATED', data: { whatever: true } });
    expect(r.ok && r.webhook.kind).toBe('other');
  });

  it('is strict on types and names the field', () => {
    const r1 = parseWebhook({ ...base, type: 'SHIPMENT_BOOKED', data: { source: 5 } });
    expect(r1).toMatchObject({ ok: false, error: expect.stringContaining('data.source') });
    const r2 = parseWebhook({ ...base, created_at: 1767225600, type: 'SHIPMENT_BOOKED', data: {} });
    expect(r2).toMatchObject({ ok: false, error: expect.stringContaining('created_at') });
    const r3 = parseWebhook({ ...base, type: 'TRACKING_EVENT', data: { event_time: '2026-01-01T10:00:00Z' } });
    expect(r3).toMatchObject({ ok: false, error: expect.stringContaining('data.event') });
    expect(parseWebhook([1, 2]).ok).toBe(false);
    expect(parseWebhook({ ...base, type: 'X', data: 'str' }).ok).toBe(false);
  });

  it('keeps a signed delivery whose timestamps it cannot read, instead of refusing it for ever', () => {
    const before = Date.now();
    const r = parseWebhook({ ...base, created_at: 'yesterday', type: 'SHIPMENT_BOOKED', data: { booked_at: '22/11/2026 10:00' } });
    expect(r.ok).toBe(true);
    if (!r.ok || r.webhook.kind !== 'booked') throw new Error('expected a booking');
    expect(r.webhook.data.booked_at).toBeNull();
    expect(Date.parse(r.webhook.envelope.created_at)).toBeGreaterThanOrEqual(before - 1000);
    const t = parseWebhook({ ...base, type: 'TRACKING_EVENT', data: { event: 'DELAYED', event_time: 'soon' } });
    expect(t.ok && t.webhook.kind === 'tracking' && t.webhook.data.event_time).toBeNull();
  });
});
