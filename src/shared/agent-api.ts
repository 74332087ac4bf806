/**
 * The one contract between the UI and the agent. The Electron preload exposes one
 * function per operation over IPC; the headless agent's loopback web bridge exposes the
 * same operations over HTTP. Both validate every payload with the schemas below before
 * it reaches the AgentApi facade in main.
 */
import { z } from 'zod';
import type { AgentMessage } from './agent-messages';
import type { ScaleDetails, ScaleStatus } from './scale';
import type { SiteStatusView } from './site';
import { UI_LANGUAGES, type UiLanguage } from './tray-words';
import {
  DOCUMENT_TYPES,
  JOB_STATES,
  LABEL_LAYOUTS,
  intakeSchema,
  routingSchema,
  stationRulesSchema,
  type AgentStatus,
  type ConfiguredPrinter,
  type EndOfDayPrintResult,
  type EndOfDayReport,
  type JobView,
  type ShipmentDocumentState,
  type ShipmentDocumentsPrint,
  type PrinterInfo,
  type SettingsView,
  type ShipmentView,
  type TrackingEventView,
  type AgentErrorPayload,
  packSettingsPatchSchema,
  type BookedView,
  type BoxPreset,
  type DraftView,
  type HandsFreeView,
  type LabelPreview,
  type PackResult,
  type PackSettings,
  type RatesView,
  type ServicePointView,
  type ShippingRuleView,
} from './domain';

/**
 * A scanner whose keyboard layout differs from the computer's moves punctuation: a US-layout
 * scanner on a Nordic keyboard types `+` for `-` and `-` for `/`; a Nordic one on a US keyboard
 * the other way round.
 */
export type ScanLayoutMismatch = 'us-scanner-nordic-keyboard' | 'nordic-scanner-us-keyboard';

export type LookupResult =
  | {
      readonly kind: 'found';
      readonly scanned: string;
      readonly normalized: string;
      readonly matchedBy: 'reference' | 'shipment_id' | 'tracking_id';
      readonly shipment: ShipmentView;
      /**
       * Set when only the scan read in the other keyboard layout matched: the scanner's layout
       * does not match the computer's, and the UI says what to change.
       */
      readonly layoutMismatch?: ScanLayoutMismatch;
    }
  | { readonly kind: 'not_found'; readonly scanned: string; readonly normalized: string; readonly message: string };

export type AgentEvent =
  | { readonly type: 'job'; readonly job: JobView }
  | { readonly type: 'tracking'; readonly shipmentId: string; readonly event: TrackingEventView }
  | { readonly type: 'alert'; readonly shipmentId: string; readonly title: string; readonly message: string }
  | { readonly type: 'status'; readonly status: AgentStatus }
  /**
   * A label printer stopped and has labels waiting: moveToFallback({ printer }) sends them to
   * `fallback` (or a chosen A4 printer) as sheets. Once per outage; not sent when `auto` is set.
   */
  | {
      readonly type: 'fallback';
      readonly printer: string;
      readonly advice: string;
      /** `advice` as a message code (src/shared/agent-messages.ts), for the UI's languages. */
      readonly adviceMessage?: AgentMessage;
      readonly fallback: string | null;
    }
  /** A stopped label printer's waiting labels went to an A4 printer (automatically or on request). */
  | { readonly type: 'fallbackMoved'; readonly printer: string; readonly to: string; readonly jobs: readonly JobView[] }
  /** The scale's state or weight changed (one event per change, as scaleStatus would answer). */
  | { readonly type: 'scale'; readonly scale: ScaleStatus };

const shipmentIdInput = z.string().min(1).max(128);
/** Document types the service accepts as uploads (POST /shipments/{id}/{document_type}). */
export const UPLOAD_DOCUMENT_TYPES = ['customsinvoice', 'abd', 'salesinvoice', 'adr_dangerousgoods'] as const;
/** The service's limit on a request body (413 above it; spec summary: "Body over 10 MB"). */
export const SERVICE_BODY_BYTES = 10 * 1024 * 1024;
/**
 * Room left in the service's body limit for the multipart envelope around the PDF: the
 * boundary lines, the part's headers and its file name (at most 255 characters, 3 bytes each
 * in UTF-8, a `"` written as `%22`): under 1 KiB, twice that kept free.
 */
