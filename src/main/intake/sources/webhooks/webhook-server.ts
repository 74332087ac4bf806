import type { MessageLedgerPort } from '../../ports';
import { silentLogger } from '../../ports';
import {
  acceptedSecrets,
  newReceiverCounters,
  startWebhookReceiver,
  type ReceiverCounters,
  type WebhookReceiverOptions,
} from './webhook-receiver';
import { createWebhookHandlers, newHandlerCounters, webhookRouter, type HandlerCounters, type WebhookHandlersOptions } from './handlers';

/**
 * The webhook server: the receiver (webhook-receiver.ts: HTTP, limits, signature, dedup,
 * durable acknowledgement) with the handler table (handlers/: one handler per event
 * type) behind it, sharing one set of counters.
 */

export interface WebhookServerOptions extends WebhookReceiverOptions, WebhookHandlersOptions {
  /**
   * Dedup and tracking store (the ledger); its `upsertShipment`, when present, indexes bookings
   * for scans, and its pending-booking methods keep each booking from before the 2xx until decided.
   */
  readonly ledger: MessageLedgerPort & WebhookHandlersOptions['ledger'];
}

export { WEBHOOK_SERVER_LIMITS } from './webhook-receiver';

export interface WebhookCounters extends ReceiverCounters, HandlerCounters {}

export interface WebhookServer {
  readonly url: string;
  readonly port: number;
  readonly counters: Readonly<WebhookCounters>;
  /** Stops accepting, releases held bookings and waits for processing to finish. */
  close(): Promise<void>;
}

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  acceptedSecrets(options.secrets);
  const counters: WebhookCounters = { ...newReceiverCounters(), ...newHandlerCounters() };
  const context = { counters, logger: options.logger ?? silentLogger, now: options.now ?? Date.now };
  const router = webhookRouter(createWebhookHandlers(options, context), { ledger: options.ledger, counters });
  const receiver = await startWebhookReceiver(options, router, counters);
  router.start();

  return {
    url: receiver.url,
    port: receiver.port,
    counters,
    async close() {
      await receiver.close();
      await router.close();
    },
  };
}
