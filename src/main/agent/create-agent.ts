/**
 * The agent: one composition of the service connection, the ledger, the printer targets,
 * the print pipeline and intake (webhooks and polling), behind the AgentApi facade. The
 * Electron app and the headless agent both build it here, so they behave the same.
 *
 *   intake (webhooks, poller) ─▶ station rules ─▶ pipeline (ledger) ─▶ fetch PDF ─▶ target
 */
import { join } from 'node:path';
import type { AgentApi } from '../../shared/agent-api';
import type { AgentStatus, DraftView } from '../../shared/domain';
import type { Poller } from '../intake/sources/polling/poller';
import { composeIntake, type Intake } from '../intake/compose-intake';
import { FirstStartGate } from '../intake/first-start';
import type { IntakeParts } from '../intake/intake-parts';
import type { IntakeSink } from '../intake/intake-source';
import { StandInWhileLost } from '../intake/stand-in-while-lost';
import { PollingSource, type PollingSourceOptions } from '../intake/sources/polling/polling-source';
import { WebhookSource } from '../intake/sources/webhooks/webhook-source';
import { servicePdfFetcher } from '../api/service-pdf-fetcher';
import { withPdfLimits } from '../printing/pdf-limits-fetcher';
import { sweepSpoolTemp } from '../printing/spool-temp';
import { Ledger } from '../ledger/ledger';
import { PrintPipeline } from '../jobs/pipeline';
import type { Logger } from '../log';
import { loadPdfToPrinter, type TargetDeps } from '../printing/create-target';
import { readinessMinIntervalOf } from '../printing/printer-kinds';
import { printerTargets } from '../printing/printer-targets';
import type { PdfToPrinterModule } from '../printing/windows/windows-target';
import { liveRouting, printersOf, routedPrinterUris } from '../printing/routing';
import { PrinterWatch } from './printer-watch';
import { ScaleWatch, type ScaleWatchOptions } from './scale-watch';
import { createScaleOperations } from './operations/scale';
import { CachedSettingsStore } from './cached-settings';
import { CarrierCache } from './carrier-cache';
import { FallbackWatcher } from './fallback-watcher';
import type { ApiKeyStore } from '../settings/api-key-store';
import type { SettingsStore, StoredSettings } from '../settings/settings-store';
import { createAgentService, type UiAddressControl } from './agent-service';
import { EventHub, type AgentEventListener } from './event-hub';
import { describeCancel } from '../jobs/job-log';
import { pipelineObserver } from './pipeline-observer';
import { ServiceConnection, type ServiceConnectionOptions } from '../api/service-connection';
import { ProvidedSession, type DemoConnectionProvider } from '../api/session-connection';
import { StatusTracker } from './status-tracker';
import { routeTestPagesAsLabels, withTestPages } from './test-page';
import type { SiteStation } from '../site/station/site-station';
import { StationActivity } from '../site/station/station-activity';
import type { StationRules } from '../../shared/domain';

/** In a site, a station's own intake (polling while the site is lost) prints nothing by itself. */
const SITE_DECIDES: StationRules = { mode: 'none', sources: [], carriers: [], matches: [] };

export interface AgentOptions {
  /** Where the ledger lives (`ledger.sqlite`). */
  readonly dataDir: string;
  readonly settings: SettingsStore;
  readonly apiKeys: ApiKeyStore;
  readonly log: Logger;
  /** Receive webhooks; null = webhooks off (polling only). @default null */
  readonly webhook?: { readonly port: number; readonly host?: string; readonly secrets: readonly string[] } | null;
  /** Client tuning (timeouts, retries). @default the client's defaults */
  readonly client?: ServiceConnectionOptions['client'];
  /** Pipeline tuning, for tests and benchmarks. */
  readonly pipeline?: {
    readonly fetchConcurrency?: number;
    readonly maxAttempts?: number;
    readonly retryBaseMs?: number;
    readonly retryMaxMs?: number;
    readonly followIntervalMs?: number;
    /** See PrintPipelineOptions.batchMax. @default 25 (batching on) */
    readonly batchMax?: number;
    /** See PrintPipelineOptions.batchMaxBytes. @default 8 MiB */
    readonly batchMaxBytes?: number;
    /** See PrintPipelineOptions.ledgerRetryBaseMs (a ledger that cannot be written is tried again after it). @default 1000 */
    readonly ledgerRetryBaseMs?: number;
    /** @default 30000 */
    readonly ledgerRetryMaxMs?: number;
  };
  /** Extra target dependencies (CUPS env, a fake pdf-to-printer in tests). */
  readonly targets?: Omit<TargetDeps, 'service'>;
  /** Fail start() when the service rejects the key (the CLI does; the desktop app shows it). @default false */
  readonly requireValidKey?: boolean;
  /** The connection AgentApi.startDemo switches to (injected by the demo's entry points). @default none: startDemo refuses */
  readonly demo?: DemoConnectionProvider;
  /** How often lines waiting on a down printer are looked at for a fallback (FallbackWatcher). @default 2000 */
  readonly fallbackIntervalMs?: number;
  /**
   * Take bookings from a site of stations (`--site`) instead of this station's own webhooks
   * and polling: src/main/site/. @default null (no site)
   */
  readonly site?: AgentSiteOptions | null;
  /** The headless web UI's address, for rotateUiAddress (src/main/headless.ts). @default none: the operation refuses */
  readonly uiAddress?: UiAddressControl;
  /** How often the configured printers' readiness is asked for the tray and state bar (PrinterWatch). @default 4000 */
  readonly printerWatchIntervalMs?: number;
  /**
   * Print what was booked this many minutes before the station's first start, once for its
   * life (`--catch-up`; src/main/intake/first-start.ts). @default none: only what is booked after the first start prints by itself
   */
  readonly catchUpMinutes?: number | null;
  /** The scale answered for the first time (the headless agent prints `scale: URI`). @default none */
  readonly onScaleAnswered?: (uri: string) => void;
  /** Scale monitor tuning (tests). @default the monitor's */
  readonly scaleMonitor?: ScaleWatchOptions['monitor'];
  /** A draft was opened at the packing table (the demo's simulated scale puts its parcels on). @default none */
  readonly onDraftOpened?: (draft: DraftView) => void;
}