export const UPLOAD_ENVELOPE_BYTES = 2048;
/** Largest PDF the station uploads: the multipart body it makes stays within the service's limit. */
export const MAX_UPLOAD_BYTES = SERVICE_BODY_BYTES - UPLOAD_ENVELOPE_BYTES;
/** The bridge's body limit for an upload: the PDF as base64 plus its JSON envelope. */
export const UPLOAD_BODY_BYTES = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 4096;
/** Operations whose input may exceed the bridge's usual small body limit. */
export const LARGE_INPUT_OPERATIONS: ReadonlySet<string> = new Set(['packUpload']);
/** A package as typed at the table: numbers as text (decimal comma or point), parsed by the agent. */
const typedNumber = z.union([z.number(), z.string().max(32)]);
const packageEntry = z
  .object({
    presetId: z.string().min(1).max(128).optional(),
    widthCm: typedNumber,
    heightCm: typedNumber,
    depthCm: typedNumber,
    weightKg: typedNumber,
    quantity: z.number().int().min(1).max(99).default(1),
  })
  .strict();

const documentType = z.union([z.enum(DOCUMENT_TYPES), z.string().min(1).max(64)]);

/** A day in the station's time zone, YYYY-MM-DD. */
export const dayText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is written YYYY-MM-DD');

/** Input schemas, one per operation. `z.void()`-like operations take `{}`. */
export const agentInputs = {
  getStatus: z.object({}).strict(),
  siteStatus: z.object({}).strict(),
  saveSiteRules: z.object({ station: z.string().min(1).max(200), rules: stationRulesSchema }).strict(),
  lookup: z.object({ scan: z.string().max(512) }).strict(),
  reprint: z
    .object({
      shipmentId: z.string().min(1).max(128),
      documentType: documentType.optional(),
      layout: z.enum(LABEL_LAYOUTS).optional(),
      printer: z.string().min(1).max(512).optional(),
      copies: z.number().int().min(1).max(10).optional(),
    })
    .strict(),
  listJobs: z
    .object({
      search: z.string().max(256).optional(),
      state: z.enum(JOB_STATES).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    })
    .strict(),
  retryJob: z.object({ id: z.string().min(1).max(64) }).strict(),
  cancelJob: z.object({ id: z.string().min(1).max(64) }).strict(),
  listPrinters: z.object({}).strict(),
  testPrint: z.object({ printer: z.string().min(1).max(512) }).strict(),
  getSettings: z.object({}).strict(),
  saveSettings: z
    .object({
      environment: z.enum(['sandbox', 'production', 'custom']).optional(),
      apiUrl: z.string().url().max(512).optional(),
      /** Write-only: accepted here, never returned. */
      apiKey: z.string().min(1).max(512).optional(),
      routing: routingSchema.partial().optional(),
      intake: intakeSchema.partial().optional(),
      stationRules: stationRulesSchema.optional(),
      /** The station's scale URI (docs/INTERFACES.md, Scales); `none` for no scale. */
      scale: z.string().min(1).max(512).optional(),
    })
    .strict(),
  testConnection: z.object({ apiUrl: z.string().url().max(512).optional(), apiKey: z.string().min(1).max(512).optional() }).strict(),
  setPaused: z.object({ paused: z.boolean(), printer: z.string().min(1).max(512).optional() }).strict(),
  startDemo: z.object({}).strict(),
  saveDiagnostics: z.object({}).strict(),
  rotateUiAddress: z.object({}).strict(),
  catchUpOffer: z.object({}).strict(),
  printCatchUp: z.object({}).strict(),
  endOfDay: z.object({ day: dayText }).strict(),
  printMissing: z.object({ day: dayText }).strict(),
  printManifests: z.object({ day: dayText }).strict(),
  listConfiguredPrinters: z.object({}).strict(),
  moveToFallback: z.object({ printer: z.string().min(1).max(512), to: z.string().min(1).max(512).optional() }).strict(),
  shipmentJobs: z.object({ shipmentId: z.string().min(1).max(128) }).strict(),
  shipmentDocuments: z.object({ shipmentId: z.string().min(1).max(128), documentTypes: z.array(documentType).max(32) }).strict(),
  printShipmentDocuments: z.object({ shipmentId: z.string().min(1).max(128) }).strict(),
  // ---- pack and ship ----
  packDraft: z.object({ shipmentId: shipmentIdInput }).strict(),
  packPresets: z.object({}).strict(),
  packUpdate: z
    .object({
      shipmentId: shipmentIdInput,
      packages: z.array(packageEntry).min(1).max(50),
    })
    .strict(),
  packRates: z.object({ shipmentId: shipmentIdInput }).strict(),
  packServicePoints: z.object({ shipmentId: shipmentIdInput, carrier: z.string().min(1).max(64).optional() }).strict(),
  packUpload: z
    .object({
      shipmentId: shipmentIdInput,
      documentType: z.enum(UPLOAD_DOCUMENT_TYPES),
      fileName: z.string().min(1).max(255),
      /** The PDF, base64. */
      contentBase64: z
        .string()
        .min(1)
        .max(Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 4),
    })
    .strict(),
  packBook: z
    .object({
      shipmentId: shipmentIdInput,
      token: z.string().min(1).max(512),
      servicePointToken: z.string().min(1).max(512).optional(),
      pickupInstructions: z.string().max(500).optional(),
      deliveryInstructions: z.string().max(500).optional(),
    })
    .strict(),
  packCancel: z.object({ shipmentId: shipmentIdInput }).strict(),
  packHandsFree: z
    .object({
      shipmentId: shipmentIdInput,
      /** The rate the packer chose; the preferred one when omitted or no longer offered. */
      token: z.string().min(1).max(512).optional(),
      servicePointToken: z.string().min(1).max(512).optional(),
    })
    .strict(),
  packHandsFreeStatus: z.object({ shipmentId: shipmentIdInput }).strict(),
  labelPreview: z.object({ jobId: z.string().min(1).max(128) }).strict(),
  getPackSettings: z.object({}).strict(),
  savePackSettings: packSettingsPatchSchema,
  listShippingRules: z.object({}).strict(),
  listCarriers: z.object({}).strict(),
  // ---- the scale ----
  scaleStatus: z.object({}).strict(),
  scaleDetails: z.object({}).strict(),
} as const;

