import { codedOnly, plainMessage, type AgentMessage } from '../../shared/agent-messages';
/**
 * The AgentApi facade: what the UI can ask of the agent. Electron IPC and the headless web
 * bridge both validate their payloads and forward here, so this is the single place each
 * operation is implemented.
 */
import type { AgentApi, AgentInput, CarrierChoice, DiagnosticsSaved, LookupResult } from '../../shared/agent-api';
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import type {
  AgentStatus,
  BookedView,
  BoxPreset,
  ConfiguredPrinter,
  DraftView,
  HandsFreeView,
  LabelPreview,
  EndOfDayPrintResult,
  EndOfDayReport,
  JobView,
  PackResult,
  PackSettings,
  PrinterInfo,
  RatesView,
  ServicePointView,
  SettingsView,
  ShipmentDocumentState,
  ShipmentDocumentsPrint,
  ShippingRuleView,
} from '../../shared/domain';
import { isSheetMedia, type StationRules } from '../../shared/domain';
import type { CarrierCache } from './carrier-cache';
import type { FallbackWatcher } from './fallback-watcher';
import { ApiError, API_ERROR_CODES } from '../api/errors';
import { CodedError } from '../errors';
import type { Ledger } from '../ledger/ledger';
import { toJobView } from '../ledger/job-record';
import type { PrintPipeline } from '../jobs/pipeline';
import type { Logger } from '../log';
import { discoverPrinters } from '../printing/discovery';
import { parsePrinterUri } from '../printing/uri';
import { findPrinter, mediaOn, printersOf } from '../printing/routing';
import type { PrinterTarget } from '../printing/target';
import { pendingHistory, refuseOnPendingBooking } from '../intake/sources/webhooks/pending-decisions';
import { parseStationRules } from '../intake/station-rules';
import { lookupScan } from '../scan/lookup';
import { endOfDayReport, printManifests, printMissing, type EndOfDayDeps } from '../report/end-of-day-service';
import { documentStates, printShipmentDocuments } from '../report/shipment-documents';
import type { ApiKeyStore } from '../settings/api-key-store';
import { createSettingsOperations, type SettingsOperations } from '../settings/settings-operations';
import type { SettingsStore } from '../settings/settings-store';
import { saveAgentDiagnostics } from '../diagnostics/agent-diagnostics';
import { PackFlow } from '../pack/pack-flow';
import type { SiteStatusView } from '../../shared/site';
import type { ScaleDetails, ScaleStatus } from '../../shared/scale';
import type { ScaleOperations } from './operations/scale';
import { HandsFreeBooking, type HandsFreeScale } from '../pack/hands-free';
import { LabelPreviews } from '../scan/label-preview';
import { createHandsFreeOperations, type HandsFreeOperations } from './operations/hands-free';
import type { ServiceConnection } from '../api/service-connection';
import type { ProvidedSession } from '../api/session-connection';
import type { StatusTracker } from './status-tracker';
import { TEST_PAGE_SHIPMENT, TEST_PAGE_TYPE, testPageLayout } from './test-page';

export interface AgentServiceDeps {
  readonly connection: ServiceConnection;
  readonly ledger: Ledger;
  readonly pipeline: PrintPipeline;
  readonly settings: SettingsStore;
  readonly apiKeys: ApiKeyStore;
  readonly status: StatusTracker;
  readonly targetFor: (uri: string) => PrinterTarget;
  readonly emitStatus: () => void;
  /** Polling or webhook settings changed: restart the poller. */
  readonly onIntakeChanged: () => Promise<void>;
  /** The connection startDemo switches to, while it lasts. */
  readonly session: ProvidedSession;
  readonly log: Logger;
  /** Secrets besides the API key a diagnostics bundle must never contain (webhook secrets). @default none */
  readonly secrets?: () => readonly string[];
  /** Moves a stopped label printer's labels (moveToFallback). @default none: the operation refuses */
  readonly fallback?: Pick<FallbackWatcher, 'moveToFallback'>;
  /** The GET /carriers cache routing uses (listCarriers). @default none: listCarriers answers an empty list */
  readonly carriers?: Pick<CarrierCache, 'list' | 'refresh'>;
  /** The site this station belongs to (`--site`): scans claim, siteStatus reads it. @default none */
  readonly site?: {
    claim(code: string): Promise<void>;
    status(): Promise<SiteStatusView>;
    rulesChanged?(): Promise<void>;
    saveRules?(station: string, rules: StationRules): Promise<void>;
  } | null;
  /** The headless web UI's address (rotateUiAddress). @default none: the operation refuses (the desktop app has no such address) */
  readonly uiAddress?: UiAddressControl;
  /** The scale's operations (operations/scale.ts). @default none: the station reads as having no scale */
  readonly scale?: ScaleOperations;
  /** The scale's monitor now, for booking on a stable weight (pack/hands-free.ts). @default none: hands-free reads off */
  readonly scaleMonitor?: () => HandsFreeScale | null;
}

