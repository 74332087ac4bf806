/**
 * The sandbox's small, fixed carrier catalogue. Each product exists to make one or more
 * rules of the spec observable (see README.md, "Catalogue"); prices are deterministic so
 * tests can rely on the order of rates.
 */

/** EU member states (ISO 3166-1 alpha-2). A route leaving this set is "non-EU". */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

/** Countries whose addresses need a province for carriers that require one. */
export const PROVINCE_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA', 'AU']);

export type AddonName =
  | 'insurance'
  | 'definite_loading'
  | 'definite_unloading'
  | 'guaranteed_delivery_time'
  | 'notification'
  | 'indoor_delivery'
  | 'pickup_notification'
  | 'delivery_notice'
  | 'green_shipping'
  | 'tailgate_lift_unloading'
  | 'tailgate_lift_loading'
  | 'delivery_without_proof'
  | 'thermo_heat'
  | 'without_pickup'
  | 'collection_at_terminal';

/** Price of each addon in SEK; insurance is computed from the declared value. */
export const ADDON_PRICES: Readonly<Record<AddonName, number>> = {
  insurance: 0,
  definite_loading: 200,
  definite_unloading: 200,
  guaranteed_delivery_time: 180,
  notification: 0,
  indoor_delivery: 150,
  pickup_notification: 0,
  delivery_notice: 10,
  green_shipping: 5,
  tailgate_lift_unloading: 250,
  tailgate_lift_loading: 250,
  delivery_without_proof: 0,
  thermo_heat: 300,
  without_pickup: 0,
  collection_at_terminal: 0,
};
export const LIMITED_QUANTITY_PRICE = 45;
export const ADR_PRICE = 350;

export interface Carrier {
  readonly carrier: string;
  readonly name: string;
  readonly receiverPays: boolean;
  /** Prefix of the tracking ids it issues. */
  readonly trackingPrefix: string;
}

export interface Product {
  readonly carrier: string;
  readonly code: string;
  readonly name: string;
  readonly basePrice: number;
  readonly perKg: number;
  readonly daysMin: number;
  readonly daysMax: number;
  /** Non-EU countries served besides the EU (any route touching another country is refused). */
  readonly nonEuCountries: ReadonlySet<string> | 'all';
  readonly addons: ReadonlySet<AddonName>;
  readonly limitedQuantity: boolean;
  readonly adr: boolean;
  /** Needs an ADR declaration form, which the API cannot supply: excluded for ADR goods. */
  readonly adrDeclarationForm: boolean;
  /** Asks for the `adr_dangerousgoods` certificate upload for ADR goods. */
  readonly adrCertificate: boolean;
  readonly servicePoint: boolean;
  readonly thirdPartyCustomsPayer: boolean;
  readonly manifest: boolean;
  /** Documents to upload for non-EU routes (customsinvoice is waived by complete customs data). */
  readonly nonEuDocuments: readonly string[];
  readonly maxCompanyName: number | null;
  readonly maxContactName: number | null;
  readonly requiresProvince: boolean;
}

export const CARRIERS: readonly Carrier[] = [
  { carrier: 'postnord', name: 'PostNord', receiverPays: false, trackingPrefix: '00370' },
  { carrier: 'dhl_express', name: 'DHL Express', receiverPays: true, trackingPrefix: 'JD0146' },
  { carrier: 'db_schenker', name: 'DB Schenker', receiverPays: true, trackingPrefix: 'SCH' },
  { carrier: 'bring', name: 'Bring', receiverPays: false, trackingPrefix: '70702' },
];

const none: ReadonlySet<string> = new Set();
const base = {
  limitedQuantity: false,
  adr: false,
  adrDeclarationForm: false,
  adrCertificate: false,
  servicePoint: false,
  thirdPartyCustomsPayer: false,
  manifest: false,
  nonEuDocuments: [],
  maxCompanyName: null,
  maxContactName: null,
  requiresProvince: false,
  nonEuCountries: none,
} as const;

