/**
 * Keeps one scale's reading current: opens the device the URI names, asks it for a weight
 * over and over (or reads its frames), and publishes a reading on every change. It never
 * gives up: a scale that cannot be opened, is unplugged or falls silent reads `offline` and
 * is opened again with backoff until it answers, without a restart.
 *
 * Honest weight: a reading is `stable` only when the scale says so; `motion`, `under`, `over`
 * and `zero` are states, never a weight to use; a line that is not the protocol's is counted
 * and dropped. Pack and ship asks `stableWeight(heldMs)` / `whenStable(heldMs)` for a weight
 * that has held still long enough to book on.
 */
import { SCALE_ERROR_CODES, type ScaleError } from './errors';
import { ReopenBackoff } from './reopen-backoff';
import { openScaleDevice } from './open-scale-device';
import type { ScaleDevice, ScaleOpener } from './scale-device';
import { sampleReading, type ScaleReading } from './scale-reading';
import { formatScaleUri, type ScaleAddress } from './scale-uri';

export interface ScaleMonitorOptions {
  /** The scale to follow (not `none`). */
  readonly address: Exclude<ScaleAddress, { kind: 'none' }>;
  /** @default openScaleDevice (serialport or node-hid, loaded on first use) */
  readonly open?: ScaleOpener;
  /**
   * Pause between two weight requests of a scale that is asked (MT-SICS `SI`, `S`); none while it
   * sends by itself (`SIR`, continuous output, HID). @default 100
   */
  readonly pollIntervalMs?: number;
  /** Longest one weight conversation may take. @default 500 */
  readonly answerDeadlineMs?: number;
  /** A scale with no answer this long reads offline and its port is opened again. @default 2000 */
  readonly silentAfterMs?: number;
  /** First and longest wait before opening the port again. @default 250, 2000 */
  readonly reopenMinMs?: number;
  readonly reopenMaxMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

export type ScaleReadingListener = (reading: ScaleReading) => void;

const OFFLINE_AT_START = 'the scale has not answered yet';
const STOP_WAIT_MS = 4000;

export class ScaleMonitor {
  /** The canonical URI of the scale followed. */
  readonly uri: string;
  private current: ScaleReading;
  private scaleIdentity: string | null = null;
  private garbageBefore = 0;
  private device: ScaleDevice | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly listeners = new Set<ScaleReadingListener>();
  private readonly now: () => number;
  private answeredOnce!: () => void;
  /** Settles the first time the scale answers (the agent then prints `scale: URI`). */
  readonly answered: Promise<void>;

  constructor(private readonly options: ScaleMonitorOptions) {
    this.uri = formatScaleUri(options.address);
    this.now = options.now ?? Date.now;
    this.current = { state: 'offline', kg: null, unit: null, since: this.now(), problem: OFFLINE_AT_START };
    this.answered = new Promise((resolve) => (this.answeredOnce = resolve));
  }

  /** The reading now. */
  reading(): ScaleReading {
    return this.current;
  }

  /** The scale's own identity (its serial number, or maker and model), once it has said it. */
  identity(): string | null {
    return this.scaleIdentity;
  }

  /** The command the scale is asked for weights with (MT-SICS `SIR`, `SI`, `S`); null when it sends by itself or is not open. */
  command(): string | null {
    return this.device?.command ?? null;
  }

  /** Lines or reports that were not the protocol's, since start. */
  garbage(): number {
    return this.garbageBefore + (this.device?.garbage ?? 0);
  }

