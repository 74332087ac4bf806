/**
 * What the agent's operations are built from (create-agent.ts hands these over). Each group
 * in this folder takes only the part it uses, as a Pick of OperationDeps, so its signature
 * says what it touches.
 */
import type { FirstStartGate } from '../../intake/first-start';
import type { DraftView, StationRules } from '../../../shared/domain';
import type { SiteStatusView } from '../../../shared/site';
import type { Ledger } from '../../ledger/ledger';
import type { PrintPipeline } from '../../jobs/pipeline';
import type { Logger } from '../../log';
import type { PrinterTarget } from '../../printing/target';
import type { ApiKeyStore } from '../../settings/api-key-store';
import type { SettingsStore } from '../../settings/settings-store';
import type { CarrierCache } from '../carrier-cache';
import type { FallbackWatcher } from '../fallback-watcher';
import type { ServiceConnection } from '../../api/service-connection';
import type { ProvidedSession } from '../../api/session-connection';
import type { StatusTracker } from '../status-tracker';
import type { OperationGroup } from './groups';
import type { HandsFreeScale } from '../../pack/hands-free';

export interface OperationDeps {
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
  /** The scale's operations (operations/scale.ts). @default none: the station reads as having no scale */
  readonly scale?: OperationGroup<'scale'>;
  /** A draft was opened at the packing table: packDraft answered a shipment still to book. @default none */
  readonly onDraftOpened?: (draft: DraftView) => void;
  /** The scale's monitor now, for booking on a stable weight (pack/hands-free.ts). @default none: hands-free reads off */
  readonly scaleMonitor?: () => HandsFreeScale | null;
  /** The site this station belongs to (`--site`): scans claim, siteStatus reads it. @default none */
  readonly site?: SiteControl | null;
  /** The headless web UI's address (rotateUiAddress). @default none: the operation refuses (the desktop app has no such address) */
  readonly uiAddress?: UiAddressControl;
  /** What a fresh station holds back from before its first start (operations/catch-up.ts). @default none: nothing offered */
  readonly firstStart?: Pick<FirstStartGate, 'offer' | 'printOffered'>;
}

/** What the operations ask of the site this station belongs to (src/main/site/site-station.ts). */
export interface SiteControl {
  claim(code: string): Promise<void>;
  status(): Promise<SiteStatusView>;
  rulesChanged?(): Promise<void>;
  saveRules?(station: string, rules: StationRules): Promise<void>;
}

/** What rotateUiAddress asks of the web UI that serves this agent (src/main/headless.ts). */
export interface UiAddressControl {
  /** A new kept token, in force at once; returns the new full `ui:` address. */
  rotate(): string;
  /**
   * False when the address changes at the next start (the demo starts fresh, a UI port chosen
   * at random, a token that could not be kept): the UI then gives no "bookmark it" advice. @default true
   */
  readonly lasts?: boolean;
}