export type AgentOperation = keyof typeof agentInputs;
export type AgentInput<Op extends AgentOperation> = z.input<(typeof agentInputs)[Op]>;

/** Bookings made shortly before a fresh station's first start: offered, not printed by themselves. */
export interface CatchUpOffer {
  readonly count: number;
  /** How far before the first start the offer reaches (60). */
  readonly windowMinutes: number;
  /** RFC 3339; null on a station from before the first start was kept. */
  readonly firstStartAt: string | null;
}

export interface AgentApi {
  getStatus(input: AgentInput<'getStatus'>): Promise<AgentStatus>;
  /** The site of stations this station belongs to (`--site`): every station's heartbeat, the latest decisions. */
  siteStatus(input: AgentInput<'siteStatus'>): Promise<SiteStatusView>;
  /** Writes a station's rules into the site (any station's, from any station); the site decides by them at once. */
  saveSiteRules(input: AgentInput<'saveSiteRules'>): Promise<SiteStatusView>;
  /** Resolve a scan (reference, shipment id, tracking id, GS1/SSCC barcode) to a shipment. */
  lookup(input: AgentInput<'lookup'>): Promise<LookupResult>;
  /** Always new jobs (never deduplicated against automatic prints). */
  reprint(input: AgentInput<'reprint'>): Promise<JobView[]>;
  listJobs(input: AgentInput<'listJobs'>): Promise<JobView[]>;
  retryJob(input: AgentInput<'retryJob'>): Promise<JobView>;
  cancelJob(input: AgentInput<'cancelJob'>): Promise<JobView>;
  listPrinters(input: AgentInput<'listPrinters'>): Promise<PrinterInfo[]>;
  testPrint(input: AgentInput<'testPrint'>): Promise<JobView>;
  getSettings(input: AgentInput<'getSettings'>): Promise<SettingsView>;
  saveSettings(input: AgentInput<'saveSettings'>): Promise<SettingsView>;
  testConnection(input: AgentInput<'testConnection'>): Promise<{ team: string; status: string }>;
  /** Pause or resume automatic printing, or one printer when `printer` is given. */
  setPaused(input: AgentInput<'setPaused'>): Promise<AgentStatus>;
  /**
   * First run, "Try the demo": run the embedded sandbox in the agent, point the agent at it
   * for this session (nothing is stored) and book a shipment every few seconds.
   */
  startDemo(input: AgentInput<'startDemo'>): Promise<AgentStatus>;
  /**
   * Write a diagnostics bundle (one JSON file, no secrets) into the data directory's
   * `diagnostics/` folder; returns where, and its text so the web UI can offer a download.
   */
  saveDiagnostics(input: AgentInput<'saveDiagnostics'>): Promise<DiagnosticsSaved>;
  /**
   * The headless agent's web UI gets a new access token (kept in the data dir): every
   * bookmark and open tab with the old address stops working. Returns the new full `ui:`
   * address. Refused (UI_ADDRESS_UNAVAILABLE) where there is no web UI (the desktop app).
   */
  rotateUiAddress(input: AgentInput<'rotateUiAddress'>): Promise<{ url: string }>;
  /**
   * What a fresh station did not print by itself: the bookings of the `windowMinutes` before
   * its first start (docs/INTERFACES.md, "A fresh station"). `count` 0: nothing to offer.
   */
  catchUpOffer(input: AgentInput<'catchUpOffer'>): Promise<CatchUpOffer>;
  /** Prints the offered bookings (each once: the ledger's idempotency holds); returns how many were submitted. */
  printCatchUp(input: AgentInput<'printCatchUp'>): Promise<{ submitted: number }>;
  /** End of day: the day's bookings (the service's list and the ledger) and where each stands. */
  endOfDay(input: AgentInput<'endOfDay'>): Promise<EndOfDayReport>;
  /** Prints the day's missing labels: automatic jobs (at most one per shipment), failed ones retried. */
  printMissing(input: AgentInput<'printMissing'>): Promise<EndOfDayPrintResult>;
  /** Prints the manifests the service offers for the day's shipments, each at most once. */
  printManifests(input: AgentInput<'printManifests'>): Promise<EndOfDayPrintResult>;
  /** The printers in the routing, each with whether it is paused (setPaused with `printer` pauses one). */
  listConfiguredPrinters(input: AgentInput<'listConfiguredPrinters'>): Promise<ConfiguredPrinter[]>;
  /**
   * Sends a stopped label printer's waiting labels (not those its spooler already holds) to
   * `to`, or to its configured fallback, as sheets in that printer's layout (`a4` by default).
   * Each label moves once; nothing prints twice when the label printer is back.
   */
  moveToFallback(input: AgentInput<'moveToFallback'>): Promise<JobView[]>;
  /** Every job of one shipment, oldest first: what printed, when and where. */
  shipmentJobs(input: AgentInput<'shipmentJobs'>): Promise<JobView[]>;
  /** Each of the given documents of a shipment with its print state (from the ledger). */
  shipmentDocuments(input: AgentInput<'shipmentDocuments'>): Promise<ShipmentDocumentState[]>;
  /**
   * Prints every document the service lists for a booked shipment that has not printed:
   * at most one automatic job per document (a second call prints nothing twice), a failed one retried.
   */
  printShipmentDocuments(input: AgentInput<'printShipmentDocuments'>): Promise<ShipmentDocumentsPrint>;
  /** A scanned shipment at the packing table: packages, customs data, what booking still needs. */
  packDraft(input: AgentInput<'packDraft'>): Promise<PackResult<DraftView>>;
  /** The team's favorite packages, as box presets. */
  packPresets(input: AgentInput<'packPresets'>): Promise<BoxPreset[]>;
  /** Replace the packages (PUT /shipments/{id}); customs weights are checked first. */
  packUpdate(input: AgentInput<'packUpdate'>): Promise<PackResult<DraftView>>;
  /** Rates with the station's pickup setting and shipping rules; one is selected. */
  packRates(input: AgentInput<'packRates'>): Promise<PackResult<RatesView>>;
  /** Service points near the receiver, nearest first. */
  packServicePoints(input: AgentInput<'packServicePoints'>): Promise<PackResult<ServicePointView[]>>;
  /** Upload a required document (PDF only). */
  packUpload(input: AgentInput<'packUpload'>): Promise<PackResult<{ documentType: string; bytes: number }>>;
  /**
   * Book with the rate's token (fetched anew when it expired) and print the label and needed
   * documents once. Idempotent per shipment: a second call while or after booking books nothing.
   */
  packBook(input: AgentInput<'packBook'>): Promise<PackResult<BookedView>>;
  /** Void a booked shipment (POST /shipments/cancel); its label can no longer be reprinted. */
  packCancel(input: AgentInput<'packCancel'>): Promise<PackResult<DraftView>>;
  /**
   * Hands the scanned draft to the scale (packing.bookOnStableWeight): booked and printed once
   * when a stable weight above zero has held for one second. Arming the same draft again (a
   * second window) joins the first; another draft takes the scale over.
   */
  packHandsFree(input: AgentInput<'packHandsFree'>): Promise<HandsFreeView>;
  /** A small PNG of the label a job sent, rendered from its PDF; null for a job the station does not know. */
  labelPreview(input: AgentInput<'labelPreview'>): Promise<LabelPreview | null>;
  /** Where the draft's hands-free booking is; `off` when it was never armed here. */
  packHandsFreeStatus(input: AgentInput<'packHandsFreeStatus'>): Promise<HandsFreeView>;
  getPackSettings(input: AgentInput<'getPackSettings'>): Promise<PackSettings>;
  savePackSettings(input: AgentInput<'savePackSettings'>): Promise<PackSettings>;
  /** GET /shipping-rules, for choosing the station's rules. */
  listShippingRules(input: AgentInput<'listShippingRules'>): Promise<ShippingRuleView[]>;
  /**
   * The service's carriers (GET /carriers, as the agent cached it for routing), for choosing
   * one in a routing rule. Empty when the service was not reached: rules then take carriers as written.
   */
  listCarriers(input: AgentInput<'listCarriers'>): Promise<CarrierChoice[]>;
  /** The scale now: `{ state, kg }` (src/shared/scale.ts); `offline` when the station has none. */
  scaleStatus(input: AgentInput<'scaleStatus'>): Promise<ScaleStatus>;
  /** Settings → Scale: the scale URI, its reading, its identity and why it is offline. */
  scaleDetails(input: AgentInput<'scaleDetails'>): Promise<ScaleDetails>;
}

