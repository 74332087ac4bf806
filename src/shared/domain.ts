/**
 * Domain vocabulary shared by main, preload and renderer. Imports neither Node nor DOM
 * nor electron: only zod, so the renderer and the main process validate with the same
 * schemas.
 */
import { z } from 'zod';
import type { AgentMessage } from './agent-messages';
import type { PrinterKind } from './printer-kinds';
import type { ScaleState } from './scale';

/** Print `document_type` values named by the spec. The service may add more. */
export const DOCUMENT_TYPES = ['label', 'manifest', 'waybill', 'customsinvoice', 'proofofdelivery', 'abd', 'salesinvoice'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Print `label_layout`: `printer` = one 4x6 label a page; the others are A4 sheets. */
export const LABEL_LAYOUTS = ['printer', 'a4', '1x2', '3x1', '2x2'] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];
/** Labels one page holds in each layout (the spec: `1x2` two, `3x1` three, `2x2` four on A4). */
export const LABELS_PER_SHEET: Readonly<Record<LabelLayout, number>> = { printer: 1, a4: 1, '1x2': 2, '3x1': 3, '2x2': 4 };

/**
 * Job states. `spooled` means the spooler accepted the job, not that paper came out;
 * `completed` means the spooler reports the job done (or, for folder targets, the file
 * is in place).
 */
