/** Status and reference data: carriers, printers, service points, favorites, defaults. */
import { z } from 'zod';
import { list, opt } from './common';

export const statusResponse = z.looseObject({
  status: z.string(),
  /** The team the API key belongs to. */
  team: z.string(),
});

export const carrier = z.looseObject({
  /** Carrier identifier (used in to.carrier_accounts[].carrier). */
  carrier: z.string(),
  name: opt(z.string()),
});
export const carriersResponse = z.looseObject({ carriers: list(carrier) });

export const printer = z.looseObject({
  id: z.string(),
  name: opt(z.string()),
  description: opt(z.string()),
});
export const printersResponse = z.looseObject({ printers: list(printer) });

export const servicePointSearch = z.looseObject({
  address_line: z.string().optional(),
  postal_code: z.string().optional(),
  city: z.string().optional(),
  country_code: z.string().optional(),
  /** Carrier filter: the spec does not name the field; the sandbox reads `carrier`. */
  carrier: z.string().optional(),
});

/** All fields are strings per the spec (distances carry no unit). */
export const servicePoint = z.looseObject({
  carrier: opt(z.string()),
  /** Passed as delivery_service_point_token when booking. */
  service_point_token: z.string(),
  service_point_name: opt(z.string()),
  address_line: opt(z.string()),
  postal_code: opt(z.string()),
  city: opt(z.string()),
  country_code: opt(z.string()),
  distance_by_road: opt(z.string()),
  distance_great_circle: opt(z.string()),
});
export const servicePointsResponse = z.looseObject({ locations: list(servicePoint) });

/** The spec shows only `id` and "contact details"; everything else passes through. */
export const favoriteAddress = z.looseObject({ id: z.string() });
/** Request body not shown by the spec: a free search object; the sandbox reads `query`. */
export const favoriteAddressSearch = z.looseObject({ query: z.string().optional() });

export const favoritePackage = z.looseObject({
  id: z.string(),
  dangerous_goods_type: opt(z.string()),
});

/**
 * The spec names neither the list's shape nor its wrapper: accept a bare array or an
 * object holding the array under a conventional key, and hand back the array.
 */
function unwrapList<T extends z.ZodType>(item: T, keys: readonly string[]) {
  return z.union([
    z.array(item),
    z.looseObject({}).transform((value, ctx): z.output<T>[] => {
      const key = keys.find((k) => Array.isArray(value[k]));
      if (key === undefined) {
        ctx.addIssue({ code: 'custom', message: `expected an array or an object with one of: ${keys.join(', ')}` });
        return z.NEVER;
      }
      const parsed = z.array(item).safeParse(value[key]);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as never);
        return z.NEVER;
      }
      return parsed.data;
    }),
  ]);
}

export const favoriteAddressesResponse = unwrapList(favoriteAddress, ['addresses', 'favorites', 'entries', 'results', 'items']);
export const favoritePackagesResponse = unwrapList(favoritePackage, ['packages', 'favorites', 'entries', 'results', 'items']);

/** A default referenced by id, or null when cleared. */
export const defaultReference = z.looseObject({ id: z.string() }).nullable();

/**
 * GET /shipment-defaults. The spec does not name the fields; the sandbox (and this client)
 * use `sender_address`, `receiver_address` (address book entries) and `package` (a
 * favorite package), each the full entry or null. Unknown names pass.
 */
export const shipmentDefaults = z.looseObject({
  sender_address: opt(z.looseObject({ id: z.string() })),
  receiver_address: opt(z.looseObject({ id: z.string() })),
  package: opt(z.looseObject({ id: z.string() })),
});

/** PATCH /shipment-defaults: `{sender_address?, receiver_address?, package?}`, each `{id}` or null to clear. */
export const shipmentDefaultsPatch = z.record(z.string(), z.union([z.looseObject({ id: z.string() }), z.null()]));

export type StatusResponse = z.output<typeof statusResponse>;
export type Carrier = z.output<typeof carrier>;
export type CarriersResponse = z.output<typeof carriersResponse>;
export type Printer = z.output<typeof printer>;
export type PrintersResponse = z.output<typeof printersResponse>;
export type ServicePointSearch = z.input<typeof servicePointSearch>;
export type ServicePoint = z.output<typeof servicePoint>;
export type ServicePointsResponse = z.output<typeof servicePointsResponse>;
export type FavoriteAddress = z.output<typeof favoriteAddress>;
export type FavoriteAddressSearch = z.input<typeof favoriteAddressSearch>;
export type FavoritePackage = z.output<typeof favoritePackage>;
export type ShipmentDefaults = z.output<typeof shipmentDefaults>;
export type ShipmentDefaultsPatch = z.input<typeof shipmentDefaultsPatch>;
