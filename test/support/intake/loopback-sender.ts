import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { signPayload } from '../../../src/sandbox/webhooks/signature';

/** Sends webhooks to a receiver on loopback the way the service does (spec, Events). */
export interface Delivery {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface SendOptions {
  readonly secret?: string;
  /** Unix seconds put in the signature. @default now */
  readonly time?: number;
  /** Replaces the whole Service-Signature header (null = none). */
  readonly signature?: string | null;
  readonly method?: string;
  readonly path?: string;
}

export async function deliver(baseUrl: string, body: string | Buffer, options: SendOptions = {}): Promise<Delivery> {
  const time = options.time ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature = options.signature === undefined ? signPayload(options.secret ?? 'whsec-test', body, time) : options.signature;
  if (signature !== null) headers['service-signature'] = signature;
  const url = new URL(options.path ?? '', baseUrl);
  const res = await request(url, { method: (options.method ?? 'POST') as 'POST', headers, body });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

/** The spec's webhook envelope around `data`, as the body the service sends. */
function envelope(type: string, shipmentId: string, data: Record<string, unknown>, messageId: string): string {
  return JSON.stringify({ message_id: messageId, type, created_at: new Date().toISOString(), shipment_id: shipmentId, data });
}

export function bookedEnvelope(shipmentId: string, data: Record<string, unknown> = {}, messageId = randomUUID()): string {
  return envelope(
    'SHIPMENT_BOOKED',
    shipmentId,
    {
      carrier: 'postnord',
      product: 'parcel',
      source: 'API',
      agreement: 'SERVICE',
      tracking_id: `TRK-${shipmentId}`,
      reference_id: `REF-${shipmentId}`,
      invoice_reference: null,
      customer_reference: '',
      booked_at: new Date().toISOString(),
      ...data,
    },
    messageId,
  );
}

export function trackingEnvelope(shipmentId: string, data: Record<string, unknown> = {}, messageId = randomUUID()): string {
  return envelope(
    'TRACKING_EVENT',
    shipmentId,
    {
      event: 'IN_TRANSIT',
      carrier: 'postnord',
      tracking_id: `TRK-${shipmentId}`,
      reason: 'UNKNOWN',
      description: null,
      location: '',
      event_time: new Date().toISOString(),
      ...data,
    },
    messageId,
  );
}
