import { isKnownWebhook, type ParsedWebhook, type WebhookEventType, type WebhookOf } from '../envelope';
import type { MessageLedgerPort } from '../../../ports';
import type { HandlerCounters, WebhookHandler, WebhookHandlerTable } from './types';

/**
 * Finds a delivery's handler by its type. A type the agent does not act on is remembered by
 * its message_id (so a redelivery is answered `duplicate`), counted as ignored and dropped
 * (spec, Versioning: new event types may appear at any time).
 */

/** What the receiver calls; it never looks at a delivery's type itself. */
export interface WebhookRouter {
  /** Before the 2xx; false for a redelivery. Throws when nothing could be recorded. */
  remember(webhook: ParsedWebhook): boolean;
  /** Runs `fn`'s remember() calls in one ledger transaction (nested: a savepoint). */
  together<T>(fn: () => T): T;
  /** After the 2xx. */
  process(webhook: ParsedWebhook): void;
  /** Once the receiver listens. */
  start(): void;
  /** After the receiver closed: every handler finishes what it has in hand. */
  close(): Promise<void>;
}

export interface WebhookRouterOptions {
  /** Where a delivery without its own `remember` is recorded (the ledger). */
  readonly ledger: MessageLedgerPort;
  readonly counters: Pick<HandlerCounters, 'ignored'>;
}

/** The row of one type; generic so that the handler and the delivery stay of the same type. */
function handlerFor<T extends WebhookEventType>(table: WebhookHandlerTable, type: T): WebhookHandler<WebhookOf<T>> {
  return table[type];
}

export function webhookRouter(table: WebhookHandlerTable, options: WebhookRouterOptions): WebhookRouter {
  const handlers: ReadonlyArray<WebhookHandler<never>> = Object.values(table);
  const rememberMessage = (webhook: ParsedWebhook): boolean => options.ledger.rememberMessage(webhook.envelope.message_id);
  return {
    remember(webhook) {
      if (!isKnownWebhook(webhook)) return rememberMessage(webhook);
      const handler = handlerFor(table, webhook.type);
      return handler.remember ? handler.remember(webhook) : rememberMessage(webhook);
    },
    together(fn) {
      return options.ledger.transaction ? options.ledger.transaction(fn) : fn();
    },
    process(webhook) {
      if (isKnownWebhook(webhook)) handlerFor(table, webhook.type).process(webhook);
      else options.counters.ignored++;
    },
    start() {
      for (const handler of handlers) handler.start?.();
    },
    async close() {
      for (const handler of handlers) await handler.close?.();
    },
  };
}
