import type { Socket } from 'node:net';

/**
 * Who gets a connection when the server is full. Node's own `server.maxConnections` closes
 * every new connection at the cap, so 256 idle sockets opened by anyone shut out the service's
 * deliveries for as long as they are held. Here a new connection always gets in when some
 * connection has no request in progress: the one idle the longest makes room, taken from the
 * address holding the most connections, so a flood from one address only ever displaces its
 * own sockets. Where addresses differ, each has a budget: an address at its budget makes room
 * from its own idle connections (or is refused when they are all busy), so the others always
 * have room. A connection answering a request is never closed to make room; when all are busy,
 * the new one is refused, as before.
 */

export interface AdmissionLimits {
  /** Connections open at once, at most. */
  readonly maxConnections: number;
  /** Connections from one address while other addresses are connected too. */
  readonly maxConnectionsPerAddress: number;
}

/** Why a socket was closed here, for the server's counters. */
export type AdmissionOutcome = 'admitted' | 'made-room' | 'refused';

interface Tracked {
  readonly socket: Socket;
  readonly address: string;
  /** Requests in progress on it. */
  busy: number;
  /** performance.now() when it last became idle (or connected). */
  idleSince: number;
}

export class ConnectionAdmission {
  readonly #limits: AdmissionLimits;
  readonly #open = new Map<Socket, Tracked>();
  readonly #byAddress = new Map<string, Set<Tracked>>();
  /** Connections closed to make room, and refused, since the start. */
  readonly counts = { madeRoom: 0, refused: 0 };

  constructor(limits: AdmissionLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#open.size;
  }

  /** Decides on a new connection: admits it (closing an idle one first when full) or destroys it. */
  admit(socket: Socket): AdmissionOutcome {
    const address = socket.remoteAddress ?? '';
    const own = this.#byAddress.get(address);
    const others = this.#byAddress.size - (own ? 1 : 0);
    let outcome: AdmissionOutcome = 'admitted';
    if (others > 0 && (own?.size ?? 0) >= this.#limits.maxConnectionsPerAddress) {
      // At its budget while others are connected: room only from its own idle connections.
      const victim = oldestIdle(own ?? []);
      if (!victim) return this.#refuse(socket);
      this.#closeForRoom(victim);
      outcome = 'made-room';
    }
    if (this.#open.size >= this.#limits.maxConnections) {
      const victim = oldestIdle(this.#heaviestIdleAddress()) ?? oldestIdle(this.#open.values());
      if (!victim) return this.#refuse(socket);
      this.#closeForRoom(victim);
      outcome = 'made-room';
    }
    const tracked: Tracked = { socket, address, busy: 0, idleSince: performance.now() };
    this.#open.set(socket, tracked);
    let set = this.#byAddress.get(address);
    if (!set) this.#byAddress.set(address, (set = new Set()));
    set.add(tracked);
    socket.once('close', () => this.#forget(tracked));
    return outcome;
  }

  /** A request started on `socket`: it is not idle until it ends. */
  requestStarted(socket: Socket): void {
    const t = this.#open.get(socket);
    if (t) t.busy++;
  }

  /** A request on `socket` ended (answered or aborted). */
  requestEnded(socket: Socket): void {
    const t = this.#open.get(socket);
    if (!t) return;
    t.busy = Math.max(0, t.busy - 1);
    if (t.busy === 0) t.idleSince = performance.now();
  }

  /** True when no request is in progress on `socket`. */
  isIdle(socket: Socket): boolean {
    return (this.#open.get(socket)?.busy ?? 0) === 0;
  }

  /** The idle connections of the address holding the most connections that has any idle. */
  #heaviestIdleAddress(): Iterable<Tracked> {
    let best: Set<Tracked> | null = null;
    for (const set of this.#byAddress.values()) {
      if (best && set.size <= best.size) continue;
      for (const t of set) {
        if (t.busy === 0) {
          best = set;
          break;
        }
      }
    }
    return best ?? [];
  }

  #closeForRoom(victim: Tracked): void {
    this.counts.madeRoom++;
    this.#forget(victim);
    victim.socket.destroy();
  }

  #refuse(socket: Socket): AdmissionOutcome {
    this.counts.refused++;
    socket.destroy();
    return 'refused';
  }

  #forget(t: Tracked): void {
    if (this.#open.get(t.socket) !== t) return;
    this.#open.delete(t.socket);
    const set = this.#byAddress.get(t.address);
    set?.delete(t);
    if (set?.size === 0) this.#byAddress.delete(t.address);
  }
}

function oldestIdle(candidates: Iterable<Tracked>): Tracked | null {
  let oldest: Tracked | null = null;
  for (const t of candidates) if (t.busy === 0 && (!oldest || t.idleSince < oldest.idleSince)) oldest = t;
  return oldest;
}
