/**
 * An AgentClient for renderer tests: the operations a test gives, recorded; any other
 * operation fails the test loudly instead of answering something made up.
 */
import type { AgentClient, AgentEvent } from '../../src/shared/agent-api';
import type { AgentStatus, JobView, PartyView, PrinterInfo, SettingsView, ShipmentView } from '../../src/shared/domain';
import type { SiteStatusView } from '../../src/shared/site';
import { App } from '../../src/renderer/app';
import { UiContext } from '../../src/renderer/context';

export type FakeClient = AgentClient & {
  readonly calls: Array<{ op: string; input: unknown }>;
  /** The languages the window told the desktop app (setUiLanguage), in order. */
  readonly uiLanguages: string[];
  emit(event: AgentEvent): void;
};

export function fakeClient(ops: Partial<AgentClient>): FakeClient {
  const calls: Array<{ op: string; input: unknown }> = [];
  const listeners = new Set<(event: AgentEvent) => void>();
  const uiLanguages: string[] = [];
  const base = {
    calls,
    uiLanguages,
    // As the preload: one way, no answer.
    setUiLanguage: (language: string) => void uiLanguages.push(language),
    emit: (event: AgentEvent) => listeners.forEach((l) => l(event)),
    onEvent: (listener: (event: AgentEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return new Proxy(base, {
    get(target, prop: string) {
      if (prop in target) return target[prop as keyof typeof target];
      const op = ops[prop as keyof AgentClient] as ((input: unknown) => unknown) | undefined;
      return async (input: unknown) => {
        calls.push({ op: prop, input });
        if (!op) throw new Error(`the test did not expect the operation ${prop}`);
        return op(input);
      };
    },
  }) as unknown as FakeClient;
}

export function context(client: AgentClient): UiContext {
  return new UiContext(
    client,
    () => undefined,
    () => undefined,
  );
}

let next = 0;
export function job(overrides: Partial<JobView> = {}): JobView {
  next += 1;
  return {
    id: `job-${next}`,
    shipmentId: `ship-${next}`,
    reference: `ORDER-${next}`,
    trackingId: `0037${String(next).padStart(10, '0')}`,
    documentType: 'label',
    layout: 'printer',
    target: 'folder:/srv/prints',
    copies: 1,
    trigger: 'webhook',
    state: 'completed',
    reason: null,
    requestId: null,
    attempts: 1,
    spoolerJobId: null,
    createdAt: '2026-11-24T06:00:00.000Z',
    updatedAt: '2026-11-24T06:00:01.000Z',
    ...overrides,
  };
}

export function printer(overrides: Partial<PrinterInfo> = {}): PrinterInfo {
  return { uri: 'cups:Labels', name: 'Labels', kind: 'cups', media: 'label', ready: true, detail: null, ...overrides };
}

/** A party with nothing known. */
export const NO_PARTY: PartyView = { name: null, contactName: null, addressLine: null, postalCode: null, city: null, countryCode: null };

/** A booked shipment ORDER-1 (shp_1, PostNord) as a lookup returns it: its label only, no tracking yet. */
export function shipment(overrides: Partial<ShipmentView> = {}): ShipmentView {
  return {
    id: 'shp_1',
    referenceId: 'ORDER-1',
    status: 'BOOKED',
    trackingId: '0037',
    carrierName: 'PostNord',
    productName: null,
    sender: NO_PARTY,
    receiver: NO_PARTY,
    senderReference: null,
    receiverReference: null,
    availableDocuments: ['label'],
    tracking: [],
    ...overrides,
  };
}

export function settings(overrides: Partial<SettingsView['routing']> = {}): SettingsView {
  return {
    environment: 'sandbox',
    apiUrl: 'https://sandbox.example/external/v1',
    apiKeySet: true,
    routing: {
      labelPrinter: 'cups:Labels',
      documentPrinter: 'cups:Office',
      labelPrinterMedia: 'label',
      sheetLayout: 'a4',
      autoPrint: ['label'],
      copies: 1,
      ...overrides,
    },
    intake: { webhooksEnabled: true, pollIntervalSeconds: 15 },
    stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
    paused: false,
  };
}

/** Lets pending promise callbacks (the fake's answers) run. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** An agent that is connected and idle, as the status bar shows it. */
export const IDLE_STATUS: AgentStatus = {
  team: 'Team',
  environment: 'sandbox',
  state: 'ok',
  paused: false,
  lastPrintAt: null,
  lastError: null,
  queued: 0,
  failed: 0,
};

/** What siteStatus says on a station started without `--site`. */
export const LONE_STATION: SiteStatusView = { enabled: false, address: null, station: null, connected: false, stations: [], decisions: [] };

/** The whole window on a fake agent that answers what start-up asks (plus `ops`), mounted in the document. */
export async function startApp(ops: Partial<AgentClient> = {}): Promise<{ root: HTMLElement; client: FakeClient }> {
  const root = document.createElement('div');
  document.body.append(root);
  const client = fakeClient({
    getStatus: async () => IDLE_STATUS,
    getSettings: async () => settings(),
    listJobs: async () => [],
    listPrinters: async () => [],
    siteStatus: async () => LONE_STATION,
    ...ops,
  });
  new App(root, client).start();
  await settle();
  return { root, client };
}
