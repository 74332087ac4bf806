/**
 * Words a packer reads for the agent's API values. The maps are typed against the shared
 * domain unions, so a new document type, layout or trigger fails the typecheck until it
 * has words here; a printer kind's words are in its registry (src/shared/printer-kinds.ts).
 */
import type { DocumentType, JobTrigger, LabelLayout, PackSettings, PrinterInfo, RateView, ShipmentStage } from '../shared/domain';
import { PRINTER_KINDS, PRINTER_KIND_WORDS_TABLE, type PrinterKind } from '../shared/printer-kinds';

/** Print `document_type` values (the service's API names) in words. */
export const DOCUMENT_WORDS = {
  label: 'Label',
  manifest: 'Manifest',
  waybill: 'Waybill',
  customsinvoice: 'Customs invoice',
  proofofdelivery: 'Proof of delivery',
  // ABD: Ausfuhrbegleitdokument, the customs export accompanying document (EAD).
  abd: 'Export accompanying document',
  salesinvoice: 'Sales invoice',
} as const satisfies Readonly<Record<DocumentType, string>>;

/** Document types the service names for uploads only; they can still appear in a list. */
const OTHER_DOCUMENT_WORDS: Readonly<Record<string, string>> = {
  adr_dangerousgoods: 'Dangerous goods certificate (ADR)',
};

/** The service may add document types: an unknown one is shown readably, never as a blank. */
export function documentWords(type: string): string {
  const known = (DOCUMENT_WORDS as Readonly<Record<string, string>>)[type] ?? OTHER_DOCUMENT_WORDS[type];
  if (known) return known;
  const spaced = type.replaceAll(/[_-]+/g, ' ').trim().toLowerCase();
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : type;
}

export const LAYOUT_WORDS = {
  printer: '4x6 label',
  a4: 'A4, one label',
  '1x2': 'A4, two labels',
  '3x1': 'A4, three labels',
  '2x2': 'A4, four labels',
} as const satisfies Readonly<Record<LabelLayout, string>>;

/** Why a job exists. */
export const TRIGGER_WORDS = {
  webhook: 'booked (webhook)',
  poll: 'booked (polling)',
  scan: 'scan',
  reprint: 'reprint',
  manual: 'test print',
} as const satisfies Readonly<Record<JobTrigger, string>>;

/** Each printer kind in words (`Folder`, `Service printer`): the shared registry's labels. */
export const PRINTER_KIND_WORDS: Readonly<Record<PrinterKind, string>> = Object.fromEntries(
  PRINTER_KINDS.map((kind) => [kind, PRINTER_KIND_WORDS_TABLE[kind].label]),
) as Record<PrinterKind, string>;

/** `ok` = green, `bad` = red, `unknown` = grey: the colour says what is known. */
export type Readiness = { readonly tone: 'ok' | 'bad' | 'unknown'; readonly words: string };

export function readiness(printer: Pick<PrinterInfo, 'ready' | 'detail'>): Readiness {
  if (printer.ready === null) return { tone: 'unknown', words: 'readiness unknown' };
  if (printer.ready) return { tone: 'ok', words: 'ready' };
  return { tone: 'bad', words: printer.detail ? `not ready: ${printer.detail}` : 'not ready' };
}

export const MEDIA_WORDS = {
  label: '4x6 labels',
  a4: 'A4 sheets',
  unknown: 'media unknown',
} as const satisfies Readonly<Record<PrinterInfo['media'], string>>;

/** Where a scanned shipment is, as its badge says it. */
export const STAGE_WORDS = {
  draft: 'Not booked',
  booked: 'Booked',
  canceled: 'Canceled',
} as const satisfies Readonly<Record<ShipmentStage, string>>;

export const PICKUP_WORDS = {
  next: 'Next pickup at the set time',
  without: 'No pickup (drop off at the carrier)',
} as const satisfies Readonly<Record<PackSettings['pickup'], string>>;

/** A rate in one line: carrier, product, price, days, pickup cutoff and what it still needs. */
export function rateWords(rate: RateView): { readonly title: string; readonly price: string; readonly details: string } {
  const price = rate.receiverPays ? 'receiver pays' : rate.price ? `${rate.price}${rate.currency && !rate.price.includes(rate.currency) ? ` ${rate.currency}` : ''}` : 'price not given';
  const days =
    rate.daysMin !== null && rate.daysMax !== null && rate.daysMin !== rate.daysMax
      ? `${rate.daysMin}–${rate.daysMax} days`
      : rate.daysMin !== null || rate.daysMax !== null
        ? `${rate.daysMin ?? rate.daysMax} day${(rate.daysMin ?? rate.daysMax) === 1 ? '' : 's'}`
        : 'delivery days not given';
  const needs = [
    rate.needsServicePoint ? 'needs a service point' : null,
    ...rate.requiredDocuments.map((d) => `needs ${documentWords(d).toLowerCase()} upload`),
    rate.bookable ? null : 'no third-party customs payer',
  ].filter((x): x is string => x !== null);
  const details = [days, rate.pickupCutoff ? `pickup cutoff ${rate.pickupCutoff}` : 'no pickup', rate.ownAgreementName, ...needs]
    .filter((x): x is string => !!x)
    .join(' · ');
  return { title: `${rate.carrierName} ${rate.productName}`, price, details };
}
