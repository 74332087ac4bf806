import type { IntakeParts } from '../../intake-parts';
import type { IntakeSink, IntakeSource } from '../../intake-source';
import { Poller } from './poller';
import type { PollingSourceOptions } from './polling-options';

export type { PollingSourceOptions } from './polling-options';

/**
 * GET /shipments polling (poller.ts) as an intake source. Its options are read at each
 * start, so refresh() (a new interval, another account) is a stop and a start.
 */
export class PollingSource implements IntakeSource {
  private current: Poller | null = null;
  private sink: IntakeSink | null = null;

  constructor(
    private readonly parts: IntakeParts,
    private readonly options: () => PollingSourceOptions | null,
  ) {}

  /** The poller while started (null when its options said off). */
  get poller(): Poller | null {
    return this.current;
  }

  async start(sink: IntakeSink): Promise<void> {
    this.sink = sink;
    const options = this.options();
    if (!options) return;
    const { ledger, shipments, logger } = this.parts;
    const poller = new Poller({
      shipments,
      cursors: ledger,
      sink,
      stationRules: options.stationRules ?? this.parts.stationRules,
      onCanceled: sink.canceledAtService ? (shipmentId) => sink.canceledAtService!(shipmentId, 'a poll') : undefined,
      // A booking the ledger could not take (disk full): the sink parks until it can, told once.
      onLedgerFailure: sink.ledgerFailed ? (error) => sink.ledgerFailed!(error) : undefined,
      index: ledger,
      intervalSeconds: Math.max(options.intervalSeconds, 1),
      busyIntervalSeconds: options.busyIntervalSeconds,
      cursorName: options.cursorName,
      maxBackoffSeconds: options.maxBackoffSeconds,
      logger,
      initialLookbackMinutes: options.initialLookbackMinutes,
    });
    // Kept in both cases so stop() waits for a poll in flight before the ledger closes.
    this.current = poller;
    if (options.intervalSeconds > 0) {
      poller.start();
    } else {
      // Webhooks only: still reconcile once, since deliveries made while the agent was down
      // are not guaranteed to arrive (spec, Events 5).
      void poller.pollOnce();
    }
  }

  async refresh(): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    await this.stop();
    await this.start(sink);
  }

  async stop(): Promise<void> {
    await this.current?.stop();
    this.current = null;
    this.sink = null;
  }
}

export const pollingSource = (parts: IntakeParts): PollingSource | null => (parts.polling ? new PollingSource(parts, parts.polling) : null);