export const JOB_STATES = ['queued', 'fetching', 'spooling', 'spooled', 'completed', 'failed', 'canceled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JOB_TRIGGERS = ['webhook', 'poll', 'scan', 'reprint', 'manual'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];

/**
 * The media a printer holds: label stock (`label` is 4x6 in, the historical name; 100x150 mm,
 * 100x190 mm, 4x4 in) or sheets (A4, Letter).
 */
export const PRINTER_MEDIA = ['label', '100x150mm', '100x190mm', '4x4in', 'a4', 'letter'] as const;
export type PrinterMedia = (typeof PRINTER_MEDIA)[number];
/** Sheet media: labels print on them in a sheet layout (`a4`, `1x2`, `3x1`, `2x2`). */
export const SHEET_MEDIA: readonly PrinterMedia[] = ['a4', 'letter'];
export function isSheetMedia(media: PrinterMedia): boolean {
  return SHEET_MEDIA.includes(media);
}

/**
 * Why a site of stations (`--site`) sent a booking to this station, kept with its jobs so the
 * history says it ("claimed by a scan of ORDER-1 at 10:42"). Absent outside a site.
 */
export interface JobSiteDecision {
  /** The station that prints it (this one). */
  readonly station: string;
  /** `claim`: a scan here; `rule`: a station rule; `default`: the relay's default station; `fallback`: moved from `movedFrom`. */
  readonly reason: 'claim' | 'rule' | 'default' | 'fallback';
  /** ISO time of the scan for `claim`, else of the decision (or the move). */
  readonly at: string;
  /** The scanned text, for `claim`. */
  readonly code?: string | null;
  /** The station it was moved from, for `fallback`. */
  readonly movedFrom?: string | null;
  /** The relay's words (English), for logs and a UI that does not know the reason. */
  readonly why: string;
}

export interface JobView {
  readonly id: string;
  readonly shipmentId: string;
  readonly reference: string | null;
  readonly trackingId: string | null;
  readonly documentType: string;
  readonly layout: LabelLayout;
  /** Printer URI (docs/INTERFACES.md, Printer URIs). */
  readonly target: string;
  readonly copies: number;
  readonly trigger: JobTrigger;
  readonly state: JobState;
  /** Why the job failed or waits, in words a packer can act on. */
  readonly reason: string | null;
  /**
   * The reason as a message code with parameters (src/shared/agent-messages.ts), for the UI to
   * word in its language; `reason` is its English text. Absent on rows written before codes
   * (ledger migration 5) and when the reason is null.
   */
  readonly reasonMessage?: AgentMessage | null;
  /** The service's X-Service-Request-ID of the failing call, when the service failed. */
  readonly requestId: string | null;
  readonly attempts: number;
  readonly spoolerJobId: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /**
   * Set on a history entry that is not a job yet: a webhook booking waiting for the station
   * rules to be decided (its `reason` says why; its id starts `intake:`). Absent on jobs.
   */
  readonly pendingIntake?: true;
  /** Present (true) in history when the job's shipment was canceled since: its label is void. */
  readonly shipmentCanceled?: boolean;
  /** Present on a site station's automatic jobs: who decided it prints here, and why. */
  readonly siteDecision?: JobSiteDecision;
}

export interface TrackingEventView {
  readonly id: string | null;
  readonly status: string;
  readonly description: string | null;
  readonly location: string | null;
  /** ISO 8601 timestamp of the event. */
  readonly occurredAt: string;
  readonly url: string | null;
}

export interface PartyView {
  readonly name: string | null;
  readonly contactName: string | null;
  readonly addressLine: string | null;
  readonly postalCode: string | null;
  readonly city: string | null;
  readonly countryCode: string | null;
}

export interface ShipmentView {
  readonly id: string;
  readonly referenceId: string | null;
  readonly status: string | null;
  readonly trackingId: string | null;
  readonly carrierName: string | null;
  readonly productName: string | null;
  readonly sender: PartyView;
  readonly receiver: PartyView;
  readonly senderReference: string | null;
  readonly receiverReference: string | null;
  readonly availableDocuments: readonly string[];
  /** Newest first. */
  readonly tracking: readonly TrackingEventView[];
}

export interface PrinterInfo {
  /** Printer URI (docs/INTERFACES.md, Printer URIs). */
  readonly uri: string;
  readonly name: string;
  readonly kind: PrinterKind;
  /** Label stock of any size (`label`) or sheets of any size (`a4`); Settings' printer list has the exact media. */
  readonly media: 'label' | 'a4' | 'unknown';
  /** What a configured printer is for; absent for one only discovered. */
  readonly roles?: readonly ('label' | 'document')[];
  /** null when readiness cannot be known (service printers). */
  readonly ready: boolean | null;
  readonly detail: string | null;
  /** `detail` as a message code (src/shared/agent-messages.ts); absent when it has none. */
  readonly detailMessage?: AgentMessage | null;
}

/** The error shape that crosses process boundaries (IPC, web bridge). */
export interface AgentErrorPayload {
  readonly code: string;
  readonly message: string;
  readonly requestId: string | null;
  /** `message` as a message code (src/shared/agent-messages.ts), when the error carries one. */
  readonly agentMessage?: AgentMessage | null;
}

/** Station rules: which booked shipments this station prints by itself. */
export const stationRulesSchema = z.object({
  /** `all`: every booking; `none`: nothing prints by itself (scan, then Reprint); `filtered`: the criteria below. */
  mode: z.enum(['all', 'none', 'filtered']),
  /** Booking sources to print (`API`, `APP`). Empty = any source. */
  sources: z.array(z.string().min(1)).default([]),
  /** Carrier codes or names to print. Empty = any carrier. */
  carriers: z.array(z.string().min(1)).default([]),
  /**
   * Field matches. A pattern is a prefix, or a regular expression when written `/.../`.
   * Several matches on one field: any may match; matches on different fields: all must.
   */
  matches: z.array(z.object({ field: z.enum(['reference_id', 'sender_reference', 'system']), pattern: z.string().min(1) })).default([]),
});
export type StationRules = z.infer<typeof stationRulesSchema>;

const SHEET_LAYOUTS = ['a4', '1x2', '3x1', '2x2'] as const;

/** One printer of the station (docs/OPERATIONS.md, Printers and routing). */
export const printerEntrySchema = z
  .object({
    /** Shown in the UI and usable in rules instead of the URI. */
    name: z.string().min(1),
    /** Printer URI. */
    uri: z.string().min(1),
    /** `4x6in` is accepted for `label` (4x6 in label stock). */
    media: z.preprocess((v) => (v === '4x6in' ? 'label' : v), z.enum(PRINTER_MEDIA)),
    /** Sheet layout for labels on a sheet printer (`a4`, `1x2`, `3x1`, `2x2`); label stock always prints `printer`. */
    layout: z.enum(SHEET_LAYOUTS).optional(),
    /** Where this label printer's waiting labels go (as A4 sheets) when it stops; `auto` moves them without asking. */
    fallback: z.object({ printer: z.string().min(1), auto: z.boolean().default(false) }).optional(),
  })
  .refine((p) => p.layout === undefined || SHEET_MEDIA.includes(p.media), {
    message: 'a layout override needs sheet media (a4 or letter); label stock prints one label a page',
    path: ['layout'],
  });
export type PrinterEntry = z.infer<typeof printerEntrySchema>;

/** A routing rule: first match wins. Empty lists match anything. */
export const routingRuleSchema = z.object({
  /** Document types (`label`, `waybill`, ...). */
  documentTypes: z.array(z.string().min(1)).default([]),
  /** Carrier codes or names (GET /carriers maps one to the other). */
  carriers: z.array(z.string().min(1)).default([]),
  /** A printer's name (from `printers`) or a printer URI. */
  printer: z.string().min(1),
});
export type RoutingRule = z.infer<typeof routingRuleSchema>;

export const routingSchema = z.object({
  /** Printer URI for labels. */
  labelPrinter: z.string().min(1),
  /** Printer URI for A4 documents. */
  documentPrinter: z.string().min(1),
  /** Media held by the label printer: `label` (4x6) or `a4` (labels then print layout `a4`). */
  labelPrinterMedia: z.enum(['label', 'a4']).default('label'),
  /** Layout used for labels on an A4 label printer: `a4`, `1x2`, `3x1` or `2x2`. */
  sheetLayout: z.enum(['a4', '1x2', '3x1', '2x2']).default('a4'),
  /** Document types printed automatically after a booking. */
  autoPrint: z.array(z.string().min(1)).default(['label']),
  copies: z.number().int().min(1).max(10).default(1),
  /**
   * The station's printers. `labelPrinter` and `documentPrinter` stay the defaults for labels
   * and for other documents; when not listed here they count as two entries (see printersOf).
   * Optional (absent = none) so settings files and callers from before the list stay valid.
   */
  printers: z.array(printerEntrySchema).optional(),
  /** Routing rules by document type and carrier, first match wins. */
  rules: z.array(routingRuleSchema).optional(),
  /** Default printer (name or URI) per document type, before labelPrinter/documentPrinter. */
  defaults: z.record(z.string(), z.string().min(1)).optional(),
});
export type Routing = z.infer<typeof routingSchema>;

export const intakeSchema = z.object({
  webhooksEnabled: z.boolean().default(true),
  /** 0 = polling off. */
  pollIntervalSeconds: z.number().min(0).max(3600).default(5),
});
export type IntakeSettings = z.infer<typeof intakeSchema>;

/** Settings as the UI sees them: never the API key itself. */
export interface SettingsView {
  readonly environment: 'sandbox' | 'production' | 'custom';
  readonly apiUrl: string;
  readonly apiKeySet: boolean;
  /** Present (true) when the key is held for this session only: no secure storage on this computer. */
  readonly apiKeySessionOnly?: boolean;
  readonly routing: Routing;
  readonly intake: IntakeSettings;
  readonly stationRules: StationRules;
  readonly paused: boolean;
  /**
   * Present (false) when the web UI's address changes at the agent's next start (the demo
   * starts fresh; a UI port chosen at random): the UI gives no advice to bookmark it.
   */
  readonly uiAddressLasts?: false;
  /** The station's scale URI (docs/INTERFACES.md, Scales); `none` or absent: no scale. */
  readonly scale?: string;
}

export interface AgentStatus {
  readonly team: string | null;
  readonly environment: SettingsView['environment'];
  readonly state: 'ok' | 'paused' | 'error' | 'offline';
  readonly paused: boolean;
  readonly lastPrintAt: string | null;
  readonly lastError: AgentErrorPayload | null;
  readonly queued: number;
  readonly failed: number;
  /**
   * Configured printers that say they are not ready (paper out, head open, paused, cannot
   * be reached), asked every few seconds, in routing order; absent or empty when none.
   */
  readonly printerProblems?: readonly PrinterProblem[];
  /** The station's scale beside its printers; absent when it has none. */
  readonly scale?: { readonly uri: string; readonly state: ScaleState; readonly kg: number | null };
}

/** A printer not ready, in its own words. */
export interface PrinterProblem {
  readonly uri: string;
  /** Why, in English words that say what to do. */
  readonly detail: string;
  /** `detail` as a message code (src/shared/agent-messages.ts), for the UI's languages; absent when it has none. */
  readonly detailMessage?: AgentMessage;
}

/**
 * End of day: where each of a day's bookings stands. `may_have_printed`
 * = handed to the spooler with the outcome unknown (spooled, or failed "may have printed");
 * `not_printed` includes a booking the station never heard of and one still waiting in line;
 * `canceled` = the shipment was canceled at the service, or its label job by hand.
 */
export const END_OF_DAY_STATES = ['printed', 'may_have_printed', 'failed', 'not_printed', 'canceled'] as const;
export type EndOfDayState = (typeof END_OF_DAY_STATES)[number];

export interface EndOfDayRow {
  readonly shipmentId: string;
  readonly reference: string | null;
  readonly carrier: string | null;
  readonly trackingId: string | null;
  /** RFC 3339 booking time; null when only the station's clock dates it. */
  readonly bookedAt: string | null;
  readonly state: EndOfDayState;
  /** Why, in words: "waiting in the queue", the failure reason, "never reached this station". */
  readonly detail: string | null;
  /** `detail` as a message code (src/shared/agent-messages.ts), for the UI's languages; absent when it has none. */
  readonly detailMessage?: AgentMessage;
  /** When and where the label came out (state printed), else the last printer tried. */
  readonly printedAt: string | null;
  readonly printer: string | null;
  /** Who knows of it: the service's list, the station's ledger, or both. */
  readonly seenBy: 'service' | 'station' | 'both';
  /** The service lists a manifest among the shipment's documents. */
  readonly manifest: boolean;
}

export interface EndOfDayReport {
  /** YYYY-MM-DD, in the station's time zone. */
  readonly day: string;
  readonly generatedAt: string;
  readonly counts: { readonly booked: number } & Readonly<Record<EndOfDayState, number>>;
  /** Oldest booking first. */
  readonly rows: readonly EndOfDayRow[];
  /** Manifests the service offers for the day's shipments, and how many of them printed. */
  readonly manifests: { readonly available: number; readonly printed: number };
  /** The service's list could not be read: the counts are the station's ledger alone. */
  readonly serviceError: AgentErrorPayload | null;
}

/** What "print what is missing" (or "print manifests") did. */
export interface EndOfDayPrintResult {
  /** New automatic jobs. */
  readonly queued: number;
  /** Failed label jobs put back in line (the same job: never a second one). */
  readonly retried: number;
  /** Already waiting in line: nothing to do. */
  readonly waiting: number;
  readonly report: EndOfDayReport;
}

/** A printer this station is configured with, for per-printer pause. */
export interface ConfiguredPrinter {
  readonly uri: string;
  /** What it prints here. */
  readonly roles: readonly ('label' | 'document')[];
  readonly paused: boolean;
  /** Its name in Settings (routing.printers), when listed there. */
  readonly name?: string;
  readonly media?: PrinterMedia;
  /** Its own readiness, as listPrinters gives it: null when it cannot be known (service printers). */
  readonly ready?: boolean | null;
  /** Why not ready, in words that say what to do; null when ready. */
  readonly detail?: string | null;
  /** `detail` as a message code (src/shared/agent-messages.ts); absent when it has none. */
  readonly detailMessage?: AgentMessage | null;
}

/**
 * Where one document of a shipment stands: the end-of-day states, and `printing` while a
 * printer that still knows the job holds or prints it (not yet its word that it printed).
 */
export type DocumentPrintState = EndOfDayState | 'printing';

/** One document a booked shipment needs (its `available_documents_types`), and where it stands. */
export interface ShipmentDocumentState {
  readonly documentType: string;
  /** As in the end-of-day report, or `printing`; `not_printed` with a detail when it waits in line. */
  readonly state: DocumentPrintState;
  readonly detail: string | null;
  /** `detail` as a message code, as in the end-of-day report; absent when it has none. */
  readonly detailMessage?: AgentMessage;
  /** When and where it printed (state printed). */
  readonly printedAt: string | null;
  readonly printer: string | null;
}

/** What "print the missing documents" of one shipment did. */
export interface ShipmentDocumentsPrint {
  readonly queued: number;
  readonly retried: number;
  readonly waiting: number;
  readonly documents: readonly ShipmentDocumentState[];
}

// ---- pack and ship (finish, book, print and void a shipment at the station) ----------------

/** Where a shipment is: not booked yet (a draft the station can finish), booked, or canceled. */
export type ShipmentStage = 'draft' | 'booked' | 'canceled';

/**
 * The service names PENDING and CANCELED; a booked shipment has a carrier's tracking id or a
 * printable label (some carriers issue no tracking id at booking).
 */
export function shipmentStage(s: Pick<ShipmentView, 'status' | 'trackingId' | 'availableDocuments'>): ShipmentStage {
  const status = (s.status ?? '').toUpperCase();
  if (status === 'CANCELED' || status === 'CANCELLED') return 'canceled';
  if (status === 'BOOKED' || s.trackingId || s.availableDocuments.includes('label')) return 'booked';
  return 'draft';
}

/** Tracking statuses before the carrier has the goods: a shipment with only these can still be canceled. */
const BEFORE_PICKUP: ReadonlySet<string> = new Set(['ORDERED', 'BOOKED', 'CANCELED', 'CANCELLED', '']);

/**
 * The carrier has the goods (picked up or later): the service refuses a cancel then, so the
 * station offers none. True for status IN_TRANSIT or DELIVERED, or any carrier event.
 */
export function withCarrier(s: { readonly status: string | null; readonly tracking?: readonly { readonly status: string }[] }): boolean {
  const status = (s.status ?? '').toUpperCase();
  if (status === 'IN_TRANSIT' || status === 'DELIVERED') return true;
  return (s.tracking ?? []).some((e) => !BEFORE_PICKUP.has(e.status.toUpperCase()));
}

export interface PackageView {
  readonly widthCm: number | null;
  readonly heightCm: number | null;
  readonly depthCm: number | null;
  readonly weightKg: number | null;
  readonly quantity: number;
  readonly description: string | null;
  readonly favoritePackageId: string | null;
}

export interface CustomsItemView {
  readonly description: string | null;
  readonly quantity: number | null;
  readonly unitWeightKg: number | null;
  readonly unitValue: number | null;
  readonly hsCode: string | null;
  readonly countryOfOrigin: string | null;
}

export interface CustomsView {
  readonly currency: string | null;
  readonly invoiceNumber: string | null;
  readonly termsOfSale: string | null;
  readonly items: readonly CustomsItemView[];
}

/** One thing the service (or the station, before asking it) says is wrong or missing. */
export interface FieldProblem {
  /** The service's field path, e.g. `packages[0].weight_kg`. */
  readonly field: string;
  /** The field in a packer's words, e.g. "Weight of parcel 1". */
  readonly label: string;
  /** The service's message in a packer's words, e.g. "is missing". */
  readonly message: string;
  /** `message` as a code, for the UI's languages; absent for the service's own words. */
  readonly code?: FieldProblemCode;
  /** The code's values: `text` (what was typed) for notNumber, `max` for tooLarge. */
  readonly params?: Readonly<Record<string, string | number>>;
}

/** What is wrong with a typed field: missing, not a number, not above 0, above its maximum. */
export type FieldProblemCode = 'missing' | 'notNumber' | 'notPositive' | 'tooLarge';

/** A shipment at the packing table: what it holds and what booking still needs. */
export interface DraftView {
  readonly shipment: ShipmentView;
  readonly stage: ShipmentStage;
  readonly packages: readonly PackageView[];
  readonly customs: CustomsView | null;
  /** From the service's bookable validation; empty when the shipment can be rated and booked. */
  readonly missing: readonly FieldProblem[];
  readonly nonEu: boolean;
  readonly privateReceiver: boolean;
  readonly thirdPartyPayer: boolean;
}

/** A favorite package, offered as a box preset. */
export interface BoxPreset {
  readonly id: string;
  readonly name: string;
  readonly widthCm: number | null;
  readonly heightCm: number | null;
  readonly depthCm: number | null;
  readonly weightKg: number | null;
  readonly dangerousGoods: string | null;
}

export interface RateView {
  readonly token: string;
  readonly priceRank: number;
  readonly carrier: string | null;
  readonly carrierName: string;
  readonly productName: string;
  /** null for receiver-pays rates (the service sends `-`). */
  readonly price: string | null;
  readonly currency: string | null;
  readonly receiverPays: boolean;
  readonly daysMin: number | null;
  readonly daysMax: number | null;
  /** `YYYY-MM-DD HH:MM` of the pickup cutoff, when the rate has a pickup. */
  readonly pickupCutoff: string | null;
  readonly needsServicePoint: boolean;
  /** Documents to upload before booking (customsinvoice dropped when customs data is complete). */
  readonly requiredDocuments: readonly string[];
  readonly thirdPartyPayerSupported: boolean;
  readonly ownAgreementName: string | null;
  readonly expiresAt: string | null;
  /** False when the shipment's third-party customs payer rules this rate out. */
  readonly bookable: boolean;
}

export interface RatesView {
  readonly shipmentId: string;
  readonly rates: readonly RateView[];
  /** Token of the rate the station's rules prefer, else the cheapest bookable one. */
  readonly selected: string | null;
  readonly warnings: ReadonlyArray<{ readonly carrierName: string; readonly product: string; readonly messages: readonly string[] }>;
  readonly appliedRules: readonly string[];
  readonly fetchedAt: string;
}

export interface ServicePointView {
  readonly token: string;
  readonly carrier: string | null;
  readonly name: string;
  readonly addressLine: string | null;
  readonly postalCode: string | null;
  readonly city: string | null;
  /** Metres by road when the service says, else great-circle; null when unknown. */
  readonly distanceM: number | null;
}

export interface BookedView {
  readonly shipmentId: string;
  readonly trackingId: string | null;
  /** The print jobs of this booking (the automatic ones: never printed twice). */
  readonly jobs: readonly JobView[];
  /** True when an earlier call (a second Enter) already booked it. */
  readonly alreadyBooked: boolean;
  /** True when the chosen rate's token had expired and the same rate was fetched anew. */
  readonly refreshedToken: boolean;
}

/** A failed pack step, as data (field maps cannot cross Electron's contextBridge on an Error). */
export interface PackProblem extends AgentErrorPayload {
  readonly fields: readonly FieldProblem[];
}
export type PackResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: PackProblem };

