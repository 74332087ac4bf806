/**
 * /admin: what the web application and the operator do outside the API (book "in the
 * app", cancel "in the app", leave a draft for the station, fault knobs, printer jobs, webhook endpoints, ADR approval). Same x-api-key;
 * faults never apply here.
 */
import { z } from 'zod';
import { PRODUCTS } from '../catalog';
import type { FaultSettings } from '../faults';
import { mergeFaults } from '../faults';
import { adminDraftSchema, createDraft } from '../drafts';
import { HttpError, json, parseBody } from '../http';
import { isBooked } from '../store';
import { route, type Route } from '../router';
import type { Services } from '../services';
import { createShipment } from '../shipment-factory';
import type { SandboxState } from '../state';
import type { ShipmentBody } from '../validation';
import type { WebhookEndpoint } from '../webhooks/types';

export const adminBookSchema = z.object({
  source: z.enum(['API', 'APP']).nullish(),
  reference_id: z.string().nullish(),
  sender_reference: z.string().nullish(),
  system: z.string().nullish(),
  packages: z.number().int().min(1).max(100).nullish(),
  carrier: z.string().nullish(),
});
export type AdminBookInput = z.infer<typeof adminBookSchema>;

const RECEIVERS = [
  { name: 'Nordic Retail AB', contact: 'Rita Receiver', line: 'Drottninggatan 10', postal: '11151', city: 'Stockholm' },
  { name: 'Fjällräven Outlet', contact: 'Olle Outlet', line: 'Storgatan 3', postal: '83130', city: 'Östersund' },
  { name: 'Malmö Bikes', contact: 'Mia Cyklist', line: 'Södra Förstadsgatan 7', postal: '21143', city: 'Malmö' },
];

let serial = 0;

function shipmentFor(input: AdminBookInput, index: number): ShipmentBody {
  const r = RECEIVERS[index % RECEIVERS.length]!;
  return {
    reference_id: input.reference_id ?? `ORDER-${100000 + index}`,
    sender_reference: input.sender_reference ?? null,
    system: input.system ?? null,
    to: {
      name: r.name,
      address: { address_line_1: r.line, postal_code: r.postal, city: r.city, country_code: 'SE' },
      contact: { name: r.contact, email: 'receiver@example.com', phone: '+46700000000' },
    },
    packages: Array.from({ length: input.packages ?? 1 }, (_v, i) => ({
      depth_cm: 30,
      height_cm: 20,
      width_cm: 20,
      weight_kg: 1 + i,
      quantity: 1,
      description: `Parcel ${i + 1}`,
      type: 'PACKAGE',
    })),
  };
}

/** Create and book in one step, as the web application (APP) or an integration (API) would. */
export function bookDirect(
  state: SandboxState,
  services: Services,
  input: AdminBookInput,
): { shipmentId: string; trackingId: string; referenceId: string } {
  const carrier = input.carrier ?? 'postnord';
  const product = PRODUCTS.find((p) => p.carrier === carrier && !p.servicePoint);
  if (!product) throw new HttpError(400, 'unknown_carrier', `Unknown carrier "${carrier}". Use a carrier from GET /carriers.`);
  const shipment = createShipment(state, shipmentFor(input, ++serial));
  const weight = (shipment.body.packages ?? []).reduce((s, p) => s + (p.weight_kg ?? 0), 0);
  services.confirm(shipment, {
    product,
    agreement: 'SERVICE',
    receiverPays: false,
    price: Math.round((product.basePrice + product.perKg * weight) * 100) / 100,
    nonEu: false,
    source: input.source ?? 'APP',
    servicePoint: null,
  });
  return { shipmentId: shipment.id, trackingId: shipment.booking!.trackingId, referenceId: shipment.body.reference_id ?? '' };
}

export const adminCancelSchema = z.object({
  shipment_id: z.string().min(1),
  /** Also send a TRACKING_EVENT `CANCELED` (services.announceCancel). */
  tracking_event: z.boolean().nullish(),
});
export type AdminCancelInput = z.infer<typeof adminCancelSchema>;

/** Cancel as the web application (or another station) would: same rule as POST /shipments/cancel (README 33). */
export function cancelDirect(state: SandboxState, services: Services, input: AdminCancelInput): { shipment_id: string; status: string } {
  const shipment = state.shipment(input.shipment_id);
  if (!isBooked(shipment)) {
    throw new HttpError(
      409,
      'shipment_not_booked',
      `Only booked shipments can be canceled; shipment ${shipment.id} is ${shipment.status}.`,
    );
  }
  services.cancel(shipment);
  if (input.tracking_event) services.announceCancel(shipment);
  return { shipment_id: shipment.id, status: shipment.status };
}

const faultsSchema = z.object({
  latencyMs: z.number().optional(),
  errorRate: z.number().optional(),
  rateLimitRate: z.number().optional(),
  retryAfterSeconds: z.number().optional(),
  dropRate: z.number().optional(),
  labelDelayMs: z.number().optional(),
});
const webhooksSchema = z.array(z.object({ url: z.url(), secret: z.string().min(1), subscriptions: z.array(z.string()).optional() })).max(5);

export function setFaults(state: SandboxState, patch: Partial<FaultSettings>): void {
  try {
    state.faults = mergeFaults(state.faults, patch);
  } catch (error) {
    throw new HttpError(400, 'invalid_faults', (error as Error).message);
  }
}

export const adminRoutes: readonly Route[] = [
  route('POST', '/admin/book', async ({ state, services, json: body }) => {
    const input = parseBody(adminBookSchema, await body());
    return json(200, bookDirect(state, services, input));
  }),
  route('POST', '/admin/cancel', async ({ state, services, json: body }) =>
    json(200, cancelDirect(state, services, parseBody(adminCancelSchema, await body()))),
  ),
  route('POST', '/admin/drafts', async ({ state, json: body }) => json(201, createDraft(state, parseBody(adminDraftSchema, await body())))),
  route('GET', '/admin/faults', ({ state }) => json(200, state.faults)),
  route('POST', '/admin/faults', async ({ state, json: body }) => {
    setFaults(state, parseBody(faultsSchema, await body()));
    return json(200, state.faults);
  }),
  route('GET', '/admin/printer-jobs', ({ state, query }) => {
    const id = query.get('printer_id');
    return json(200, { jobs: state.printerJobs.filter((j) => !id || j.printerId === id) });
  }),
  route('POST', '/admin/webhooks', async ({ state, json: body }) => {
    const raw = await body();
    const list = Array.isArray(raw) || raw === null || typeof raw !== 'object' ? raw : (raw as { endpoints?: unknown }).endpoints;
    const endpoints: WebhookEndpoint[] = parseBody(webhooksSchema, list);
    state.dispatcher.setEndpoints(endpoints);
    return json(200, { endpoints: endpoints.length });
  }),
  route('POST', '/admin/adr-approval', async ({ state, json: body }) => {
    const { approved } = parseBody(z.object({ approved: z.boolean() }), await body());
    state.adrApproved = approved;
    return json(200, { approved });
  }),
];