export const PRODUCTS: readonly Product[] = [
  {
    ...base,
    carrier: 'postnord',
    code: 'mypack_collect',
    name: 'MyPack Collect',
    basePrice: 79,
    perKg: 2,
    daysMin: 1,
    daysMax: 3,
    servicePoint: true,
    limitedQuantity: true,
    addons: new Set<AddonName>(['notification', 'without_pickup', 'green_shipping']),
  },
  {
    ...base,
    carrier: 'postnord',
    code: 'mypack_home',
    name: 'MyPack Home',
    basePrice: 119,
    perKg: 3,
    daysMin: 1,
    daysMax: 3,
    limitedQuantity: true,
    addons: new Set<AddonName>([
      'notification',
      'delivery_notice',
      'indoor_delivery',
      'green_shipping',
      'without_pickup',
      'delivery_without_proof',
    ]),
  },
  {
    ...base,
    carrier: 'bring',
    code: 'business_parcel',
    name: 'Business Parcel',
    basePrice: 99,
    perKg: 2.5,
    daysMin: 1,
    daysMax: 4,
    maxCompanyName: 27,
    maxContactName: 22,
    nonEuCountries: new Set(['NO']),
    nonEuDocuments: ['customsinvoice', 'salesinvoice'],
    addons: new Set<AddonName>(['notification', 'delivery_notice', 'without_pickup', 'insurance']),
  },
  {
    ...base,
    carrier: 'dhl_express',
    code: 'express_worldwide',
    name: 'Express Worldwide',
    basePrice: 420,
    perKg: 9,
    daysMin: 1,
    daysMax: 2,
    nonEuCountries: 'all',
    limitedQuantity: true,
    thirdPartyCustomsPayer: true,
    nonEuDocuments: ['customsinvoice'],
    requiresProvince: true,
    addons: new Set<AddonName>([
      'insurance',
      'notification',
      'delivery_notice',
      'guaranteed_delivery_time',
      'pickup_notification',
      'delivery_without_proof',
    ]),
  },
  {
    ...base,
    carrier: 'db_schenker',
    code: 'system',
    name: 'DB SCHENKERsystem',
    basePrice: 650,
    perKg: 1.5,
    daysMin: 2,
    daysMax: 5,
    limitedQuantity: true,
    adr: true,
    adrCertificate: true,
    manifest: true,
    nonEuCountries: new Set(['NO', 'CH', 'GB']),
    nonEuDocuments: ['customsinvoice', 'abd'],
    addons: new Set<AddonName>([
      'insurance',
      'notification',
      'pickup_notification',
      'tailgate_lift_loading',
      'tailgate_lift_unloading',
      'definite_loading',
      'definite_unloading',
      'collection_at_terminal',
      'without_pickup',
      'thermo_heat',
    ]),
  },
  {
    ...base,
    carrier: 'db_schenker',
    code: 'system_premium',
    name: 'DB SCHENKERsystem premium',
    basePrice: 890,
    perKg: 1.5,
    daysMin: 1,
    daysMax: 3,
    limitedQuantity: true,
    adr: true,
    adrDeclarationForm: true,
    manifest: true,
    addons: new Set<AddonName>([
      'insurance',
      'notification',
      'pickup_notification',
      'tailgate_lift_loading',
      'tailgate_lift_unloading',
      'definite_loading',
      'definite_unloading',
      'guaranteed_delivery_time',
    ]),
  },
];

/** The team's own carrier agreements (include_own_agreements). */
export const OWN_AGREEMENTS: ReadonlyArray<{
  readonly carrier: string;
  readonly product: string;
  readonly name: string;
  readonly discount: number;
}> = [{ carrier: 'dhl_express', product: 'express_worldwide', name: 'DHL account 123456789', discount: 0.8 }];

export function carrierByCode(code: string): Carrier | undefined {
  return CARRIERS.find((c) => c.carrier === code);
}

export function productByCode(carrier: string, code: string): Product | undefined {
  return PRODUCTS.find((p) => p.carrier === carrier && p.code === code);
}

export const PRINTERS: ReadonlyArray<{ readonly id: string; readonly name: string; readonly description: string }> = [
  { id: '5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a01', name: 'Packing bench 1 (4x6)', description: 'Zebra ZD421 thermal label printer' },
  { id: '5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a02', name: 'Office A4', description: 'HP LaserJet office printer' },
];

export interface AddressBookEntry {
  readonly id: string;
  readonly name: string | null;
  readonly contact: { readonly name: string | null; readonly phone: string | null; readonly email: string | null } | null;
  readonly address: { readonly address_line_1: string; readonly postal_code: string; readonly city: string; readonly country_code: string };
  readonly eori_number: string | null;
  readonly vat_number: string | null;
  readonly voec_number: string | null;
}

