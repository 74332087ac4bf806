/** Parties and addresses: shared by shipment requests and the stored shipment. */
import { z } from 'zod';
import { opt } from './common';

// ---- requests: every field optional (spec: "All fields are optional unless stated") ----

export const addressInput = z.looseObject({
  address_line_1: z.string().optional(),
  address_line_2: z.string().optional(),
  address_line_3: z.string().optional(),
  postal_code: z.string().optional(),
  city: z.string().optional(),
  province: z.string().optional(),
  /** Two-letter country code. */
  country_code: z.string().optional(),
});

/** Email validity is the service's rule (it answers with a field error), not checked here. */
export const contactInput = z.looseObject({
  name: z.string().optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
});

export const carrierAccountInput = z.looseObject({
  /** A carrier identifier from GET /carriers. */
  carrier: z.string(),
  account_identifier: z.string(),
});

export const partyInput = z.looseObject({
  name: z.string().optional(),
  address: addressInput.optional(),
  contact: contactInput.optional(),
  address_book_id: z.string().optional(),
});

/** `to` and `alternative_to` may say the receiver is a private individual. */
export const receiverPartyInput = partyInput.extend({
  is_private_individual: z.boolean().optional(),
});

/** Only `to` carries the receiver's carrier accounts (receiver pays). */
export const toPartyInput = receiverPartyInput.extend({
  carrier_accounts: z.array(carrierAccountInput).optional(),
});

// ---- responses: the same structure as stored; null tolerated for unset fields ----

export const address = z.looseObject({
  address_line_1: opt(z.string()),
  address_line_2: opt(z.string()),
  address_line_3: opt(z.string()),
  postal_code: opt(z.string()),
  city: opt(z.string()),
  province: opt(z.string()),
  country_code: opt(z.string()),
});

export const contact = z.looseObject({
  name: opt(z.string()),
  phone: opt(z.string()),
  email: opt(z.string()),
});

export const carrierAccount = z.looseObject({
  carrier: z.string(),
  account_identifier: z.string(),
});

export const party = z.looseObject({
  name: opt(z.string()),
  address: opt(address),
  contact: opt(contact),
  address_book_id: opt(z.string()),
  is_private_individual: opt(z.boolean()),
  carrier_accounts: opt(z.array(carrierAccount)),
});

export type AddressInput = z.input<typeof addressInput>;
export type ContactInput = z.input<typeof contactInput>;
export type PartyInput = z.input<typeof partyInput>;
export type ToPartyInput = z.input<typeof toPartyInput>;
export type Address = z.output<typeof address>;
export type Contact = z.output<typeof contact>;
export type Party = z.output<typeof party>;
