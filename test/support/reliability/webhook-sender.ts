/**
 * Deliveries straight at an agent's webhook receiver, signed as the service signs them
 * (src/sandbox/webhooks/signature.ts), or deliberately not: forged (another key) and
 * stale (a time outside the tolerance).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { signPayload } from '../../../src/sandbox/webhooks/signature';

export interface Booking {
  readonly shipmentId: string;
  readonly trackingId: string | null;
  readonly referenceId: string;
}

export type Signing = 'valid' | 'forged' | 'stale' | 'none';

/** A SHIPMENT_BOOKED envelope as the spec shows it (Events: Envelope, SHIPMENT_BOOKED). */
export function bookedEnvelope(
  b: Booking,
  o: { messageId?: string; bookedAt?: Date; source?: 'API' | 'APP' } = {},
): Record<string, unknown> {
  const bookedAt = o.bookedAt ?? new Date();
  return {
    message_id: o.messageId ?? randomUUID(),
    type: 'SHIPMENT_BOOKED',
    created_at: new Date().toISOString(),
    shipment_id: b.shipmentId,
    data: {
      carrier: 'postnord',
      product: 'postnord_parcel',
      source: o.source ?? 'API',
      agreement: 'SERVICE',
      tracking_id: b.trackingId,
      reference_id: b.referenceId,
      invoice_reference: null,
      customer_reference: '',
      booked_at: bookedAt.toISOString(),
    },
  };
}

/** A TRACKING_EVENT envelope for `b`. */
export function trackingEnvelope(b: Booking, event: string, at: Date, messageId: string = randomUUID()): Record<string, unknown> {
  return {
    message_id: messageId,
    type: 'TRACKING_EVENT',
    created_at: new Date().toISOString(),
    shipment_id: b.shipmentId,
    data: {
      event,
      carrier: 'postnord',
      tracking_id: b.trackingId ?? '',
      reason: 'UNKNOWN',
      description: null,
      location: '',
      event_time: at.toISOString(),
    },
  };
}

export interface DeliveryResult {
  readonly status: number;
  /** From the request being written to the whole answer read, in ms. */
  readonly ms: number;
}

/** A keep-alive connection pool to one receiver, as the service would hold. */
export class WebhookSender {
  private readonly pool: Pool;
  private readonly path: string;

  constructor(
    url: string,
    private readonly secret: string,
    connections = 16,
  ) {
    const u = new URL(url);
    this.pool = new Pool(u.origin, { connections, pipelining: 1 });
    this.path = u.pathname;
  }

  signature(body: string, signing: Signing, nowSeconds = Date.now() / 1000): string | null {
    switch (signing) {
      case 'valid':
        return signPayload(this.secret, body, nowSeconds);
      case 'forged':
        return signPayload(`${this.secret}-forged`, body, nowSeconds);
      case 'stale':
        return signPayload(this.secret, body, nowSeconds - 3600);
      case 'none':
        return null;
    }
  }

  async deliver(envelope: unknown, signing: Signing = 'valid'): Promise<DeliveryResult> {
    const body = JSON.stringify(envelope);
    const signature = this.signature(body, signing);
    const started = performance.now();
    const res = await this.pool.request({
      method: 'POST',
      path: this.path,
      body,
      headers: { 'content-type': 'application/json', ...(signature ? { 'service-signature': signature } : {}) },
    });
    await res.body.text();
    return { status: res.statusCode, ms: performance.now() - started };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Runs `work` over `items` with at most `concurrency` at once; results in input order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
