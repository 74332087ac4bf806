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
 * POSTs one IPP message to `resource` on `server` (`host:port`, `host` or a Unix socket path)
 * and resolves the response body. Rejects with IppHttpError for a non-200 answer, and with
 * the socket's error (which carries a string `code`) when the scheduler cannot be reached or
 * the connection broke off; `ETIMEDOUT` after timeoutMs without an answer.
 */
export async function ippPost(server: string, resource: string, body: Uint8Array, timeoutMs = 10_000): Promise<Buffer> {
  let answer;
  try {
    answer = await clientFor(server).request({
      method: 'POST',
      path: resource,
      headers: { 'content-type': 'application/ipp' },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      throw Object.assign(new Error(`CUPS at ${server} did not answer in time`), { code: 'ETIMEDOUT', cause: error });
    }
    throw error;
  }
  const data = Buffer.from(await answer.body.arrayBuffer());
  if (answer.statusCode !== 200) throw new IppHttpError(answer.statusCode, resource);
  return data;
}

/** Closes every scheduler connection (agent shutdown, tests); later requests open new ones. */
export async function closeIppConnections(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((client) => client.close().catch(() => undefined)));
}
