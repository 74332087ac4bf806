import type { IntakeParts } from '../../intake-parts';
import type { IntakeSink, IntakeSource } from '../../intake-source';
import { startWebhookServer, type WebhookServer } from './webhook-server';
import type { WebhookSourceOptions } from './webhook-options';

export type { WebhookSourceOptions } from './webhook-options';

/** The service's signed webhooks (webhook-server.ts) as an intake source. */
export class WebhookSource implements IntakeSource {
  private server: WebhookServer | null = null;

  constructor(
    private readonly parts: IntakeParts,
    private readonly options: WebhookSourceOptions,
  ) {}

  /** Where the service delivers, once started. */
  get url(): string | null {
    return this.server?.url ?? null;
  }

  async start(sink: IntakeSink): Promise<void> {
    const { ledger, shipments, stationRules, logger } = this.parts;
    this.server = await startWebhookServer({
      host: this.options.host,
      port: this.options.port,
      secrets: this.options.secrets,
      ledger,
      sink,
      stationRules,
      shipments,
      logger,
      // A delivery the ledger could not take (answered 503): the sink parks until it can.
      onLedgerFailure: sink.ledgerFailed ? (error) => sink.ledgerFailed!(error) : undefined,
      onTracking: sink.tracking || sink.canceledAtService ? (shipmentId, event) => tracked(sink, shipmentId, event) : undefined,
      onAlert: sink.alert ? (alert) => sink.alert!(alert) : undefined,
    });
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = null;
  }
}

function tracked(sink: IntakeSink, shipmentId: string, event: Parameters<NonNullable<IntakeSink['tracking']>>[1]): void {
  sink.tracking?.(shipmentId, event);
  if (event.status.toUpperCase() === 'CANCELED') sink.canceledAtService?.(shipmentId, 'a CANCELED tracking event');
}

export const webhookSource = (parts: IntakeParts): WebhookSource | null => (parts.webhook ? new WebhookSource(parts, parts.webhook) : null);