/** What rotateUiAddress asks of the web UI that serves this agent (src/main/headless.ts). */
export interface UiAddressControl {
  /** A new kept token, in force at once; returns the new full `ui:` address. */
  rotate(): string;
}

export class AgentService implements AgentApi {
  private readonly settingsOps: SettingsOperations;
  private readonly pack: PackFlow;
  private readonly handsFree: HandsFreeOperations;
  private readonly previews: LabelPreviews;
  /** The draft armed to book on a stable weight (stopped with the agent). */
  readonly handsFreeBooking: HandsFreeBooking;

  constructor(private readonly deps: AgentServiceDeps) {
    this.settingsOps = createSettingsOperations({ settings: deps.settings, apiKeys: deps.apiKeys });
    this.pack = new PackFlow({
      client: () => deps.connection.current,
      ledger: deps.ledger,
      pipeline: deps.pipeline,
      autoPrintTypes: () => deps.settings.get().routing.autoPrint,
      log: deps.log,
    });
    this.handsFreeBooking = new HandsFreeBooking({
      flow: this.pack,
      scale: () => deps.scaleMonitor?.() ?? null,
      enabled: () => this.pack.settings.get().bookOnStableWeight,
      log: deps.log,
    });
    this.handsFree = createHandsFreeOperations(this.handsFreeBooking);
    this.previews = new LabelPreviews({
      job: (id) => deps.ledger.jobs.get(id),
      printFile: (request) => deps.connection.current.printFile(request),
    });
  }

  /** GET /status with the current key: shows the team, or says why not. */
  async checkConnection(required: boolean): Promise<void> {
    const { connection, status, log, settings } = this.deps;
    if (!connection.configured) {
      log.warn('no API key set: connect an account in Settings (or run the demo)');
      if (required)
        throw new CodedError(AGENT_ERROR_CODES.NOT_CONNECTED, 'No API key: set PRINT_STATION_API_KEY, or apiKey in the --config file.');
      return;
    }
    try {
      const answer = await connection.current.status();
      status.connected(answer.team);
      log.info(`connected: team ${answer.team} (${settings.get().environment}, ${connection.url})`);
    } catch (error) {
      status.serviceFailed(error);
      // A rejected key or an address where nothing answers cannot get better by waiting;
      // an unreachable or failing service can, so the agent keeps running and retries.
      const fatal = error instanceof ApiError && (error.code === API_ERROR_CODES.UNAUTHORIZED || error.code === API_ERROR_CODES.NOT_FOUND);
      // The caller prints a fatal error once; logging it here as well would say it twice.
      if (required && fatal) throw error;
      log.error(`cannot check the API key with GET /status: ${(error as Error).message}`);
    }
    this.deps.emitStatus();
  }

  async getStatus(_input: AgentInput<'getStatus'>): Promise<AgentStatus> {
    return this.deps.status.snapshot();
  }

  async siteStatus(_input: AgentInput<'siteStatus'>): Promise<SiteStatusView> {
    const site = this.deps.site;
    if (!site) return { enabled: false, address: null, station: null, connected: false, stations: [], decisions: [] };
    return site.status();
  }

