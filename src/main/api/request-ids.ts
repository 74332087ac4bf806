/**
 * The last few X-Service-Request-IDs the agent received: what support at the service
 * needs to find a call in their logs. A fixed-size ring, so it costs nothing to keep.
 */
import type { ResponseSeen } from './transport';

export const DEFAULT_REQUEST_ID_CAPACITY = 50;

export interface RecentRequest extends ResponseSeen {
  /** ISO time the answer arrived. */
  readonly at: string;
}

export class RecentRequestIds {
  private readonly ring: RecentRequest[] = [];
  private next = 0;

  /** @param capacity entries kept. @default 50 (DEFAULT_REQUEST_ID_CAPACITY) */
  constructor(
    private readonly capacity: number = DEFAULT_REQUEST_ID_CAPACITY,
    private readonly now: () => Date = () => new Date(),
  ) {}

  readonly add = (response: ResponseSeen): void => {
    const entry: RecentRequest = { ...response, at: this.now().toISOString() };
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  };

  /** Newest first. */
  list(): RecentRequest[] {
    const oldestFirst = this.ring.length < this.capacity ? this.ring : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return [...oldestFirst].reverse();
  }
}
