import { compareTimestamps } from './timestamps';

/**
 * Holds bookings for a short window and releases them in `booked_at` order, so labels come
 * out in booking order although webhook deliveries are independent and may be reordered
 * (spec, Events 4). An item is due once it has waited `windowMs`; when one is released,
 * every held item booked no later than it goes too, oldest booking first, so an early
 * booking never waits behind a later one. Reorders shorter than the window are undone.
 */

export interface ReorderItem<T> {
  readonly value: T;
  /** RFC 3339 booking time; null sorts first. */
  readonly orderKey: string | null;
}

export interface ReorderBufferOptions<T> {
  /** How long an item is held, in milliseconds. 0 = release at once. @default 250 */
  readonly windowMs?: number;
  readonly release: (value: T) => void;
}

interface Held<T> extends ReorderItem<T> {
  readonly dueAt: number;
  readonly seq: number;
}

export class ReorderBuffer<T> {
  private readonly windowMs: number;
  private readonly release: (value: T) => void;
  private held: Held<T>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;

  constructor(options: ReorderBufferOptions<T>) {
    this.windowMs = options.windowMs ?? 250;
    this.release = options.release;
  }

  get size(): number {
    return this.held.length;
  }

  push(value: T, orderKey: string | null): void {
    this.held.push({ value, orderKey, dueAt: Date.now() + this.windowMs, seq: this.seq++ });
    if (this.windowMs <= 0) this.releaseDue(Number.POSITIVE_INFINITY);
    else this.schedule();
  }

  /** Releases everything now, in order (shutdown). */
  flush(): void {
    this.releaseDue(Number.POSITIVE_INFINITY);
  }

  private schedule(): void {
    if (this.timer || this.held.length === 0) return;
    const next = Math.min(...this.held.map((h) => h.dueAt));
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.releaseDue(Date.now());
        this.schedule();
      },
      Math.max(0, next - Date.now()),
    );
    this.timer.unref?.();
  }

  private releaseDue(now: number): void {
    if (this.timer && now === Number.POSITIVE_INFINITY) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const due = this.held.filter((h) => h.dueAt <= now);
    if (due.length === 0) return;
    const cutoff = due.reduce<string | null>((max, h) => (compareTimestamps(h.orderKey, max) > 0 ? h.orderKey : max), due[0]!.orderKey);
    const out = this.held.filter((h) => h.dueAt <= now || compareTimestamps(h.orderKey, cutoff) <= 0);
    this.held = this.held.filter((h) => !out.includes(h));
    out.sort((a, b) => compareTimestamps(a.orderKey, b.orderKey) || a.seq - b.seq);
    for (const item of out) this.release(item.value);
  }
}