  async saveSiteRules({ station, rules }: AgentInput<'saveSiteRules'>): Promise<SiteStatusView> {
    const site = this.deps.site;
    if (!site?.saveRules) {
      throw new CodedError(AGENT_ERROR_CODES.SITE_UNAVAILABLE, 'This station is not in a site: start it with --site nats://HOST:PORT.');
    }
    // The same check as this station's own rules: patterns RE2 cannot run are refused here.
    await site.saveRules(station, parseStationRules(rules));
    return site.status();
  }

  /** In a site, the scanned text (and its normalized reading) is this station's, found or not, within a second. */
  async lookup(input: AgentInput<'lookup'>): Promise<LookupResult> {
    const site = this.deps.site;
    if (!site) return this.lookupHere(input);
    const scanned = input.scan.trim();
    const claimed = site.claim(scanned);
    const result = await this.lookupHere(input);
    const codes = [result.normalized, result.kind === 'found' ? result.shipment.id : ''].filter((c) => c !== '' && c !== scanned);
    await Promise.all([claimed, ...codes.map((code) => site.claim(code))]);
    return result;
  }

  private async lookupHere({ scan }: AgentInput<'lookup'>): Promise<LookupResult> {
    const { ledger, connection } = this.deps;
    const client = connection.current;
    const result = await lookupScan(scan, {
      findShipmentIdByScan: (value) => ledger.findShipmentIdByScan(value),
      getShipment: (id) => client.getShipment(id),
      listShipments: (query) => client.listShipments(query),
      tracking: (id) => client.tracking(id),
      localTracking: (id) => ledger.trackingFor(id),
      shipmentsWithoutParcels: (limit) => ledger.shipmentsWithoutParcels(limit),
      indexShipment: (s) =>
        ledger.upsertShipment({
          shipmentId: s.id,
          referenceId: s.reference_id ?? null,
          trackingId: s.tracking_id ?? null,
          carrier: s.carrier_name ?? null,
          source: null,
          bookedAt: null,
          data: s,
        }),
    });
    if (result.kind === 'found') {
      // Remember it so the next scan of its tracking id resolves locally.
      const s = result.shipment;
      ledger.upsertShipment({
        shipmentId: s.id,
        referenceId: s.referenceId,
        trackingId: s.trackingId,
        carrier: s.carrierName,
        source: null,
        bookedAt: null,
        data: null,
      });
    }
    return result;
  }

  async reprint(input: AgentInput<'reprint'>): Promise<JobView[]> {
    if (this.pack.isCanceled(input.shipmentId)) {
      const known = this.deps.ledger.getShipment(input.shipmentId);
      throw new CodedError(
        'SHIPMENT_CANCELED',
        `Shipment ${known?.referenceId ?? input.shipmentId} was canceled: its label is void and cannot be reprinted. Book it anew to ship it.`,
      );
    }
    if (input.printer) await this.requireKnownPrinter(input.printer);
    const known = this.deps.ledger.getShipment(input.shipmentId);
    return this.deps.pipeline.reprint({
      shipmentId: input.shipmentId,
      documentType: input.documentType ?? 'label',
      layout: input.layout,
      printer: input.printer,
      copies: input.copies,
      trigger: 'reprint',
      reference: known?.referenceId ?? null,
      trackingId: known?.trackingId ?? null,
    });
  }

  async listJobs(input: AgentInput<'listJobs'>): Promise<JobView[]> {
    const jobs = this.deps.ledger.search({ text: input.search, state: input.state, limit: input.limit }).map(toJobView);
    const canceled = new Map<string, boolean>();
    const isCanceled = (id: string): boolean => {
      if (!canceled.has(id)) canceled.set(id, this.pack.isCanceled(id));
      return canceled.get(id)!;
    };
    const marked = jobs.map((job) => (isCanceled(job.shipmentId) ? { ...job, shipmentCanceled: true } : job));
    // Webhook bookings still waiting for their station rules to be decided lead the history.
    return [...pendingHistory(this.deps.ledger, input), ...marked].slice(0, input.limit ?? 100);
  }

