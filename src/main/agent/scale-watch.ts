/**
 * The station's one scale, kept in step with its setting (`--scale`, Settings → Scale): a
 * ScaleMonitor for the configured URI, restarted when the URI changes. It says in the log
 * when the scale first answers, goes offline and comes back; it hands every change of state
 * or weight to `onReading` (the `scale` event) and every change between offline and
 * answering to `onPresence` (the status: state bar, tray).
 */
import type { ScaleDetails, ScaleStatus } from '../../shared/scale';
import { parseScaleUri } from '../devices/scale-uri';
import { ScaleMonitor, type ScaleMonitorOptions } from '../devices/scale-monitor';
import type { Logger } from '../log';

export interface ScaleWatchOptions {
  /** The configured scale URI (`none` or empty: no scale). */
  readonly uri: () => string;
  readonly log: Pick<Logger, 'info' | 'warn'>;
  /** Every change of state or weight. */
  readonly onReading: (status: ScaleStatus) => void;
  /** The scale went offline or came back (and when it is configured or removed). */
  readonly onPresence: () => void;
  /** The scale answered for the first time since its URI was set (the agent prints `scale: URI`). */
  readonly onAnswered?: (uri: string) => void;
  /** Monitor tuning (tests). @default the monitor's */
  readonly monitor?: Omit<ScaleMonitorOptions, 'address'>;
}

const NO_SCALE: ScaleStatus = { state: 'offline', kg: null };

export class ScaleWatch {
  private monitor: ScaleMonitor | null = null;
  private uri = 'none';
  private unsubscribe: (() => void) | null = null;
  private running = false;

  constructor(private readonly options: ScaleWatchOptions) {}

  /** The monitor of the configured scale, for pack and ship (readings, a weight held still); null without a scale. */
  get current(): ScaleMonitor | null {
    return this.monitor;
  }

  /** The URI in use; `none` without a scale. */
  get configured(): string {
    return this.uri;
  }

  status(): ScaleStatus {
    const reading = this.monitor?.reading();
    return reading ? { state: reading.state, kg: reading.kg } : NO_SCALE;
  }

  details(): ScaleDetails {
    const monitor = this.monitor;
    if (!monitor) return { uri: 'none', state: 'offline', kg: null, unit: null, identity: null, command: null, problem: null, garbage: 0 };
    const r = monitor.reading();
    return {
      uri: this.uri,
      state: r.state,
      kg: r.kg,
      unit: r.unit,
      identity: monitor.identity(),
      command: monitor.command(),
      problem: r.problem,
      garbage: monitor.garbage(),
    };
  }

  start(): void {
    this.running = true;
    this.follow(this.options.uri());
  }

  /** The setting may have changed: a new URI stops the old monitor and starts one for it. */
  async reconfigure(): Promise<void> {
    const next = this.options.uri().trim() || 'none';
    if (!this.running || next === this.uri) return;
    await this.stopMonitor();
    // The agent may have stopped meanwhile (its ledger closed): a new monitor now would outlive it.
    if (!this.running) return;
    this.follow(next);
    this.options.onPresence();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.stopMonitor();
  }

  private follow(uri: string): void {
    this.uri = uri.trim() || 'none';
    let address;
    try {
      address = parseScaleUri(this.uri);
    } catch (error) {
      // A hand-edited settings file: every writer checks the URI, so only a file can hold a bad one.
      this.options.log.warn(`scale: ${(error as Error).message} The station runs without a scale until it is set again.`);
      return;
    }
    if (address.kind === 'none') return;
    const monitor = new ScaleMonitor({ ...this.options.monitor, address });
    this.monitor = monitor;
    const { log } = this.options;
    let wasOffline = true;
    let answered = false;
    this.unsubscribe = monitor.subscribe((reading) => {
      if (this.monitor !== monitor) return;
      const isOffline = reading.state === 'offline';
      if (!wasOffline && isOffline) {
        log.warn(`scale: ${this.uri} is offline: ${reading.problem ?? 'it does not answer'}; it is used again as soon as it answers`);
      } else if (wasOffline && !isOffline && answered) {
        log.info(`scale: ${this.uri} is back (${reading.state})`);
      } else if (wasOffline && !isOffline) {
        answered = true;
        const identity = monitor.identity();
        log.info(`scale: ${this.uri} answers${identity ? ` (${identity})` : ''}`);
        this.options.onAnswered?.(this.uri);
      }
      const changed = wasOffline !== isOffline;
      wasOffline = isOffline;
      this.options.onReading({ state: reading.state, kg: reading.kg });
      if (changed) this.options.onPresence();
    });
    monitor.start();
  }

  private async stopMonitor(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    const monitor = this.monitor;
    this.monitor = null;
    await monitor?.stop();
  }
}
