/** Reference data: status, carriers, printers, service points, favorites, rules, defaults. */
import { z } from 'zod';
import { CARRIERS, FAVORITE_ADDRESSES, FAVORITE_PACKAGES, PRINTERS, SERVICE_POINT_CARRIERS, SHIPPING_RULES } from '../catalog';
import { HttpError, json, parseBody, type FieldErrors } from '../http';
import { route, type Route } from '../router';
import type { SandboxState } from '../state';
import { defaultsPatchSchema, servicePointRequestSchema } from '../validation';

const POINT_NAMES = ['ICA Supermarket', 'Pressbyrån', 'Coop Konsum'];

function defaultsView(state: SandboxState): Record<string, unknown> {
  return {
    sender_address: FAVORITE_ADDRESSES.find((e) => e.id === state.defaults.senderAddress) ?? null,
    receiver_address: FAVORITE_ADDRESSES.find((e) => e.id === state.defaults.receiverAddress) ?? null,
    package: FAVORITE_PACKAGES.find((e) => e.id === state.defaults.package) ?? null,
  };
}

const addressSearchSchema = z.object({ query: z.string().nullish() });

export const referenceRoutes: readonly Route[] = [
  route('GET', '/status', ({ state }) => json(200, { status: 'ok', team: state.team.name })),

  route('GET', '/carriers', () => json(200, { carriers: CARRIERS.map((c) => ({ carrier: c.carrier, name: c.name })) })),

  route('GET', '/printers', () => json(200, { printers: PRINTERS })),

  route('POST', '/locations/servicepoints', async ({ state, json: body }) => {
    const req = parseBody(servicePointRequestSchema, await body());
    const country = req.country_code.toUpperCase();
    const locations = SERVICE_POINT_CARRIERS.filter((c) => c.countries.has(country) && (!req.carrier || req.carrier === c.carrier)).flatMap(
      (c) =>
        POINT_NAMES.map((name, i) => {
          const token = state.token();
          const pointName = `${name} ${req.city ?? ''}`.trim();
          state.servicePoints.set(token, { carrier: c.carrier, name: pointName, countryCode: country });
          return {
            carrier: c.carrier,
            service_point_token: token,
            service_point_name: pointName,
            address_line: `Servicegatan ${i + 1}`,
            postal_code: req.postal_code,
            city: req.city ?? '',
            country_code: country,
            distance_by_road: String(400 * (i + 1)),
            distance_great_circle: String(300 * (i + 1)),
          };
        }),
    );
    return json(200, { locations });
  }),

  route('POST', '/favorites/addresses', async ({ json: body }) => {
    const q = (parseBody(addressSearchSchema, await body()).query ?? '').trim().toLowerCase();
    const addresses = FAVORITE_ADDRESSES.filter((e) => {
      if (!q) return true;
      const hay = [e.name, e.contact?.name, e.contact?.email, e.address.address_line_1, e.address.city, e.address.postal_code];
      return hay.some((v) => v?.toLowerCase().includes(q));
    });
    return json(200, { addresses });
  }),

  route('GET', '/favorites/packages', () => json(200, { packages: FAVORITE_PACKAGES })),

  route('GET', '/shipping-rules', () =>
    json(200, {
      shipping_rules: SHIPPING_RULES.map((r) => ({
        id: r.id,
        hash: r.id,
        name: r.name,
        type: r.type,
        category: r.category,
        enabled: r.enabled,
      })),
    }),
  ),

  route('GET', '/shipment-defaults', ({ state }) => json(200, defaultsView(state))),

  route('PATCH', '/shipment-defaults', async ({ state, json: body }) => {
    const req = parseBody(defaultsPatchSchema, await body());
    const errors: FieldErrors = {};
    const addressOk = (id: string): boolean => FAVORITE_ADDRESSES.some((e) => e.id === id);
    const packageOk = (id: string): boolean => FAVORITE_PACKAGES.some((e) => e.id === id);
    if (req.sender_address && !addressOk(req.sender_address.id)) errors['sender_address.id'] = ['is not one of your address book entries'];
    if (req.receiver_address && !addressOk(req.receiver_address.id))
      errors['receiver_address.id'] = ['is not one of your address book entries'];
    if (req.package && !packageOk(req.package.id)) errors['package.id'] = ['is not one of your favorite packages'];
    if (Object.keys(errors).length > 0) {
      throw new HttpError(
        422,
        'unknown_default',
        'A default names an entry that is not one of your own. Use ids from POST /favorites/addresses or GET /favorites/packages.',
        errors,
      );
    }
    if (req.sender_address !== undefined) state.defaults.senderAddress = req.sender_address?.id ?? null;
    if (req.receiver_address !== undefined) state.defaults.receiverAddress = req.receiver_address?.id ?? null;
    if (req.package !== undefined) state.defaults.package = req.package?.id ?? null;
    return json(200, defaultsView(state));
  }),
];