  async retryJob({ id }: AgentInput<'retryJob'>): Promise<JobView> {
    refuseOnPendingBooking(id, 'retried');
    const job = this.deps.ledger.get(id);
    if (job && this.pack.isCanceled(job.shipmentId)) {
      throw new CodedError(
        'SHIPMENT_CANCELED',
        `Shipment ${job.reference ?? job.shipmentId} was canceled: its ${job.documentType} is void and is not printed again.`,
      );
    }
    return this.deps.pipeline.retry(id);
  }

  async cancelJob({ id }: AgentInput<'cancelJob'>): Promise<JobView> {
    refuseOnPendingBooking(id, 'canceled');
    return this.deps.pipeline.cancel(id);
  }

  async listPrinters(_input: AgentInput<'listPrinters'>): Promise<PrinterInfo[]> {
    const { connection, settings, targetFor } = this.deps;
    const discovered = await discoverPrinters({
      service: connection.configured ? { printers: () => connection.current.printers() } : undefined,
    });
    // The configured printers come first, with their readiness, even if discovery missed them.
    const routing = settings.get().routing;
    const configured = printersOf(routing).map((p) => p.uri);
    const byUri = new Map(discovered.map((p) => [p.uri, p]));
    const first = await Promise.all(
      configured.map(async (uri): Promise<PrinterInfo> => {
        const found = byUri.get(uri);
        byUri.delete(uri);
        const held = findPrinter(routing, uri)?.media ?? 'a4';
        const media = isSheetMedia(held) ? 'a4' : 'label';
        // One printer may take both (the demo's folder): it gets labels and A4 documents.
        const roles = [
          ...(uri === routing.labelPrinter || media === 'label' ? ['label' as const] : []),
          ...(uri === routing.documentPrinter || media === 'a4' ? ['document' as const] : []),
        ];
        const { kind } = parsePrinterUri(uri);
        try {
          // With the media it is configured for: a printer that says it lacks it is not ready.
          const readiness = await targetFor(uri).readiness(held);
          const detailMessage = codedOnly(readiness.message);
          const info: PrinterInfo = { uri, name: found?.name ?? uri, kind, media, roles, ready: readiness.ready, detail: readiness.detail };
          return detailMessage ? { ...info, detailMessage } : info;
        } catch (error) {
          // A printer this platform cannot drive (windows: on Linux) is listed, not fatal.
          const info: PrinterInfo = { uri, name: found?.name ?? uri, kind, media, roles, ready: false, detail: (error as Error).message };
          const detailMessage = error instanceof CodedError ? error.agentMessage : null;
          return detailMessage ? { ...info, detailMessage } : info;
        }
      }),
    );
    return [...first, ...byUri.values()];
  }

  async testPrint({ printer }: AgentInput<'testPrint'>): Promise<JobView> {
    await this.requireKnownPrinter(printer);
    const routing = this.deps.settings.get().routing;
    // A test page shows how labels come out on this printer: its media, and its sheet layout on sheets.
    const entry = findPrinter(routing, printer);
    const layout = testPageLayout(routing, printer);
    const [job] = this.deps.pipeline.reprint({
      shipmentId: TEST_PAGE_SHIPMENT,
      documentType: TEST_PAGE_TYPE,
      layout,
      printer,
      trigger: 'manual',
    });
    if (!job) throw new CodedError(AGENT_ERROR_CODES.INTERNAL, 'the test page was not queued');
    this.deps.log.info(`test page queued for ${printer} (${mediaOn(entry, layout)})`);
    return job;
  }

  async getSettings(_input: AgentInput<'getSettings'>): Promise<SettingsView> {
    return this.settingsOps.getSettings();
  }