export interface AgentSiteOptions {
  /** nats:// addresses of the site's server(s). */
  readonly servers: readonly string[];
  /** This station's name in the site. */
  readonly station: string;
  /** @default 30 */
  readonly claimMinutes?: number;
  /** @default none */
  readonly fallbackStation?: string | null;
  /** @default none */
  readonly credsFile?: string | null;
  /** The CA of the site server's TLS certificate (`--site-ca FILE`). @default the system's CAs */
  readonly caFile?: string | null;
  /** How long the site may be out of reach before the station polls by itself (slowly). @default 10000 */
  readonly lostAfterMs?: number;
  /** Seconds between the station's own polls while the site is lost. @default 60 */
  readonly lostPollSeconds?: number;
  /** A booking arrived from the site, `lagMs` after its decision (metrics). @default none */
  readonly onDelivered?: (lagMs: number) => void;
  /** Something from the site did not fit its format and was set aside (metrics). @default none */
  readonly onRejected?: (kind: string) => void;
}

export interface Agent {
  readonly api: AgentApi;
  readonly subscribe: (listener: AgentEventListener) => () => void;
  /** Exposed for tests and benchmarks; the UI goes through `api`. */
  readonly pipeline: PrintPipeline;
  readonly ledger: Ledger;
  readonly poller: Poller | null;
  readonly webhookUrl: string | null;
  /** The site this station takes bookings from; null without `--site`. */
  readonly site: SiteStation | null;
  /** Queue, last print, failures and printer readiness (the site's heartbeat and /metrics). */
  readonly activity: StationActivity;
  /** The station's scale (`--scale`, Settings → Scale): its monitor, for pack and ship and /metrics. */
  readonly scale: ScaleWatch;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function createAgent(options: AgentOptions): Promise<Agent> {
  const { apiKeys, log } = options;
  // Read on every booking and job (rules, routing, copies, media): cached, not re-read from the file each time.
  const settings: SettingsStore = new CachedSettingsStore(options.settings);
  const hub = new EventHub();
  const connection = new ServiceConnection({ apiUrl: settings.get().apiUrl, apiKey: apiKeys.read(), client: options.client });
  const ledger = Ledger.open({ path: join(options.dataDir, 'ledger.sqlite') });
  // Labels (names, addresses) a crash left in the temp dir while spooling: their jobs resume from the ledger.
  const swept = await sweepSpoolTemp().catch(() => 0);
  if (swept > 0) log.info(`removed ${swept} label temp file(s) left by an earlier run`);
  const routing = (): StoredSettings['routing'] => settings.get().routing;

  // Only the service-backed parts of a target need the live connection; the rest is fixed.
  const servicePort = {
    printToPrinter: (req: Parameters<ServiceConnection['current']['printToPrinter']>[0]) => connection.current.printToPrinter(req),
    printers: () => connection.current.printers(),
  };
  const pdfToPrinter: PdfToPrinterModule | undefined =
    process.platform === 'win32' ? await loadPdfToPrinter() : options.targets?.pdfToPrinter;
  const targetFor = printerTargets({ log: (line) => options.log.warn(line), ...options.targets, pdfToPrinter, service: servicePort });

  const session = new ProvidedSession(options.demo);
  const activity = new StationActivity({
    counts: () => ledger.jobs.counts(),
    printers: () => routedPrinterUris(routing()),
    targetFor,
    scale: () => scaleNow(),
  });
  // The configured printers' own readiness, shown by the tray and the state bar as it changes.
  const printerWatch = new PrinterWatch({
    printers: () => printersOf(routing()).map((p) => ({ uri: p.uri, media: p.media ?? 'a4' })),
    readiness: (uri, media) => targetFor(uri).readiness(media),
    onChange: () => hub.emit({ type: 'status', status: status.snapshot() }),
    onReady: (uri) => pipeline.printerReady(uri),
    // Each kind's own least interval (a Windows printer: every 15 s, asking is a PowerShell run).
    minGapMs: readinessMinIntervalOf,
    intervalMs: options.printerWatchIntervalMs,
  });
  // The scale follows its setting; the state bar and tray learn when it goes offline and returns.
  const scale = new ScaleWatch({
    uri: () => settings.get().scale ?? 'none',
    log,
    onReading: (reading) => hub.emit({ type: 'scale', scale: reading }),
    onPresence: () => hub.emit({ type: 'status', status: status.snapshot() }),
    onAnswered: options.onScaleAnswered,
    monitor: options.scaleMonitor,
  });
  settings.onChange(() => void scale.reconfigure());
  function scaleNow(): AgentStatus['scale'] | null {
    return scale.current ? { uri: scale.configured, ...scale.status() } : null;
  }
  const status = new StatusTracker(
    () => ledger.jobs.counts(),
    () => session.active?.environment ?? settings.get().environment,
    () => pipeline.isPaused(),
    {
      printerProblems: () => printerWatch.problems(),
      scale: scaleNow,
    },
  );
  const fetcher = servicePdfFetcher({
    printing: () => connection.printing,
    client: () => connection.current,
    onReached: () => status.serviceReached(),
    onFailed: (error) => status.serviceFailed(error),
  });

  const carriers = new CarrierCache({
    source: () => connection.current,
    onError: (error) => log.warn(`carriers: GET /carriers failed (${error.message}); routing rules match carrier words as given`),
  });
  const routes = liveRouting(routing, carriers.key);
  const pipeline: PrintPipeline = new PrintPipeline({
    ledger,
    // Every PDF measured against its layout's limits before any kind of printer gets it.
    fetcher: withTestPages(withPdfLimits(fetcher), routing),
    targetFor,
    ...routes,
    route: routeTestPagesAsLabels(routes.route),
    ...options.pipeline,
    ...pipelineObserver({ log, status, activity, hub }),
  });

  const shipments = {
    listShipments: (query: Parameters<ServiceConnection['current']['listShipments']>[0]) => connection.current.listShipments(query),
    getShipment: (id: string) => connection.current.getShipment(id),
    // The spec's list has no booking time: the poller reads it from the ORDERED event.
    tracking: (id: string) => connection.current.tracking(id),
  };
  const stationRules = () => settings.get().stationRules;
  // Only what is booked after this station's first start prints by itself (first-start.ts).
  const firstStart = new FirstStartGate({
    store: ledger.intake,
    sink: { submitBooking: (notice) => pipeline.submitBooking(notice), together: (fn) => pipeline.together(fn) },
    isNew: () => ledger.jobs.totalJobs() === 0,
    catchUpMinutes: options.catchUpMinutes,
    logger: { info: log.info, warn: log.warn, error: log.error },
    // Compared with the service's booked_at: the service's clock, not this PC's.
    now: () => connection.clock.now(),
  });
  const parts: IntakeParts = {
    ledger: ledger.intake,
    shipments,
    stationRules,
    logger: { info: log.info, warn: log.warn, error: log.error },
  };
  // Read at each start of polling: a provided session (the demo) polls at its own interval.
  const polling =
    (overrides: Partial<PollingSourceOptions> = {}) =>
    (): PollingSourceOptions | null =>
      connection.configured
        ? {
            // A provided session (the demo) may have no webhook endpoint its service could reach.
            intervalSeconds: session.active?.pollIntervalSeconds ?? settings.get().intake.pollIntervalSeconds,
            // One high-water mark per service address: a provided session must not move the mark of the
            // real account past bookings it never looked at.
            cursorName: `poll:${connection.url}`,
            // A fresh station's first poll looks back over the hour it offers (first-start.ts); a ledger
            // that replaced a damaged one is fresh too, and otherwise starts at "now".
            initialLookbackMinutes: firstStart.lookbackMinutes() ?? (ledger.recovered ? 0 : undefined),
            ...overrides,
          }
        : null;
  // Every source hands its bookings to the pipeline; the rest of what they learn goes to the agent.
  const sink: IntakeSink = {
    submitBooking: (notice) => firstStart.submitBooking(notice),
    together: (fn) => pipeline.together(fn),
    ledgerFailed: (error) => pipeline.ledgerFailed(error),
    canceledAtService: (shipmentId, how) => shipmentCanceled(shipmentId, how),
    tracking: (shipmentId, event) => hub.emit({ type: 'tracking', shipmentId, event }),
    alert: (alert) =>
      hub.emit({ type: 'alert', shipmentId: alert.shipmentId, title: alert.event.replace(/_/g, ' '), message: alert.message }),
  };
  let intake: Intake | null = null;

  // Canceled at the service (the web application, another station): nothing of it prints here.
  const shipmentCanceled = (shipmentId: string, how: string): void => {
    const { canceled, busy, atPrinter, withdrawn } = pipeline.cancelShipment(shipmentId, 'service');
    if (canceled.length + busy.length + atPrinter.length === 0) return;
    // A label still held by the spooler is withdrawn there first: the line says what is left at the printer.
    void withdrawn.then((w) =>
      log.info(
        `shipment ${shipmentId} canceled at the service (${how}): ` +
          describeCancel({ waiting: canceled.length, withdrawn: w.withdrawn.length, atPrinter: w.atPrinter.length }),
      ),
    );
  };

  const fallback = new FallbackWatcher({
    pipeline,
    routing,
    intervalMs: options.fallbackIntervalMs,
    onOffer: (offer) => {
      log.warn(
        `label printer ${offer.printer} stopped (${offer.advice}); its waiting labels can go to ${offer.fallback ?? 'an A4 printer'} as sheets`,
      );
      hub.emit({ type: 'fallback', ...offer });
    },
    onStopped: (stopped) =>
      log.warn(`label printer ${stopped.printer} stopped (${stopped.advice}); its waiting labels print once it is ready again`),
    onMoved: (printer, to, jobs) => {
      log.warn(`${jobs.length} waiting label(s) of stopped printer ${printer} moved to ${to} as sheets`);
      hub.emit({ type: 'fallbackMoved', printer, to, jobs });
    },
    onError: (error) => log.error(`fallback: ${error.message}`),
  });

  // Loaded only for a station in a site: the NATS client stays out of a plain station's memory.
  // The site is this station's one source; while it is out of reach this station polls,
  // slowly and printing nothing by itself (scans keep finding shipments).
  let siteSource: StandInWhileLost | null = null;
  const site = options.site
    ? new (await import('../site/station/site-station')).SiteStation({
        ...options.site,
        log,
        stationRules,
        // Rules edited for this station at another station's Settings.
        onRules: (rules) => settings.update({ stationRules: rules }),
        heartbeat: () => activity.heartbeat(),
        onLost: (lost) => void siteSource?.lost(lost),
      })
    : null;
  if (site) {
    siteSource = new StandInWhileLost(
      site,
      new PollingSource(parts, polling({ intervalSeconds: options.site?.lostPollSeconds ?? 60, stationRules: SITE_DECIDES })),
    );
  }

  const service = createAgentService({
    site,
    fallback,
    carriers,
    connection,
    ledger,
    pipeline,
    settings,
    apiKeys,
    status,
    targetFor,
    session,
    emitStatus: () => hub.emit({ type: 'status', status: status.snapshot() }),
    onIntakeChanged: async () => {
      await intake?.refresh();
    },
    log,
    secrets: () => options.webhook?.secrets ?? [],
    uiAddress: options.uiAddress,
    scale: createScaleOperations(scale),
    scaleMonitor: () => scale.current,
    firstStart,
    onDraftOpened: options.onDraftOpened,
  });

  const agent: Agent = {
    api: service.api,
    subscribe: hub.subscribe,
    pipeline,
    ledger,
    get poller() {
      const polls = siteSource ? (siteSource.standIn as PollingSource) : intake?.find(PollingSource);
      return polls?.poller ?? null;
    },
    get webhookUrl() {
      return intake?.find(WebhookSource)?.url ?? null;
    },
    site,
    activity,
    scale,
    async start() {
      await service.checkConnection(options.requireValidKey ?? false);
      if (settings.get().paused) pipeline.pause();
      // Before intake: the first bookings' carriers are matched against the service's list.
      if (connection.configured) await carriers.refresh();
      await pipeline.start();
      firstStart.start();
      intake = siteSource
        ? composeIntake(parts, [siteSource])
        : composeIntake({ ...parts, webhook: settings.get().intake.webhooksEnabled ? options.webhook : null, polling: polling() });
      await intake.start(sink);
      fallback.start();
      printerWatch.start();
      scale.start();
    },
    async stop() {
      service.handsFree.disarm();
      await scale.stop();
      await intake?.stop();
      await printerWatch.stop();
      await fallback.stop();
      await pipeline.stop();
      await session.stop();
      await connection.close();
      ledger.close();
    },
  };
  return agent;
}