/** A carrier as GET /carriers names it: `code` lower case (what rules store), `name` for people. */
export interface CarrierChoice {
  readonly code: string;
  readonly name: string | null;
}

export interface DiagnosticsSaved {
  /** Absolute path of the bundle on the agent's machine. */
  readonly path: string;
  readonly fileName: string;
  /** The bundle's JSON text (already free of secrets). */
  readonly content: string;
}

export const AGENT_OPERATIONS = Object.keys(agentInputs) as AgentOperation[];

/** What a UI client sees: the operations plus a live event subscription. */
export interface AgentClient extends AgentApi {
  /** Returns the unsubscribe function. */
  onEvent(listener: (event: AgentEvent) => void): () => void;
  /**
   * Tells the desktop app the language the window shows (UI_LANGUAGE_CHANNEL), so its tray
   * menu and notifications say the same. Electron only: the web bridge has no tray.
   */
  setUiLanguage?(language: UiLanguage): void;
}

/**
 * Electron only, beside the agent's operations: the window sends the language it shows
 * (Settings → Language, or the system's) at start and on every change, one way
 * (ipcRenderer.send); main checks the sender and this schema before the tray follows.
 */
export const UI_LANGUAGE_CHANNEL = 'app:ui-language';
export const uiLanguageInput = z.object({ language: z.enum(UI_LANGUAGES) }).strict();

/** IPC channel names (Electron) and HTTP paths (web bridge) derive from the operation. */
export const ipcChannel = (op: AgentOperation): string => `agent:${op}`;
export const IPC_EVENT_CHANNEL = 'agent:event';
export const bridgePath = (op: AgentOperation): string => `/api/${op}`;
export const BRIDGE_EVENTS_PATH = '/api/events';
/** Header carrying the per-run UI token on bridge requests. */
export const BRIDGE_TOKEN_HEADER = 'x-print-station-token';

/** Result envelope on IPC and the bridge: errors cross as data, not as thrown objects. */
export type AgentResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AgentErrorPayload };