  async saveSettings(input: AgentInput<'saveSettings'>): Promise<SettingsView> {
    // A bad /regex/ is refused here, with the field named, not discovered at the next
    // booking (printer URIs are checked where every settings write goes: mergeSettings).
    if (input.stationRules) parseStationRules(input.stationRules);
    const before = this.deps.settings.get();
    this.refuseKeyToNewAddress(input.apiUrl, input.apiKey, before.apiUrl);
    const view = this.settingsOps.saveSettings(input);
    const after = this.deps.settings.get();
    const connectionChanged = input.apiKey !== undefined || input.apiUrl !== undefined;
    // Connecting a real account ends a demo started from the first-run screen.
    if (connectionChanged && this.deps.session.active) await this.deps.session.stop();
    if (!this.deps.session.active && this.deps.connection.reconfigure(after.apiUrl, this.deps.apiKeys.read())) {
      await this.checkConnection(false);
      if (connectionChanged) await this.deps.onIntakeChanged();
    } else if (JSON.stringify(before.intake) !== JSON.stringify(after.intake)) await this.deps.onIntakeChanged();
    // In a site the station's rules are the site's routing rules for it: written there at once.
    if (JSON.stringify(before.stationRules) !== JSON.stringify(after.stationRules)) await this.deps.site?.rulesChanged?.();
    this.deps.emitStatus();
    return view;
  }

  async testConnection(input: AgentInput<'testConnection'>): Promise<{ team: string; status: string }> {
    const { connection, apiKeys } = this.deps;
    this.refuseKeyToNewAddress(input.apiUrl, input.apiKey, connection.url);
    const apiKey = input.apiKey ?? apiKeys.read();
    if (!apiKey) throw new CodedError(AGENT_ERROR_CODES.NOT_CONNECTED, plainMessage('agent.enterKeyToTest'));
    const probe = connection.probe(input.apiUrl ?? connection.url, apiKey);
    try {
      const answer = await probe.status();
      return { team: answer.team, status: answer.status };
    } finally {
      await probe.close();
    }
  }

  async setPaused({ paused, printer }: AgentInput<'setPaused'>): Promise<AgentStatus> {
    const { pipeline, settings } = this.deps;
    if (paused) pipeline.pause(printer);
    else pipeline.resume(printer);
    if (printer === undefined) settings.update({ paused });
    this.deps.emitStatus();
    return this.deps.status.snapshot();
  }

  async startDemo(_input: AgentInput<'startDemo'>): Promise<AgentStatus> {
    const { apiUrl, apiKey } = await this.deps.session.start();
    this.deps.log.redact(apiKey);
    this.deps.connection.reconfigure(apiUrl, apiKey);
    await this.checkConnection(false);
    await this.deps.onIntakeChanged();
    return this.deps.status.snapshot();
  }
  // ---- pack and ship ----

  async packDraft(input: AgentInput<'packDraft'>): Promise<PackResult<DraftView>> {
    return this.pack.draft(input);
  }

  async packPresets(_input: AgentInput<'packPresets'>): Promise<BoxPreset[]> {
    return this.pack.presetsList();
  }

  async packUpdate(input: AgentInput<'packUpdate'>): Promise<PackResult<DraftView>> {
    return this.pack.update(input);
  }

  async packRates(input: AgentInput<'packRates'>): Promise<PackResult<RatesView>> {
    return this.pack.rates(input);
  }

  async packServicePoints(input: AgentInput<'packServicePoints'>): Promise<PackResult<ServicePointView[]>> {
    return this.pack.servicePoints(input);
  }

  async packUpload(input: AgentInput<'packUpload'>): Promise<PackResult<{ documentType: string; bytes: number }>> {
    return this.pack.upload(input);
  }

  async packBook(input: AgentInput<'packBook'>): Promise<PackResult<BookedView>> {
    return this.pack.book(input);
  }

  async packCancel(input: AgentInput<'packCancel'>): Promise<PackResult<DraftView>> {
    return this.pack.cancel(input);
  }

  async packHandsFree(input: AgentInput<'packHandsFree'>): Promise<HandsFreeView> {
    return this.handsFree.packHandsFree(input);
  }

