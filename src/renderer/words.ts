/**
 * Words a packer reads for the agent's API values, in the UI's language (src/renderer/i18n).
 * The maps are typed against the shared domain unions, so a new document type, layout or
 * trigger fails the typecheck until it has a message key here and words in every catalog.
 * Each map reads the current language whenever a property is read.
 */
import type {
  DocumentType,
  EndOfDayState,
  JobTrigger,
  LabelLayout,
  PackSettings,
  PrinterInfo,
  RateView,
  ShipmentStage,
} from '../shared/domain';
import { PRINTER_KINDS, type PrinterKind } from '../shared/printer-kinds';
import { t, tMaybe, type MessageKey } from './i18n';
import { agentWords } from './agent-words';
import { documentWords, readable } from './document-words';
import { localCutoff, localPrice, rateTitle } from './format';

export { documentWords } from './document-words';

/** A read-only map whose values are looked up in the current language on every read. */
export function localized<K extends string>(keys: Readonly<Record<K, MessageKey>>): Readonly<Record<K, string>> {
  const map = {} as Record<K, string>;
  for (const name of Object.keys(keys) as K[]) {
    Object.defineProperty(map, name, { enumerable: true, get: () => t(keys[name]) });
  }
  return Object.freeze(map);
}

/** Print `document_type` values (the service's API names) in words. */
export const DOCUMENT_WORDS = localized<DocumentType>({
  label: 'document.label',
  manifest: 'document.manifest',
  waybill: 'document.waybill',
  customsinvoice: 'document.customsinvoice',
  proofofdelivery: 'document.proofofdelivery',
  // ABD: Ausfuhrbegleitdokument, the customs export accompanying document (EAD).
  abd: 'document.abd',
  salesinvoice: 'document.salesinvoice',
});

export const LAYOUT_WORDS = localized<LabelLayout>({
  printer: 'layout.printer',
  a4: 'layout.a4',
  '1x2': 'layout.1x2',
  '3x1': 'layout.3x1',
  '2x2': 'layout.2x2',
});

/** Why a job exists. */
export const TRIGGER_WORDS = localized<JobTrigger>({
  webhook: 'trigger.webhook',
  poll: 'trigger.poll',
  scan: 'trigger.scan',
  reprint: 'trigger.reprint',
  manual: 'trigger.manual',
});

/** Each printer kind in words (`Folder`, `Service printer`); English is the shared registry's label. */
export const PRINTER_KIND_WORDS: Readonly<Record<PrinterKind, string>> = localized(
  Object.fromEntries(PRINTER_KINDS.map((kind) => [kind, `printerKind.${kind}` as MessageKey])) as Record<PrinterKind, MessageKey>,
);

/** What `completed` means on each printer kind, in words (only a spooler can say it printed). */
export const PRINTER_KIND_COMPLETED_WORDS: Readonly<Record<PrinterKind, string>> = localized(
  Object.fromEntries(PRINTER_KINDS.map((kind) => [kind, `printerKind.${kind}.completed` as MessageKey])) as Record<PrinterKind, MessageKey>,
);

/** `ok` = green, `bad` = red, `unknown` = grey: the colour says what is known. */
export type Readiness = { readonly tone: 'ok' | 'bad' | 'warn' | 'unknown'; readonly words: string };

export function readiness(printer: Pick<PrinterInfo, 'ready' | 'detail' | 'detailMessage'>): Readiness {
  if (printer.ready === null) return { tone: 'unknown', words: t('readiness.unknown') };
  // Ready with a caveat (a ZPL device that cannot report its state, a resolution assumed): said, not hidden.
  if (printer.ready && printer.detail)
    return { tone: 'ok', words: t('readiness.readyDetail', { detail: agentWords(printer.detailMessage, printer.detail) }) };
  if (printer.ready) return { tone: 'ok', words: t('readiness.ready') };
  if (!printer.detail) return { tone: 'bad', words: t('readiness.notReady') };
  return { tone: 'bad', words: t('readiness.notReadyDetail', { detail: agentWords(printer.detailMessage, printer.detail) }) };
}

/** A booking's print state on the End of day tab and a shipment's documents (the same words as the CSV: src/shared/report-words.ts). */
export const END_OF_DAY_WORDS = localized<EndOfDayState>({
  printed: 'eod.state.printed',
  may_have_printed: 'eod.state.may_have_printed',
  failed: 'eod.state.failed',
  not_printed: 'eod.state.not_printed',
  canceled: 'eod.state.canceled',
});

export const MEDIA_WORDS = localized<PrinterInfo['media']>({
  label: 'media.label',
  a4: 'media.a4',
  unknown: 'media.unknown',
});

/**
 * A tracking status (`OUT_FOR_DELIVERY`) as a packer says it ("Out for delivery"). The
 * service's list is open: an unknown status is shown readably, never as its API name.
 */
export function trackingStatusWords(status: string): string {
  return tMaybe(`tracking.${status.toUpperCase()}`) ?? readable(status);
}

/** A shipment status (`PENDING`, `CANCELED`) in words; unknown ones readably. */
export function shipmentStatusWords(status: string): string {
  // A delivered shipment says it as its tracking does: one term per idea.
  return tMaybe(`shipmentStatus.${status.toUpperCase()}`) ?? tMaybe(`tracking.${status.toUpperCase()}`) ?? readable(status);
}

/** Where a scanned shipment is, as its badge says it. */
export const STAGE_WORDS = localized<ShipmentStage>({
  draft: 'stage.draft',
  booked: 'stage.booked',
  canceled: 'stage.canceled',
});

export const PICKUP_WORDS = localized<PackSettings['pickup']>({
  next: 'pickup.next',
  without: 'pickup.without',
});

/** A rate in one line: carrier, product, price, days, pickup cutoff and what it still needs. */
export function rateWords(rate: RateView): { readonly title: string; readonly price: string; readonly details: string } {
  const price = rate.receiverPays ? t('rate.receiverPays') : rate.price ? localPrice(rate.price, rate.currency) : t('rate.noPrice');
  const one = rate.daysMin ?? rate.daysMax;
  const days =
    rate.daysMin !== null && rate.daysMax !== null && rate.daysMin !== rate.daysMax
      ? t('rate.daysRange', { min: rate.daysMin, max: rate.daysMax })
      : one !== null
        ? t('rate.days', { days: one })
        : t('rate.noDays');
  const needs = [
    rate.needsServicePoint ? t('rate.needsServicePoint') : null,
    ...rate.requiredDocuments.map((d) => t('rate.needsUpload', { document: documentWords(d).toLowerCase() })),
    rate.bookable ? null : t('rate.noCustomsPayer'),
  ].filter((x): x is string => x !== null);
  const details = [
    days,
    rate.pickupCutoff ? t('rate.pickupCutoff', { time: localCutoff(rate.pickupCutoff) }) : t('rate.noPickup'),
    rate.ownAgreementName,
    ...needs,
  ]
    .filter((x): x is string => !!x)
    .join(' · ');
  return { title: rateTitle(rate.carrierName, rate.productName), price, details };
}