  /** Called on every change of state, weight or problem; returns the unsubscribe function. */
  subscribe(listener: ScaleReadingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The stable weight in kg when the scale has held it still for at least `heldMs`; else null. */
  stableWeight(heldMs: number): number | null {
    const r = this.current;
    return r.state === 'stable' && this.now() - r.since >= heldMs ? r.kg : null;
  }

  /**
   * Resolves with the first stable weight above zero that holds still for `heldMs`; any
   * change (motion, another weight, zero, offline) starts the wait over. Rejects when `signal` aborts.
   */
  whenStable(heldMs: number, signal?: AbortSignal): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let timer: NodeJS.Timeout | null = null;
      const finish = (): void => {
        if (timer) clearTimeout(timer);
        unsubscribe();
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        finish();
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const watch = (reading: ScaleReading): void => {
        if (timer) clearTimeout(timer);
        timer = null;
        if (reading.state !== 'stable' || reading.kg === null || reading.kg <= 0) return;
        const left = Math.max(0, heldMs - (this.now() - reading.since));
        timer = setTimeout(() => {
          finish();
          resolve(reading.kg!);
        }, left);
      };
      const unsubscribe = this.subscribe(watch);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      watch(this.current);
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.device?.close().catch(() => undefined);
    // Every step of the loop has a deadline; the wait is bounded as well, so a stuck port never holds the agent's stop.
    await Promise.race([this.loop, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    this.loop = null;
  }

  private async follow(): Promise<void> {
    const backoff = new ReopenBackoff(this.options.reopenMinMs ?? 250, this.options.reopenMaxMs ?? 2000);
    while (this.running) {
      let device: ScaleDevice;
      try {
        device = await (this.options.open ?? openScaleDevice)(this.options.address);
      } catch (error) {
        this.publish({ state: 'offline', kg: null, unit: null, problem: (error as Error).message });
        await this.sleep(backoff.next());
        continue;
      }
      if (!this.running) {
        await device.close().catch(() => undefined);
        break;
      }
      this.device = device;
      const answeredHere = await this.converse(device);
      this.garbageBefore += device.garbage;
      this.device = null;
      await device.close().catch(() => undefined);
      if (answeredHere) backoff.reset();
      if (this.running) await this.sleep(backoff.next());
    }
  }

  /** Talks to one open device until it is lost, falls silent or the monitor stops; says whether it ever answered. */
  private async converse(device: ScaleDevice): Promise<boolean> {
    const deadlineMs = this.options.answerDeadlineMs ?? 500;
    const silentAfterMs = this.options.silentAfterMs ?? 2000;
    const pollMs = this.options.pollIntervalMs ?? 100;
    let lost: Error | null = null;
    void device.lost.then((error) => {
      lost = error;
      this.wake?.();
    });
    let answered = false;
    let lastAnswer = this.now();
    if (this.scaleIdentity === null) this.scaleIdentity = await device.identify(Math.min(deadlineMs * 2, 1000)).catch(() => null);
    while (this.running && lost === null) {
      const left = silentAfterMs - (this.now() - lastAnswer);
      let unasked: boolean;
      try {
        const answer = await device.read(Math.max(50, Math.min(deadlineMs, left)));
        // The next weight comes by itself: no pause before waiting for it (a refusal or fault is not one).
        unasked = device.sendsByItself && answer.kind === 'sample' && answer.sample.kind !== 'fault';
        lastAnswer = this.now();
        if (!answered) {
          answered = true;
          this.answeredOnce();
        }
        if (answer.kind === 'sample') {
          const { state, kg, unit, problem } = sampleReading(answer.sample);
          this.publish({ state, kg, unit, problem });
        }
      } catch (error) {
        if (!this.running) break;
        const code = (error as ScaleError).code;
        if (code === SCALE_ERROR_CODES.SCALE_LOST) lost = error as Error;
        else if (this.now() - lastAnswer >= silentAfterMs) {
          // Silent: maybe unplugged in a way the port did not notice. Offline, and opened again.
          this.publish({ state: 'offline', kg: null, unit: null, problem: `the scale sent no answer for ${silentAfterMs / 1000} s` });
          return answered;
        }
        continue;
      }
      if (this.options.address.kind === 'serial' && pollMs > 0 && !unasked) await this.sleep(pollMs);
    }
    if (lost !== null && this.running) {
      this.publish({ state: 'offline', kg: null, unit: null, problem: `the scale is not connected (${(lost as Error).message})` });
    }
    return answered;
  }

  private publish(next: Omit<ScaleReading, 'since'>): void {
    const c = this.current;
    if (c.state === next.state && c.kg === next.kg && c.unit === next.unit && c.problem === next.problem) return;
    // A silent or unplugged scale's identity is learnt again: it may be another scale when it is back.
    if (next.state === 'offline') this.scaleIdentity = null;
    this.current = { ...next, since: this.now() };
    for (const listener of [...this.listeners]) {
      try {
        listener(this.current);
      } catch {
        // One listener's failure must not stop the others or the monitor.
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}
