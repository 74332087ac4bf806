/**
 * What a station knows of its site (a site of stations on NATS JetStream, docs/OPERATIONS.md
 * "A site of stations"): every station's heartbeat and the site's latest decisions. The Site
 * tab shows it; `AgentApi.siteStatus` returns it.
 */
import type { ScaleState } from './scale';

export interface SitePrinterView {
  readonly uri: string;
  readonly ready: boolean;
  /** The printer's readiness in words (English; "ready" when it is). */
  readonly words: string;
}

import type { StationRules } from './domain';

/** A station's scale in its presence (src/shared/scale.ts has the states). */
export interface SiteScaleView {
  readonly uri: string;
  readonly state: ScaleState;
  readonly kg: number | null;
}

export interface SiteStationView {
  readonly name: string;
  readonly role: 'station' | 'relay';
  /** A heartbeat within the last 15 s. */
  readonly online: boolean;
  /** ISO time of the last heartbeat. */
  readonly lastSeen: string;
  readonly printers: readonly SitePrinterView[];
  /** Jobs waiting or in flight at that station. */
  readonly queued: number;
  /** `reference`: what a packer reads on the parcel (absent from older stations' heartbeats). */
  readonly lastPrint: { readonly shipmentId: string; readonly reference?: string | null; readonly at: string } | null;
  readonly failures30m: number;
  /** The station's scale and its state, from its heartbeat; absent or null when it has none (or is older than scales). */
  readonly scale?: SiteScaleView | null;
  /** Its station rules as the site holds them (null for a relay, or a station not yet written). */
  readonly rules: StationRules | null;
  /** The station that prints its bookings when it is down. */
  readonly fallback: string | null;
}

export interface SiteDecisionView {
  readonly shipmentId: string;
  readonly referenceId: string | null;
  readonly station: string;
  readonly reason: 'claim' | 'rule' | 'default' | 'fallback';
  /** In words: "claimed by a scan of ORDER-1 at 2026-…". */
  readonly why: string;
  readonly decidedAt: string;
  /** When the deciding scan was made (reason `claim`), else null. */
  readonly claimedAt: string | null;
  /** The station a fallback move took it from (reason `fallback`), else null. */
  readonly movedFrom: string | null;
  readonly takenBy: string | null;
}

export interface SiteStatusView {
  /** False when the agent does not run in a site (no `--site`). */
  readonly enabled: boolean;
  readonly address: string | null;
  /** This station's name in the site. */
  readonly station: string | null;
  readonly connected: boolean;
  /** What protects the link to the site that this station lacks (`credentials`, `tls`); empty when both are there. */
  readonly missingProtection?: ReadonlyArray<'credentials' | 'tls'>;
  readonly stations: readonly SiteStationView[];
  /** The newest decisions the site made, newest first. */
  readonly decisions: readonly SiteDecisionView[];
}
