import { HttpError, json, parseBody } from '../http';
import { route, type Route } from '../router';
import { createShipment, updateShipment } from '../shipment-factory';
import { shipmentView } from '../shipment-view';
import { shipmentBodySchema } from '../validation';
import { isBooked } from '../store';

function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(400, 'invalid_query', `Query parameter ${name} must be an integer from ${min} to ${max}.`);
  }
  return value;
}

export const shipmentRoutes: readonly Route[] = [
  route('POST', '/shipments', async ({ state, json: body }) => {
    const input = parseBody(shipmentBodySchema, await body());
    const shipment = createShipment(state, input);
    return json(201, { id: shipment.id, reference_id: shipment.body.reference_id ?? null });
  }),

  route('GET', '/shipments', ({ state, query }) => {
    const limit = intParam(query, 'limit', 100, 1, 1000);
    const offset = intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const { items, total } = state.store.list({
      referenceId: query.get('reference_id') ?? undefined,
      status: query.get('status')?.toUpperCase() ?? undefined,
      limit,
      offset,
    });
    return json(200, items.map(shipmentView), { 'X-Total-Count': String(total) });
  }),

  route('GET', '/shipments/:id', ({ state, params }) => json(200, shipmentView(state.shipment(params['id']!)))),

  route('PUT', '/shipments/:id', async ({ state, params, json: body }) => {
    const shipment = state.shipment(params['id']!);
    const input = parseBody(shipmentBodySchema, await body());
    updateShipment(state, shipment, input);
    return json(200, shipmentView(shipment));
  }),

  route('DELETE', '/shipments/:id', ({ state, params }) => {
    const shipment = state.shipment(params['id']!);
    if (isBooked(shipment)) {
      throw new HttpError(409, 'shipment_booked', 'A booked shipment cannot be deleted. Cancel it with POST /shipments/cancel.');
    }
    state.store.delete(shipment.id);
    return { status: 204 };
  }),
];