  async labelPreview({ jobId }: AgentInput<'labelPreview'>): Promise<LabelPreview | null> {
    return this.previews.preview(jobId);
  }

  async packHandsFreeStatus(input: AgentInput<'packHandsFreeStatus'>): Promise<HandsFreeView> {
    return this.handsFree.packHandsFreeStatus(input);
  }

  async getPackSettings(_input: AgentInput<'getPackSettings'>): Promise<PackSettings> {
    return this.pack.settings.get();
  }

  async savePackSettings(input: AgentInput<'savePackSettings'>): Promise<PackSettings> {
    return this.pack.settings.save(input);
  }

  async listShippingRules(_input: AgentInput<'listShippingRules'>): Promise<ShippingRuleView[]> {
    return this.pack.shippingRules();
  }

  async listCarriers(_input: AgentInput<'listCarriers'>): Promise<CarrierChoice[]> {
    const { carriers, connection } = this.deps;
    if (!carriers) return [];
    // Not read yet (the agent started without a key, or the service was down): one more try.
    if (carriers.list().length === 0 && connection.configured) await carriers.refresh();
    return [...carriers.list()];
  }

  async scaleStatus(input: AgentInput<'scaleStatus'>): Promise<ScaleStatus> {
    return this.deps.scale ? this.deps.scale.scaleStatus(input) : { state: 'offline', kg: null };
  }

  async scaleDetails(input: AgentInput<'scaleDetails'>): Promise<ScaleDetails> {
    if (this.deps.scale) return this.deps.scale.scaleDetails(input);
    return { uri: 'none', state: 'offline', kg: null, unit: null, identity: null, problem: null, garbage: 0 };
  }

  async rotateUiAddress(_input: AgentInput<'rotateUiAddress'>): Promise<{ url: string }> {
    const control = this.deps.uiAddress;
    if (!control) {
      throw new CodedError(
        AGENT_ERROR_CODES.UI_ADDRESS_UNAVAILABLE,
        'This agent serves no web UI, so it has no address to renew (start it with --ui-port N).',
      );
    }
    const url = control.rotate();
    this.deps.log.info('ui: the web UI has a new address (older bookmarks and open tabs need it); npm run agent -- ui-address prints it');
    return { url };
  }

  async saveDiagnostics(_input: AgentInput<'saveDiagnostics'>): Promise<DiagnosticsSaved> {
    const { ledger, connection, status, apiKeys, log } = this.deps;
    const saved = await saveAgentDiagnostics({
      dataDir: ledger.dir,
      status: () => status.snapshot(),
      printers: () => this.listPrinters({}),
      settings: () => this.settingsOps.getSettings(),
      counts: () => ledger.counts(),
      recentRequests: () => connection.recentRequests.list(),
      secrets: [apiKeys.read(), ...(this.deps.secrets?.() ?? [])],
    });
    log.info(`diagnostics: wrote ${saved.path}`);
    return saved;
  }

  async endOfDay({ day }: AgentInput<'endOfDay'>): Promise<EndOfDayReport> {
    return endOfDayReport(day, this.endOfDayDeps());
  }

  async printMissing({ day }: AgentInput<'printMissing'>): Promise<EndOfDayPrintResult> {
    return printMissing(day, { ...this.endOfDayDeps(), pipeline: this.deps.pipeline });
  }

  async printManifests({ day }: AgentInput<'printManifests'>): Promise<EndOfDayPrintResult> {
    return printManifests(day, { ...this.endOfDayDeps(), pipeline: this.deps.pipeline });
  }

