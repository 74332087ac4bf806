import { Client } from 'undici';

/**
 * Keep-alive HTTP connections to CUPS schedulers, one connection per scheduler address. A
 * Print-Job or Get-Printer-Attributes on an open connection costs one round trip on
 * loopback (well under a millisecond); a new TCP connection per request, as before, added a
 * handshake and a TIME_WAIT socket per label. Requests to one scheduler share
 * its connection, one after another (cupsd answers each in about a millisecond).
 */

/** The HTTP status of a scheduler that would not take the request at all (401, 403, 426…). */
export class IppHttpError extends Error {
  constructor(
    readonly status: number,
    readonly resource: string,
  ) {
    super(`CUPS answered HTTP ${status} for ${resource}`);
    this.name = 'IppHttpError';
  }
}

/**
 * Socket errors that happen before a request was written: the scheduler never saw it, so
 * whatever was asked (a Print-Job too) is safe to ask again or ask elsewhere.
 */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'EBADADDRESS',
]);

/**
 * Whether the request failed on the way (a socket or HTTP-client error, which carries a
 * string `code`), not in the answer: the printer or scheduler could not be reached or
 * broke off. The codec's and the operations' own errors (`IPP_DECODE`, `IPP_STATUS`) are
 * answers, however unwelcome.
 */
export function connectionFailed(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && !code.startsWith('IPP_');
}

export function neverSent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && NOT_SENT.has(code);
}

interface Address {
  readonly origin: string;
  readonly socketPath?: string;
}

function address(server: string): Address {
  if (server.startsWith('/')) return { origin: 'http://localhost', socketPath: server };
  // An origin (an IPP Everywhere printer: http for ipp://, https for ipps://).
  if (/^https?:\/\//.test(server)) return { origin: server };
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(server);
  const host = m?.[1] ?? server;
  const port = m?.[2] ? Number(m[2]) : 631;
  return { origin: `http://${host}:${port}` };
}

const clients = new Map<string, Client>();

function clientFor(server: string): Client {
  let client = clients.get(server);
  if (!client) {
    const { origin, socketPath } = address(server);
    if (!URL.canParse(origin)) {
      throw Object.assign(new Error(`"${server}" is not a CUPS server address (HOST, HOST:PORT or a socket path)`), {
        code: 'EBADADDRESS',
      });
    }
    // keepAliveTimeout stays well below cupsd's own idle timeout (30 s by default) so the
    // agent never writes a request onto a connection the scheduler is closing.
    // ipps: printers present self-signed certificates (there is no CA for a printer on a
    // station's network); the connection is still encrypted, as CUPS's ipps backend does.
    const tls = origin.startsWith('https:') ? { connect: { rejectUnauthorized: false } } : {};
    client = new Client(origin, { pipelining: 1, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 10_000, socketPath, ...tls });
    clients.set(server, client);
  }
  return client;
}

/**
 * The largest IPP answer read. A printer's or scheduler's attributes run to a few tens of
 * KB (a Get-Printer-Attributes of a busy CUPS queue is under 100 KB): a device that sends
 * more is not answering IPP, and reading on would cost the agent its memory.
 */
export const IPP_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** An answer over IPP_MAX_ANSWER_BYTES: the connection was dropped at the limit. */
export class IppAnswerTooLargeError extends Error {
  readonly code = 'IPP_ANSWER_TOO_LARGE';
  constructor(
    readonly server: string,
    readonly limit: number,
  ) {
    super(`${server} sent an IPP answer over ${Math.round(limit / 1024)} KB: not an IPP printer's answer, the connection was dropped`);
    this.name = 'IppAnswerTooLargeError';
  }
}

export interface IppPostLimits {
  /** The whole exchange (connect, send, answer) may take this long, however the device trickles. @default 10 s */
  readonly timeoutMs?: number;
  /** The answer may be this large. @default IPP_MAX_ANSWER_BYTES */
  readonly maxAnswerBytes?: number;
}

/**
 * POSTs one IPP message to `resource` on `server` (`host:port`, `host` or a Unix socket path)
 * and resolves the response body. Rejects with IppHttpError for a non-200 answer, and with
 * the socket's error (which carries a string `code`) when the scheduler cannot be reached or
 * the connection broke off; `ETIMEDOUT` (with `answerTimeoutMs`) when the whole exchange took longer than timeoutMs
 * (a total deadline: a device that drips a byte every few seconds never resets it), and
 * IppAnswerTooLargeError when the answer passes the size limit (reading stops there).
 */
export async function ippPost(
  server: string,
  resource: string,
  body: Uint8Array,
  limitsOrTimeoutMs: IppPostLimits | number = {},
): Promise<Buffer> {
  const limits = typeof limitsOrTimeoutMs === 'number' ? { timeoutMs: limitsOrTimeoutMs } : limitsOrTimeoutMs;
  const timeoutMs = limits.timeoutMs ?? 10_000;
  const maxAnswerBytes = limits.maxAnswerBytes ?? IPP_MAX_ANSWER_BYTES;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const late = (cause: unknown): Error =>
    Object.assign(new Error(`${server} did not answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT', cause, answerTimeoutMs: timeoutMs });
  try {
    let answer;
    try {
      answer = await clientFor(server).request({
        method: 'POST',
        path: resource,
        headers: { 'content-type': 'application/ipp' },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: deadline.signal,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (deadline.signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') throw late(error);
      throw error;
    }
    const declared = Number(answer.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxAnswerBytes) {
      dropConnection(server, answer.body);
      throw new IppAnswerTooLargeError(server, maxAnswerBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxAnswerBytes) {
          dropConnection(server, answer.body);
          throw new IppAnswerTooLargeError(server, maxAnswerBytes);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof IppAnswerTooLargeError) throw error;
      if (deadline.signal.aborted) throw late(error);
      throw error;
    }
    if (answer.statusCode !== 200) throw new IppHttpError(answer.statusCode, resource);
    return Buffer.concat(chunks, size);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops reading an answer and closes its connection: the rest of a hostile answer is never
 * read (a kept-alive connection would have to drain it first). The next request opens a new one.
 */
function dropConnection(server: string, body: { destroy(error?: Error): unknown }): void {
  body.destroy();
  const client = clients.get(server);
  if (client) {
    clients.delete(server);
    void client.destroy().catch(() => undefined);
  }
}

/** Closes every scheduler connection (agent shutdown, tests); later requests open new ones. */
export async function closeIppConnections(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((client) => client.close().catch(() => undefined)));
}
