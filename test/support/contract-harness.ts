/** Shared set-up for the contract tests: a real sandbox on port 0 and a ServiceClient on it. */
import { afterAll, beforeAll, expect } from 'vitest';
import { ServiceClient, type ServiceClientOptions } from '../../src/main/api/client';
import { ApiError } from '../../src/main/api/errors';
import type { Rate, ShipmentInput } from '../../src/main/api/schemas';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server';

export interface Harness {
  readonly sandbox: Sandbox;
  readonly client: ServiceClient;
  close(): Promise<void>;
}

export async function startHarness(options: SandboxOptions = {}, clientOptions: Partial<ServiceClientOptions> = {}): Promise<Harness> {
  const sandbox = await startSandbox({ seed: 42, ...options });
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retryBaseMs: 5, ...clientOptions });
  return {
    sandbox,
    client,
    async close() {
      await client.close();
      await sandbox.close();
    },
  };
}

/**
 * One harness for the whole test file: started before its first test, closed after its last.
 * The handle can be taken at module level and used inside the tests and later hooks.
 */
export function useHarness(options: SandboxOptions = {}, clientOptions: Partial<ServiceClientOptions> = {}): Harness {
  let started: Harness | undefined;
  beforeAll(async () => {
    started = await startHarness(options, clientOptions);
  });
  afterAll(async () => {
    await started?.close();
  });
  const harness = (): Harness => {
    if (!started) throw new Error('the harness is started in beforeAll: use it inside a test or hook');
    return started;
  };
  return {
    get sandbox() {
      return harness().sandbox;
    },
    get client() {
      return harness().client;
    },
    close: () => harness().close(),
  };
}

/** Rejects with ApiError: returns it for assertions. */
export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'the call was expected to fail').toBeInstanceOf(ApiError);
  const apiErr = error as ApiError;
  // Every error surfaced from the service carries its request id.
  if (apiErr.status !== null) expect(apiErr.requestId).toMatch(/\S+/);
  return apiErr;
}

export const SE_SENDER = {
  name: 'Acme AB',
  address: { address_line_1: 'Packgatan 1', postal_code: '41101', city: 'Göteborg', country_code: 'SE' },
  contact: { name: 'Ann Sender', email: 'ann@acme.example', phone: '+46311234567' },
};

export const SE_RECEIVER = {
  name: 'Nordic Retail AB',
  address: { address_line_1: 'Drottninggatan 10', postal_code: '11151', city: 'Stockholm', country_code: 'SE' },
  contact: { name: 'Rita Receiver', email: 'rita@nordic.example', phone: '+46709876543' },
};

/** A non-EU (NO) receiver: rates need included_non_eu_rates and list documents to upload. */
export const NO_RECEIVER = {
  name: 'Oslo Butikk AS',
  address: { address_line_1: 'Karl Johans gate 1', postal_code: '0154', city: 'Oslo', country_code: 'NO' },
  contact: { name: 'Ola Nordmann', email: 'ola@butikk.example', phone: '+4722000000' },
};

/** Customs information complete enough that an export to NO_RECEIVER needs no customsinvoice upload. */
export const COMPLETE_CUSTOMS = {
  invoice_type: 'commercial',
  reason_for_export: 'sale',
  currency: 'SEK',
  terms_of_sale: 'DAP',
  signature: 'Ann Sender',
  // NO_RECEIVER is a company: a B2B export needs its EORI and VAT numbers.
  receiver_eori_number: 'NO123456789',
  receiver_vat_number: 'NO123456789MVA',
  items: [
    { description: 'Mugs', quantity: 2, unit_type: 'pcs', unit_weight: 0.5, unit_value: 100, hs_code: '691200', country_of_origin: 'SE' },
  ],
};

export const BOX = { weight_kg: 2, depth_cm: 30, height_cm: 20, width_cm: 20, quantity: 1, type: 'PACKAGE', description: 'Box' };

/** A bookable domestic (SE → SE) shipment; override any part. */
export function domestic(overrides: ShipmentInput = {}): ShipmentInput {
  return { enable_bookable_validation: true, from: SE_SENDER, to: SE_RECEIVER, packages: [BOX], ...overrides };
}

export const PICKUP = () => new Date(Date.now() + 24 * 3600_000).toISOString();

export async function createAndRate(
  client: ServiceClient,
  shipment: ShipmentInput = domestic(),
  rates: Omit<Parameters<ServiceClient['rates']>[0], 'shipment_id'> = {},
): Promise<{ id: string; rates: Rate[] }> {
  const { id } = await client.createShipment(shipment);
  const response = await client.rates({ shipment_id: id, requested_pickup_time: PICKUP(), ...rates });
  return { id, rates: response.rates };
}

/** Create, rate and book the cheapest rate of `carrier` (or the cheapest overall). */
export async function createAndBook(
  client: ServiceClient,
  shipment: ShipmentInput = domestic(),
  carrier?: string,
): Promise<{ id: string; trackingId: string | null | undefined; rate: Rate }> {
  const { id, rates } = await createAndRate(client, shipment);
  const rate = carrier ? rates.find((r) => r.carrier === carrier) : rates[0];
  if (!rate) throw new Error(`no rate${carrier ? ` for ${carrier}` : ''}`);
  const booked = await client.book({ booking_token: rate.booking_token });
  return { id, trackingId: booked.main_tracking_id, rate };
}

export const MALFORMED_ID = 'not-a-uuid';
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
