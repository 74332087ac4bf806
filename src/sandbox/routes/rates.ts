import { json, parseBody } from '../http';
import { searchRates } from '../rating';
import { route, type Route } from '../router';
import { rateRequestSchema } from '../validation';

export const rateRoutes: readonly Route[] = [
  route('POST', '/shipments/rates', async ({ state, json: body }) => {
    const req = parseBody(rateRequestSchema, await body());
    const shipment = state.shipment(req.shipment_id);
    // Spec: always 200 when at least one rate or warning exists (else searchRates throws 400).
    return json(200, searchRates(state, shipment, req));
  }),
];
