import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionAdmission } from './connection-admission';
import { INTAKE_ERROR_CODES, IntakeConfigError } from './errors';

/**
 * Connection limits of the agent's two HTTP servers (the webhook receiver and the local UI):
 * a slow or half-open client must not hold a connection for long, and a flood of
 * them must not hold them all. Node checks header and request timeouts only every
 * `connectionsCheckingInterval` (30 s by default, so a 10 s timeout fired after about 34 s):
 * the interval is set from the timeouts here, so each fires within half a second of its value.
 */

export interface ServerLimits {
  /** A client must send all request headers within this time. */
  readonly headersTimeoutMs: number;
  /** A client must send the whole request (headers and body) within this time. */
  readonly requestTimeoutMs: number;
  /**
   * A connection with no request in progress that sends nothing for this long is closed
   * (a request being answered, or an event stream, is never cut by it).
   */
  readonly idleTimeoutMs: number;
  /**
   * Connections open at once, at most. At the cap a new connection takes the place of the
   * connection idle the longest (from the address holding the most); it is refused only when
   * every connection has a request in progress (connection-admission.ts).
   */
  readonly maxConnections: number;
  /**
   * Connections from one address while other addresses are connected too: an address at its
   * budget makes room from its own idle connections. @default half of maxConnections
   */
  readonly maxConnectionsPerAddress?: number;
}

/** How often Node looks for connections past their timeouts, at most. */
const MAX_CHECK_INTERVAL_MS = 500;

/** `defaults`, with every limit `given` sets. */
export function withDefaults(defaults: ServerLimits, given: Partial<ServerLimits> | undefined): ServerLimits {
  return { ...defaults, ...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => v !== undefined)) };
}

/** Options for `http.createServer`. Throws IntakeConfigError on a limit that cannot work. */
export function serverOptions(limits: ServerLimits, what: string): ServerOptions {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new IntakeConfigError(
        INTAKE_ERROR_CODES.INVALID_OPTION,
        `The ${what} server's ${name} must be a whole number of at least 1 (got ${String(value)}).`,
      );
    }
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new IntakeConfigError(
      INTAKE_ERROR_CODES.INVALID_OPTION,
      `The ${what} server's headersTimeoutMs (${limits.headersTimeoutMs}) must not exceed its requestTimeoutMs (${limits.requestTimeoutMs}).`,
    );
  }
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(shortest / 4))),
  };
}

/**
 * Applies the cap and the idle timeout to a server made with `serverOptions`. The cap is kept
 * here, not by Node's `server.maxConnections` (which closes every newcomer at the cap, so idle
 * sockets could shut out real requests): see connection-admission.ts.
 */
export function applyServerLimits(server: Server, limits: ServerLimits): ConnectionAdmission {
  const admission = new ConnectionAdmission({
    maxConnections: limits.maxConnections,
    maxConnectionsPerAddress: limits.maxConnectionsPerAddress ?? Math.max(1, Math.floor(limits.maxConnections / 2)),
  });
  // Without a 'timeout' listener Node destroys any socket idle that long, even one whose
  // answer is still being worked out (a slow UI operation): the listener below decides.
  server.on('timeout', () => {});
  server.on('connection', (socket: Socket) => {
    if (admission.admit(socket) === 'refused') return;
    socket.setTimeout(limits.idleTimeoutMs, () => {
      if (admission.isIdle(socket)) socket.destroy();
    });
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    admission.requestStarted(socket);
    let done = false;
    const release = (): void => {
      if (done) return;
      done = true;
      admission.requestEnded(socket);
    };
    res.once('finish', release);
    res.once('close', release);
  });
  return admission;
}