  async listConfiguredPrinters(_input: AgentInput<'listConfiguredPrinters'>): Promise<ConfiguredPrinter[]> {
    const routing = this.deps.settings.get().routing;
    const { labelPrinter, documentPrinter } = routing;
    return Promise.all(
      printersOf(routing).map(async ({ uri, name, media }): Promise<ConfiguredPrinter> => {
        const roles: ConfiguredPrinter['roles'][number][] = [];
        if (uri === labelPrinter || (uri !== documentPrinter && !isSheetMedia(media))) roles.push('label');
        if (uri === documentPrinter || (uri !== labelPrinter && isSheetMedia(media))) roles.push('document');
        // The printer's own readiness, as listPrinters gives it, in the same words.
        let readiness: { ready: boolean | null; detail: string | null; message?: AgentMessage | null };
        try {
          readiness = await this.deps.targetFor(uri).readiness(media ?? 'a4');
        } catch (error) {
          readiness = { ready: false, detail: (error as Error).message };
        }
        const printer: ConfiguredPrinter = {
          uri,
          roles,
          paused: this.deps.pipeline.isPaused(uri),
          name,
          media,
          ready: readiness.ready,
          detail: readiness.detail,
        };
        const detailMessage = codedOnly(readiness.message);
        return detailMessage ? { ...printer, detailMessage } : printer;
      }),
    );
  }

  async moveToFallback({ printer, to }: AgentInput<'moveToFallback'>): Promise<JobView[]> {
    if (!this.deps.fallback) throw new CodedError(AGENT_ERROR_CODES.INTERNAL, 'moving labels to a fallback printer is not available here');
    return this.deps.fallback.moveToFallback(printer, to);
  }

  async shipmentJobs({ shipmentId }: AgentInput<'shipmentJobs'>): Promise<JobView[]> {
    return this.deps.ledger.jobsForShipment(shipmentId).map(toJobView);
  }

  async shipmentDocuments({ shipmentId, documentTypes }: AgentInput<'shipmentDocuments'>): Promise<ShipmentDocumentState[]> {
    return documentStates(this.deps.ledger.jobsForShipment(shipmentId), documentTypes);
  }

  async printShipmentDocuments({ shipmentId }: AgentInput<'printShipmentDocuments'>): Promise<ShipmentDocumentsPrint> {
    const client = this.deps.connection.current;
    return printShipmentDocuments(shipmentId, {
      jobsForShipment: (id) => this.deps.ledger.jobsForShipment(id),
      getShipment: (id) => client.getShipment(id),
      pipeline: this.deps.pipeline,
    });
  }

  private endOfDayDeps(): EndOfDayDeps {
    const { connection, ledger, settings, log } = this.deps;
    const client = connection.configured ? connection.current : null;
    return {
      ledger,
      shipments: client && {
        listShipments: (query) => client.listShipments(query),
        getShipment: (id) => client.getShipment(id),
        tracking: (id) => client.tracking(id),
      },
      stationRules: () => settings.get().stationRules,
      logger: { info: log.info, warn: log.warn, error: log.error },
    };
  }

  /**
   * The stored key is only ever sent to the address it was entered for: a new address (a
   * typo, or someone holding the UI token) gets the key only when it is typed in again.
   */
  private refuseKeyToNewAddress(apiUrl: string | undefined, apiKey: string | undefined, current: string): void {
    if (apiUrl !== undefined && apiUrl !== current && apiKey === undefined && this.deps.apiKeys.isSet()) {
      throw new CodedError(
        AGENT_ERROR_CODES.API_KEY_REQUIRED,
        'Enter the API key again for the new service address: the stored key is only sent to the address it was entered for.',
      );
    }
  }

  /**
   * Reprints and test pages go only to printers this station uses or can see. An arbitrary
   * URI from the UI (folder:/anywhere, cups:Q@other-host) would write files anywhere or send
   * addresses off the machine.
   */
  private async requireKnownPrinter(uri: string): Promise<void> {
    // The configured printers need no discovery (which asks CUPS and the service): a
    // reprint or a test page must not wait on a slow service to say what is already known.
    const routing = this.deps.settings.get().routing;
    if (printersOf(routing).some((p) => p.uri === uri)) return;
    const printers = await this.listPrinters({});
    if (!printers.some((p) => p.uri === uri)) {
      throw new CodedError(
        AGENT_ERROR_CODES.UNKNOWN_PRINTER,
        `"${uri}" is not one of this station's printers: choose one from the list, or add it in Settings → Printers and routing.`,
      );
    }
  }
}
