import type { IntakeStore } from '../ledger/intake-store';
import type { IntakeSource } from './intake-source';
import type { IntakeLogger, ShipmentSourcePort, StationRulesSource } from './ports';
import type { PollingSourceOptions } from './sources/polling/polling-options';
import type { WebhookSourceOptions } from './sources/webhooks/webhook-options';

/** What the sources of one agent or relay share, and each source's own options (null: off). */
export interface IntakeParts {
  /** Message ids, bookings waiting for a decision, poll marks, the shipment index (the ledger's intake store). */
  readonly ledger: IntakeStore;
  /** The service, as far as intake reads it. */
  readonly shipments: ShipmentSourcePort;
  /** Which bookings print here; a function so a settings change applies to the next booking. */
  readonly stationRules: StationRulesSource;
  readonly logger: IntakeLogger;
  /** Receive the service's webhooks. @default null (off) */
  readonly webhook?: WebhookSourceOptions | null;
  /** Poll the service; read at each start and refresh, null = off for now. @default off */
  readonly polling?: (() => PollingSourceOptions | null) | null;
}

/** Builds one kind of source from the parts, or null when the parts leave it off. */
export type IntakeSourceFactory = (parts: IntakeParts) => IntakeSource | null;