const packSettingsFields = {
  /** `next`: request pickup at the next `pickupTime` (today, else the next weekday); `without`: no pickup. */
  pickup: z.enum(['next', 'without']),
  /** Local time of day `HH:MM` the carrier collects. */
  pickupTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM'),
  /** Shipping rules applied to rate searches (GET /shipping-rules ids); empty = the team's enabled rules. */
  shippingRuleIds: z.array(z.string().min(1).max(128)).max(50),
  /** Book a scanned draft and print its label, without a key, once a stable weight has held for one second. */
  bookOnStableWeight: z.boolean(),
};
export const packSettingsSchema = z.object({
  pickup: packSettingsFields.pickup.default('next'),
  pickupTime: packSettingsFields.pickupTime.default('16:00'),
  shippingRuleIds: packSettingsFields.shippingRuleIds.default([]),
  bookOnStableWeight: packSettingsFields.bookOnStableWeight.default(false),
});
/** A change to some packing settings: what is omitted stays as stored (no defaults filled in). */
export const packSettingsPatchSchema = z.object(packSettingsFields).partial().strict();
export type PackSettings = z.infer<typeof packSettingsSchema>;

/**
 * Hands-free booking of one scanned draft (Settings → Packing, Book when the weight is stable):
 * `off` the setting is off or the station has no scale; `waiting` for parcel `parcel` (0-based)
 * of `parcels` to hold a stable weight; `booking`; `booked` (once: never again for this draft);
 * `refused` a weight or draft it will not book on, said in `message`, until the weight changes;
 * `failed` the booking failed (`message`), booked by key from here.
 */
export const HANDS_FREE_STATES = ['off', 'waiting', 'booking', 'booked', 'refused', 'failed'] as const;
export type HandsFreeState = (typeof HANDS_FREE_STATES)[number];
export interface HandsFreeView {
  readonly shipmentId: string;
  readonly state: HandsFreeState;
  /** The parcel being weighed (0-based) and how many the draft has. */
  readonly parcel: number;
  readonly parcels: number;
  /** The stable weights taken so far, parcel by parcel, in kg. */
  readonly weightsKg: readonly number[];
  /** Why it is refused or failed, in English words; else null. */
  readonly message: string | null;
  /** A code for the UI's words: HANDS_FREE_… */
  readonly code: string | null;
  readonly booked: BookedView | null;
}

/** A small picture of the label a job sent (labelPreview): PNG, at most 240 × 360 pixels. */
export interface LabelPreview {
  readonly jobId: string;
  readonly width: number;
  readonly height: number;
  readonly pngBase64: string;
}

export interface ShippingRuleView {
  readonly id: string;
  readonly name: string;
  readonly type: string | null;
  readonly enabled: boolean;
}
