import type { StationRulesSource } from '../../ports';

/** The polling source's options (IntakeParts.polling). */
export interface PollingSourceOptions {
  /** Seconds between polls; 0 = no polling, one reconciling poll at start (webhooks only). */
  readonly intervalSeconds: number;
  /** See PollerOptions.busyIntervalSeconds. @default the poller's */
  readonly busyIntervalSeconds?: number;
  /** The persisted high-water mark's name: one per service address. */
  readonly cursorName: string;
  /** See PollerOptions.maxBackoffSeconds. @default the poller's */
  readonly maxBackoffSeconds?: number;
  /** See PollerOptions.initialLookbackMinutes. @default the poller's */
  readonly initialLookbackMinutes?: number;
  /** Rules for this source's bookings instead of the parts' (a station in a site prints nothing by itself). @default the parts' */
  readonly stationRules?: StationRulesSource;
}
