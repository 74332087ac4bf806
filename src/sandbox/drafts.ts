/**
 * Draft shipments for the pack-and-ship flow (POST /admin/drafts, `Sandbox.createDraft()`):
 * a shipment created but not booked, as a shop or the web application leaves it, with the
 * gaps the caller picks (the packer completes them at the station). Outside the spec, like
 * all of /admin.
 */
import { z } from 'zod';
import { createShipment } from './shipment-factory';
import type { SandboxState } from './state';
import type { FieldErrors } from './http';
import { bookableErrors, type ShipmentBody } from './validation';

export const DRAFT_GAPS = ['weight', 'dimensions', 'packages', 'receiver_phone', 'receiver_contact', 'customs'] as const;
export type DraftGap = (typeof DRAFT_GAPS)[number];

export const adminDraftSchema = z.object({
  reference_id: z.string().min(1).nullish(),
  sender_reference: z.string().nullish(),
  system: z.string().nullish(),
  /** domestic = SE, eu = DE, non_eu = NO (customs data included unless `customs` is a gap). @default domestic */
  destination: z.enum(['domestic', 'eu', 'non_eu']).nullish(),
  /** Parcels (packages of quantity 1). @default 1 */
  packages: z.number().int().min(1).max(100).nullish(),
  gaps: z.array(z.enum(DRAFT_GAPS)).max(DRAFT_GAPS.length).nullish(),
});
export type AdminDraftInput = z.infer<typeof adminDraftSchema>;

export interface DraftCreated {
  readonly shipmentId: string;
  readonly referenceId: string;
  readonly gaps: readonly DraftGap[];
  /** What bookable validation reports now (field path -> messages); `{}` when it is bookable. */
  readonly missing: FieldErrors;
}

const RECEIVERS = {
  domestic: { name: 'Café Lindqvist', line: 'Stortorget 3', postal: '21122', city: 'Malmö', country: 'SE', phone: '+46 40 123 45 67' },
  eu: {
    name: 'Berliner Buchladen GmbH',
    line: 'Friedrichstraße 12',
    postal: '10117',
    city: 'Berlin',
    country: 'DE',
    phone: '+49 30 1234567',
  },
  non_eu: { name: 'Fjordhytta AS', line: 'Karl Johans gate 5', postal: '0154', city: 'Oslo', country: 'NO', phone: '+47 22 12 34 56' },
} as const;

/** Default references count per sandbox: DRAFT-0001, DRAFT-0002, ... */
const serials = new WeakMap<SandboxState, number>();

export function draftBody(input: AdminDraftInput, serial: number): ShipmentBody {
  const gaps = new Set<DraftGap>(input.gaps ?? []);
  const destination = input.destination ?? 'domestic';
  const r = RECEIVERS[destination];
  const count = input.packages ?? 1;
  const contact = { name: 'Receiving desk', email: 'goods@example.com', ...(gaps.has('receiver_phone') ? {} : { phone: r.phone }) };
  const packages = gaps.has('packages')
    ? []
    : Array.from({ length: count }, (_v, i) => ({
        quantity: 1,
        description: `Parcel ${i + 1}`,
        type: 'PACKAGE',
        ...(gaps.has('weight') ? {} : { weight_kg: 1.5 + i }),
        ...(gaps.has('dimensions') ? {} : { depth_cm: 30, height_cm: 20, width_cm: 20 }),
      }));
  const body: ShipmentBody = {
    reference_id: input.reference_id ?? `DRAFT-${String(serial).padStart(4, '0')}`,
    sender_reference: input.sender_reference ?? null,
    system: input.system ?? null,
    to: {
      name: r.name,
      address: { address_line_1: r.line, postal_code: r.postal, city: r.city, country_code: r.country },
      ...(gaps.has('receiver_contact') ? {} : { contact }),
    },
    packages,
  };
  if (destination === 'non_eu' && !gaps.has('customs')) {
    body.customs_information = {
      invoice_type: 'commercial',
      invoice_number: `INV-${body.reference_id}`,
      reason_for_export: 'sale',
      currency: 'SEK',
      terms_of_sale: 'DAP',
      signature: 'Sandbox Team',
      receiver_eori_number: 'NO987654321',
      receiver_vat_number: 'NO987654321MVA',
      // One item of 1 kg: within the weight of one parcel (1.5 kg), as the service checks.
      items: [
        {
          description: 'Wool sweater',
          material: 'wool',
          quantity: 1,
          unit_type: 'pcs',
          unit_weight: 1,
          unit_value: 900,
          hs_code: '611011',
          country_of_origin: 'SE',
        },
      ],
    };
  }
  return body;
}

/** Creates the draft without bookable validation (a draft may be incomplete: README 12). */
export function createDraft(state: SandboxState, input: AdminDraftInput): DraftCreated {
  const serial = (serials.get(state) ?? 0) + 1;
  serials.set(state, serial);
  const shipment = createShipment(state, draftBody(input, serial));
  const gaps = [...new Set(input.gaps ?? [])];
  return { shipmentId: shipment.id, referenceId: shipment.body.reference_id ?? '', gaps, missing: bookableErrors(shipment.body) };
}