export const FAVORITE_ADDRESSES: readonly AddressBookEntry[] = [
  {
    id: '8f1d0c2a-3b4e-4f5a-8b6c-7d8e9f0a1b01',
    name: 'Acme Warehouse',
    eori_number: 'SE5566778899',
    vat_number: 'SE556677889901',
    voec_number: null,
    contact: { name: 'Wera Warehouse', phone: '+46701234567', email: 'warehouse@acme.example' },
    address: { address_line_1: 'Lagervägen 4', postal_code: '41707', city: 'Göteborg', country_code: 'SE' },
  },
  {
    id: '8f1d0c2a-3b4e-4f5a-8b6c-7d8e9f0a1b02',
    name: 'Nordic Retail AB',
    eori_number: null,
    vat_number: 'SE556000111201',
    voec_number: null,
    contact: { name: 'Rita Receiver', phone: '+46709876543', email: 'rita@nordic-retail.example' },
    address: { address_line_1: 'Drottninggatan 10', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
  },
  {
    // No name and no contact: exercises the fallback to the team name and the API user.
    id: '8f1d0c2a-3b4e-4f5a-8b6c-7d8e9f0a1b03',
    name: null,
    contact: null,
    eori_number: null,
    vat_number: null,
    voec_number: null,
    address: { address_line_1: 'Hamngatan 1', postal_code: '21120', city: 'Malmö', country_code: 'SE' },
  },
];

export interface FavoritePackage {
  readonly id: string;
  readonly name: string;
  readonly dangerous_goods_type: 'limited_quantity' | 'adr' | null;
  readonly depth_cm: number;
  readonly height_cm: number;
  readonly width_cm: number;
  readonly weight_kg: number;
  readonly type: string;
  readonly description: string;
}

export const FAVORITE_PACKAGES: readonly FavoritePackage[] = [
  {
    id: '2c9e7b1a-5d4f-4e3b-9a8c-1f2e3d4c5b01',
    name: 'Small box',
    dangerous_goods_type: null,
    depth_cm: 30,
    height_cm: 20,
    width_cm: 20,
    weight_kg: 2,
    type: 'PACKAGE',
    description: 'Small box',
  },
  {
    id: '2c9e7b1a-5d4f-4e3b-9a8c-1f2e3d4c5b02',
    name: 'Fragile box',
    dangerous_goods_type: null,
    depth_cm: 40,
    height_cm: 30,
    width_cm: 30,
    weight_kg: 5,
    type: 'PACKAGE',
    description: 'Glassware',
  },
  {
    id: '2c9e7b1a-5d4f-4e3b-9a8c-1f2e3d4c5b03',
    name: 'Aerosol carton',
    dangerous_goods_type: 'limited_quantity',
    depth_cm: 40,
    height_cm: 30,
    width_cm: 30,
    weight_kg: 8,
    type: 'PACKAGE',
    description: 'Aerosols, LQ',
  },
];

export interface ShippingRule {
  readonly id: string;
  readonly name: string;
  readonly type: 'exclude' | 'prefer' | 'include';
  readonly category: 'search';
  readonly enabled: boolean;
  /** The carrier the rule excludes, prefers or restricts to. */
  readonly carrier: string;
  /** When set, the rule applies only to shipments whose party or package carries this id. */
  readonly when?: { readonly toAddressBookId?: string; readonly favoritePackageId?: string };
}

export const SHIPPING_RULES: readonly ShippingRule[] = [
  {
    id: '0e6b4c1d9f2a4b7e8c3d5a6f7b8c9d01',
    name: 'Warehouse deliveries: no DHL',
    type: 'exclude',
    category: 'search',
    enabled: true,
    carrier: 'dhl_express',
    when: { toAddressBookId: FAVORITE_ADDRESSES[0]!.id },
  },
  {
    id: '0e6b4c1d9f2a4b7e8c3d5a6f7b8c9d02',
    name: 'Fragile preset: no DB Schenker',
    type: 'exclude',
    category: 'search',
    enabled: true,
    carrier: 'db_schenker',
    when: { favoritePackageId: FAVORITE_PACKAGES[1]!.id },
  },
  {
    id: '0e6b4c1d9f2a4b7e8c3d5a6f7b8c9d03',
    name: 'Prefer PostNord',
    type: 'prefer',
    category: 'search',
    enabled: false,
    carrier: 'postnord',
  },
  { id: '0e6b4c1d9f2a4b7e8c3d5a6f7b8c9d04', name: 'Never Bring', type: 'exclude', category: 'search', enabled: false, carrier: 'bring' },
  {
    id: '0e6b4c1d9f2a4b7e8c3d5a6f7b8c9d05',
    name: 'Only DB Schenker',
    type: 'include',
    category: 'search',
    enabled: false,
    carrier: 'db_schenker',
  },
];

/** Carriers with service points, and the countries they serve. */
export const SERVICE_POINT_CARRIERS: ReadonlyArray<{ readonly carrier: string; readonly countries: ReadonlySet<string> }> = [
  { carrier: 'postnord', countries: new Set(['SE', 'DK', 'FI']) },
];

/** The team behind the sandbox API key. */
export interface Team {
  readonly name: string;
  readonly homeAddress: {
    readonly address_line_1: string;
    readonly postal_code: string;
    readonly city: string;
    readonly country_code: string;
  };
  readonly apiUser: { readonly name: string; readonly phone: string; readonly email: string };
  readonly eori_number: string;
  readonly vat_number: string;
  readonly voec_number: string;
}

export function teamNamed(name: string): Team {
  return {
    name,
    homeAddress: { address_line_1: 'Packgatan 1', postal_code: '41101', city: 'Göteborg', country_code: 'SE' },
    apiUser: { name: 'API User', phone: '+46311234567', email: 'api-user@sandbox.example' },
    eori_number: 'SE1234567890',
    vat_number: 'SE123456789001',
    voec_number: 'VOEC2040123',
  };
}
