/**
 * The loopback web bridge: serves the built renderer and exposes the AgentApi over HTTP
 * so the same UI runs in a browser against the headless agent. Same contract as the
 * Electron preload (src/shared/agent-api.ts): POST /api/<op> with the JSON input, an
 * AgentResult back; GET /api/events streams AgentEvents.
 *
 * Access control: a random token (header on calls, query on the event stream, since
 * EventSource cannot set headers; the headless agent keeps it in the data dir, ui-token-file.ts), a Host header allowlist against DNS rebinding,
 * and no CORS headers at all, so no other origin can read a response.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import {
  AGENT_OPERATIONS,
  LARGE_INPUT_OPERATIONS,
  UPLOAD_BODY_BYTES,
  BRIDGE_EVENTS_PATH,
  BRIDGE_TOKEN_HEADER,
  type AgentApi,
  type AgentOperation,
  type AgentResult,
} from '../../shared/agent-api';
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import { agentFailure, createOperationDispatcher } from '../agent/operation-dispatcher';
import { toErrorPayload } from '../errors';
import { listen } from '../http/listen';
import { readBody, TOO_LARGE } from '../http/read-body';
import { openEventStream, type Subscribe } from './event-stream';
import { allowedHostHeaders, assertLoopback, newToken, tokenMatches } from './guards';
import { serveStatic } from './static-files';
import { applyServerLimits, serverOptions, withDefaults, type ServerLimits } from '../intake/server-limits';

export interface UiServerOptions {
  readonly api: AgentApi;
  /** Live events for the stream; returns the unsubscribe function. */
  readonly subscribe: Subscribe;
  /**
   * Interface to listen on; loopback only (`127.0.0.1` or `::1`), anything else throws.
   * @default '127.0.0.1'
   */
  readonly host?: string;
  /** @default 0 (any free port) */
  readonly port?: number;
  /**
   * The built renderer (`npm run build:ui`).
   * @default `${process.cwd()}/out/renderer`
   */
  readonly staticDir?: string;
  /**
   * The access token (the headless agent passes the one kept in its data dir).
   * @default 24 random bytes, base64url, for this run only
   */
  readonly token?: string;
  /**
   * Largest accepted request body in bytes (settings are the biggest input, a few KiB).
   * @default 65536
   */
  readonly maxBodyBytes?: number;
  /** @default 15000 */
  readonly heartbeatMs?: number;
  /**
   * Connection limits (src/main/intake/server-limits.ts); an open event stream is never cut by the idle timeout.
   * @default { headersTimeoutMs: 10000, requestTimeoutMs: 15000, idleTimeoutMs: 30000, maxConnections: 64 }
   */
  readonly limits?: Partial<ServerLimits>;
}

/** One browser keeps an event stream and a few requests open; 64 leaves room for several tabs. */
export const UI_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  idleTimeoutMs: 30_000,
  maxConnections: 64,
};

export interface UiServer {
  /** The full URL to open, including `?token=` (the current token). */
  readonly url: string;
  readonly port: number;
  /** The current token. */
  readonly token: string;
  /**
   * From now on only `next` opens the bridge: requests with the old token get 401 and the
   * event streams opened with it end (a rotated address must shut out its bookmarks and tabs).
   */
  setToken(next: string): void;
  close(): Promise<void>;
}

const OPERATIONS: ReadonlySet<string> = new Set(AGENT_OPERATIONS);
const API_PREFIX = '/api/';

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const host = options.host ?? '127.0.0.1';
  assertLoopback(host);
  let token = options.token ?? newToken();
  const staticDir = resolve(options.staticDir ?? resolve(process.cwd(), 'out/renderer'));
  const maxBodyBytes = options.maxBodyBytes ?? 65_536;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new Set<() => void>();
  let allowedHosts: ReadonlySet<string> = new Set();
  const dispatch = createOperationDispatcher({ api: options.api, logPrefix: 'ui' });

  const limits = withDefaults(UI_SERVER_LIMITS, options.limits);
  const server = createServer(serverOptions(limits, 'UI'), (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendResult(res, 500, agentFailure(AGENT_ERROR_CODES.INTERNAL, toErrorPayload(error).message));
      else res.destroy();
    });
  });
  applyServerLimits(server, limits);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts.has(req.headers.host ?? '')) {
      sendResult(
        res,
        403,
        agentFailure(
          AGENT_ERROR_CODES.UI_FORBIDDEN_HOST,
          'This address is not allowed: open the UI through the ui: URL the agent printed.',
        ),
      );
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === BRIDGE_EVENTS_PATH) {
      if (!tokenMatches(token, url.searchParams.get('token'))) return unauthorized(res);
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
      const end = openEventStream(res, options.subscribe, heartbeatMs);
      streams.add(end);
      res.on('close', () => streams.delete(end));
      return;
    }
    if (url.pathname.startsWith(API_PREFIX)) {
      if (!tokenMatches(token, req.headers[BRIDGE_TOKEN_HEADER])) return unauthorized(res);
      const op = url.pathname.slice(API_PREFIX.length);
      if (!OPERATIONS.has(op)) {
        sendResult(res, 404, agentFailure(AGENT_ERROR_CODES.UI_UNKNOWN_OPERATION, `There is no operation "${op.slice(0, 64)}".`));
        return;
      }
      if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
      await callOperation(op as AgentOperation, req, res);
      return;
    }
    await serveStatic(staticDir, url.pathname, req, res);
  }

  async function callOperation(op: AgentOperation, req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A document upload carries a PDF; every other input stays under the small limit.
    const limit = LARGE_INPUT_OPERATIONS.has(op) ? Math.max(maxBodyBytes, UPLOAD_BODY_BYTES) : maxBodyBytes;
    const body = await readBody(req, limit);
    if (body === TOO_LARGE) {
      sendResult(res, 413, agentFailure(AGENT_ERROR_CODES.UI_BODY_TOO_LARGE, `The request is larger than ${limit} bytes.`));
      req.resume();
      return;
    }
    const text = body.toString('utf8');
    let input: unknown;
    if (text.trim() !== '') {
      try {
        input = JSON.parse(text);
      } catch {
        sendResult(res, 400, agentFailure(AGENT_ERROR_CODES.INVALID_INPUT, `Invalid input for ${op}: the request body is not JSON.`));
        return;
      }
    }
    // Operation failures are data (AgentResult), as on IPC: the UI shows them with their
    // request id. Only input that never reached the operation is a 400.
    const { result, rejected } = await dispatch(op, input);
    sendResult(res, rejected ? 400 : 200, result);
  }

  const port = await listen(server, options.port ?? 0, host);
  allowedHosts = allowedHostHeaders(host, port);
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    get url() {
      return `http://${urlHost}:${port}/?token=${encodeURIComponent(token)}`;
    },
    port,
    get token() {
      return token;
    },
    setToken(next: string) {
      token = next;
      for (const end of [...streams]) end();
    },
    close: async () => {
      for (const end of [...streams]) end();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
    },
  };
}

function sendResult(res: ServerResponse, status: number, result: AgentResult<unknown>): void {
  const body = JSON.stringify(result);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

function unauthorized(res: ServerResponse): void {
  sendResult(
    res,
    401,
    agentFailure(
      AGENT_ERROR_CODES.UI_UNAUTHORIZED,
      'The access token is missing or wrong: open the address that npm run agent -- ui-address prints on the station (or the ui: line the agent printed).',
    ),
  );
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.setHeader('allow', allow);
  sendResult(res, 405, agentFailure(AGENT_ERROR_CODES.UI_METHOD_NOT_ALLOWED, `Use ${allow}.`));
}
