import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { retryDelayMs } from './backoff';
import { buildEnvelope } from './envelope';
import { WebhookConfigError } from './errors';
import { signPayload } from './signature';
import type { DeliveryAttempt, WebhookDispatcherOptions, WebhookEndpoint, WebhookEvent } from './types';

/** Spec, Limits: webhook endpoints per team. */
export const MAX_WEBHOOK_ENDPOINTS = 5;

interface Delivery {
  readonly endpoint: WebhookEndpoint;
  readonly event: WebhookEvent;
  /** Fixed for the delivery's life: a retry keeps its message_id (spec, Configuration 6). */
  readonly messageId: string;
  attempt: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Pushes events to the configured endpoints the way the service does: one delivery per
 * subscribed endpoint, the spec's envelope, signed per endpoint over the exact bytes
 * sent, retried with exponential backoff and jitter until a 2xx comes back in time.
 * Timers are unref'd: pending retries never keep a process alive.
 */
export class WebhookDispatcher {
  private endpoints: readonly WebhookEndpoint[];
  private readonly ackTimeoutMs: number;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;
  private readonly maxAttempts: number;
  private readonly maxLoggedAttempts: number;
  private readonly now: () => Date;
  private readonly onAttempt: ((attempt: DeliveryAttempt) => void) | undefined;
  private readonly agent = new Agent({ keepAliveTimeout: 4_000, connections: 16 });
  private readonly active = new Set<Delivery>();
  private readonly inFlight = new Map<Delivery, { controller: AbortController; done: Promise<void> }>();
  private readonly idleWaiters: Array<() => void> = [];
  private readonly log: DeliveryAttempt[] = [];
  private closed = false;

  constructor(options: WebhookDispatcherOptions = {}) {
    this.endpoints = validateEndpoints(options.endpoints ?? []);
    this.ackTimeoutMs = options.ackTimeoutMs ?? 3_000;
    this.firstRetryMs = options.firstRetryMs ?? 1_000;
    this.maxRetryMs = options.maxRetryMs ?? 60_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 8);
    this.maxLoggedAttempts = options.maxLoggedAttempts ?? 10_000;
    this.now = options.now ?? (() => new Date());
    this.onAttempt = options.onAttempt;
  }

  /** Replaces the endpoints for later events; deliveries already under way keep their endpoint. */
  setEndpoints(endpoints: readonly WebhookEndpoint[]): void {
    this.endpoints = validateEndpoints(endpoints);
  }

  /** Fire and forget: starts one delivery per endpoint subscribed to the event. A no-op after close(). */
  emit(event: WebhookEvent): void {
    if (this.closed) return;
    for (const endpoint of this.endpoints) {
      if (endpoint.subscriptions && !endpoint.subscriptions.includes(event.subscription)) continue;
      const delivery: Delivery = { endpoint, event, messageId: `msg_${randomUUID()}`, attempt: 0, timer: null };
      this.active.add(delivery);
      this.send(delivery);
    }
  }

  /** Every attempt made, oldest first (the last `maxLoggedAttempts`). */
  attempts(): readonly DeliveryAttempt[] {
    return [...this.log];
  }

  /** Resolves once no delivery is in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Cancels pending retries, aborts requests in flight and releases the connections. */
  async close(): Promise<void> {
    this.closed = true;
    for (const delivery of this.active) if (delivery.timer) clearTimeout(delivery.timer);
    const running = [...this.inFlight.values()];
    for (const { controller } of running) controller.abort();
    await Promise.all(running.map(({ done }) => done));
    for (const delivery of [...this.active]) this.finish(delivery);
    await this.agent.destroy();
  }

  private send(delivery: Delivery): void {
    delivery.timer = null;
    const controller = new AbortController();
    const done = this.attempt(delivery, controller).finally(() => this.inFlight.delete(delivery));
    this.inFlight.set(delivery, { controller, done });
  }

  private async attempt(delivery: Delivery, controller: AbortController): Promise<void> {
    delivery.attempt += 1;
    const sentAt = this.now();
    const body = JSON.stringify(buildEnvelope(delivery.messageId, delivery.event, sentAt));
    const signature = signPayload(delivery.endpoint.secret, body, Math.floor(sentAt.getTime() / 1000));
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.ackTimeoutMs);
    timeout.unref();

    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await request(delivery.endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-signature': signature, 'user-agent': 'print-station-sandbox' },
        body,
        dispatcher: this.agent,
        signal: controller.signal,
      });
      status = response.statusCode;
      // The status is the acknowledgement; the body is drained only to free the connection.
      response.body.dump().catch(() => undefined);
      if (status < 200 || status > 299) error = `answered ${status}, not 2xx`;
    } catch (cause) {
      error = timedOut
        ? `no answer within ${this.ackTimeoutMs} ms`
        : this.closed
          ? 'dispatcher closed'
          : cause instanceof Error
            ? cause.message
            : String(cause);
    } finally {
      clearTimeout(timeout);
    }

    this.record({
      url: delivery.endpoint.url,
      messageId: delivery.messageId,
      attempt: delivery.attempt,
      status,
      error,
      at: sentAt.toISOString(),
    });

    if (error === null || this.closed || delivery.attempt >= this.maxAttempts) {
      this.finish(delivery);
      return;
    }
    delivery.timer = setTimeout(() => this.send(delivery), retryDelayMs(delivery.attempt, this.firstRetryMs, this.maxRetryMs));
    delivery.timer.unref();
  }

  private record(attempt: DeliveryAttempt): void {
    this.log.push(attempt);
    if (this.log.length > this.maxLoggedAttempts) this.log.splice(0, this.log.length - this.maxLoggedAttempts);
    this.onAttempt?.(attempt);
  }

  private finish(delivery: Delivery): void {
    if (delivery.timer) clearTimeout(delivery.timer);
    delivery.timer = null;
    this.active.delete(delivery);
    if (this.active.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

function validateEndpoints(endpoints: readonly WebhookEndpoint[]): readonly WebhookEndpoint[] {
  if (endpoints.length > MAX_WEBHOOK_ENDPOINTS) {
    throw new WebhookConfigError(
      'SANDBOX_WEBHOOK_ENDPOINT_LIMIT',
      `${endpoints.length} webhook endpoints given; the service allows at most ${MAX_WEBHOOK_ENDPOINTS}. Remove some.`,
    );
  }
  for (const endpoint of endpoints) {
    let protocol: string;
    try {
      protocol = new URL(endpoint.url).protocol;
    } catch {
      protocol = '';
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new WebhookConfigError(
        'SANDBOX_WEBHOOK_ENDPOINT_INVALID',
        `Webhook URL "${endpoint.url}" is not an http(s) URL: give a full URL such as http://127.0.0.1:8080/webhooks.`,
      );
    }
    if (!endpoint.secret) {
      throw new WebhookConfigError(
        'SANDBOX_WEBHOOK_ENDPOINT_INVALID',
        `Webhook endpoint ${endpoint.url} has no secret: every endpoint needs its own signing secret.`,
      );
    }
  }
  return [...endpoints];
}
