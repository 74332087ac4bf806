/** Book, cancel, print and document upload. */
import { z } from 'zod';
import { LABEL_LAYOUTS } from '../../../shared/domain';
import { opt } from './common';

/** Print `output_format` values. */
export const OUTPUT_FORMATS = ['url', 'file', 'printer'] as const;
/** Upload `{document_type}` values the spec names. */
export const KNOWN_UPLOAD_DOCUMENT_TYPES = ['customsinvoice', 'abd', 'salesinvoice', 'adr_dangerousgoods'] as const;

export const bookRequest = z.looseObject({
  booking_token: z.string(),
  pickup_instructions: z.string().optional(),
  delivery_instructions: z.string().optional(),
  /** Required for rates with require_delivery_service_point. */
  delivery_service_point_token: z.string().optional(),
});

export const bookResponse = z.looseObject({
  shipment_id: z.string(),
  /** Some carriers issue no tracking id at booking. */
  main_tracking_id: opt(z.string()),
});

export const cancelRequest = z.looseObject({ shipment_id: z.string() });
/** The spec does not show the cancel response; any JSON object (or no body) is accepted. */
export const cancelResponse = z.union([z.looseObject({}), z.null()]);

export const printRequest = z.looseObject({
  shipment_ids: z.array(z.string()).min(1),
  /** See DOCUMENT_TYPES in shared/domain; the service may add more. */
  document_type: z.string(),
  label_layout: z.enum(LABEL_LAYOUTS),
  output_format: z.enum(OUTPUT_FORMATS).optional(),
  printer_id: z.string().optional(),
});

export const printUrlResponse = z.looseObject({ output_url: z.string() });

export type BookRequest = z.input<typeof bookRequest>;
export type BookResponse = z.output<typeof bookResponse>;
export type CancelRequest = z.input<typeof cancelRequest>;
export type CancelResponse = z.output<typeof cancelResponse>;
/** The print* methods set output_format themselves. */
export type PrintRequest = z.input<typeof printRequest>;
export type PrintToPrinterRequest = PrintRequest & { readonly printer_id: string };
export type PrintUrlResponse = z.output<typeof printUrlResponse>;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
