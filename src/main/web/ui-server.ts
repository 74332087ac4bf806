/**
 * The loopback web bridge: serves the built renderer and exposes the AgentApi over HTTP
 * so the same UI runs in a browser against the headless agent. Same contract as the
 * Electron preload (src/shared/agent-api.ts): POST /api/<op> with the JSON input, an
 * AgentResult back; GET /api/events streams AgentEvents.
 *
 * Access control: a random per-run token (header on calls, query on the event stream,
 * since EventSource cannot set headers), a Host header allowlist against DNS rebinding,
 * and no CORS headers at all, so no other origin can read a response.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { z } from 'zod';
import {
  AGENT_OPERATIONS,
  LARGE_INPUT_OPERATIONS,
  UPLOAD_BODY_BYTES,
  BRIDGE_EVENTS_PATH,
  BRIDGE_TOKEN_HEADER,
  agentInputs,
  type AgentApi,
  type AgentOperation,
  type AgentResult,
} from '../../shared/agent-api';
import type { AgentErrorPayload } from '../../shared/domain';
import { toErrorPayload } from '../errors';
import { openEventStream, type Subscribe } from './event-stream';
import { allowedHostHeaders, assertLoopback, newToken, tokenMatches } from './guards';
import { serveStatic } from './static-files';

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
   * The access token for this run.
   * @default 24 random bytes, base64url
   */
  readonly token?: string;
  /**
   * Largest accepted request body in bytes (settings are the biggest input, a few KiB).
   * @default 65536
   */
  readonly maxBodyBytes?: number;
  /** @default 15000 */
  readonly heartbeatMs?: number;
}

export interface UiServer {
  /** The full URL to open, including `?token=`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const OPERATIONS: ReadonlySet<string> = new Set(AGENT_OPERATIONS);
const API_PREFIX = '/api/';

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const host = options.host ?? '127.0.0.1';
  assertLoopback(host);
  const token = options.token ?? newToken();
  const staticDir = resolve(options.staticDir ?? resolve(process.cwd(), 'out/renderer'));
  const maxBodyBytes = options.maxBodyBytes ?? 65_536;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new Set<() => void>();
  let allowedHosts: ReadonlySet<string> = new Set();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendResult(res, 500, failure('INTERNAL', toErrorPayload(error).message));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts.has(req.headers.host ?? '')) {
      sendResult(res, 403, failure('UI_FORBIDDEN_HOST', 'This address is not allowed: open the UI through the ui: URL the agent printed.'));
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
        sendResult(res, 404, failure('UI_UNKNOWN_OPERATION', `There is no operation "${op.slice(0, 64)}".`));
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
    if (body === 'too_large') {
      sendResult(res, 413, failure('UI_BODY_TOO_LARGE', `The request is larger than ${limit} bytes.`));
      req.resume();
      return;
    }
    let json: unknown = {};
    if (body.trim() !== '') {
      try {
        json = JSON.parse(body);
      } catch {
        sendResult(res, 400, failure('UI_INVALID_INPUT', 'The request body is not valid JSON.'));
        return;
      }
    }
    const parsed = (agentInputs[op] as z.ZodType).safeParse(json);
    if (!parsed.success) {
      sendResult(res, 400, failure('UI_INVALID_INPUT', describeIssues(parsed.error)));
      return;
    }
    const call = options.api[op] as (input: unknown) => Promise<unknown>;
    try {
      const value = await call.call(options.api, parsed.data);
      sendResult(res, 200, { ok: true, value });
    } catch (error) {
      // Operation failures are data (AgentResult), as on IPC: the UI shows them with
      // their request id.
      sendResult(res, 200, { ok: false, error: toErrorPayload(error) });
    }
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = allowedHostHeaders(host, port);
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    close: async () => {
      for (const end of [...streams]) end();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
    },
  };
}

function failure(code: string, message: string): AgentResult<never> {
  const error: AgentErrorPayload = { code, message, requestId: null };
  return { ok: false, error };
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
  sendResult(res, 401, failure('UI_UNAUTHORIZED', 'The access token is missing or wrong: open the UI through the ui: URL the agent printed.'));
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.setHeader('allow', allow);
  sendResult(res, 405, failure('UI_METHOD_NOT_ALLOWED', `Use ${allow}.`));
}

function readBody(req: IncomingMessage, limit: number): Promise<string | 'too_large'> {
  return new Promise((resolveBody, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      resolveBody('too_large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        resolveBody('too_large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolveBody(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** "field “scan”: expected string, received number; …" — names every offending field. */
function describeIssues(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const keys = 'keys' in issue && Array.isArray(issue.keys) ? (issue.keys as string[]) : [];
    const path = [...issue.path.map(String), ...(keys.length > 0 ? [keys.join(', ')] : [])].join('.');
    return path ? `field “${path}”: ${issue.message}` : issue.message;
  });
  return `Invalid input: ${parts.join('; ')}`;
}
