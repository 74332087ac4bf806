/**
 * An HTTP proxy in front of a (private) cupsd for IPP tests: it sees each IPP request the
 * agent sends, counts client connections (keep-alive), and can answer in the scheduler's
 * stead (an HTTP status, an IPP status) or forward a request and then drop the connection
 * without answering (the job exists, the client never hears so).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeIppResponse, encodeIppRequest, baseAttrs, type IppResponse } from '../../src/main/printing/ipp/ipp';

export type IppProxyAction =
  'pass' | 'drop-after-forward' | { readonly http: number } | { readonly ipp: number; readonly message?: string };

export interface IppProxyRequest {
  readonly operation: number;
  /** The request's attribute groups (decoded like a response: `status` holds the operation). */
  readonly ipp: IppResponse;
  /** The request's User-Agent (the CUPS tools send `CUPS/…`). */
  readonly userAgent: string;
}

export interface IppProxy {
  /** `127.0.0.1:PORT` */
  readonly server: string;
  readonly requests: IppProxyRequest[];
  /** TCP connections clients opened to the proxy so far. */
  connections(): number;
  /** What to do with each request; `pass` unless set. */
  decide: (request: IppProxyRequest) => IppProxyAction;
  close(): Promise<void>;
}

function ippAnswer(requestBody: Buffer, status: number, message?: string): Buffer {
  const requestId = requestBody.length >= 8 ? requestBody.readUInt32BE(4) : 1;
  const attrs = [...baseAttrs(), ...(message ? [{ tag: 0x41, name: 'status-message', values: [message] }] : [])];
  return encodeIppRequest(status, requestId, attrs);
}

export async function startIppProxy(upstream: string): Promise<IppProxy> {
  const [host, port] = upstream.split(':');
  let connections = 0;
  const proxy: IppProxy = {
    server: '',
    requests: [],
    connections: () => connections,
    decide: () => 'pass',
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = body.length >= 4 ? body.readUInt16BE(2) : -1;
      const seen: IppProxyRequest = { operation, ipp: decodeIppResponse(body), userAgent: req.headers['user-agent'] ?? '' };
      proxy.requests.push(seen);
      const action = proxy.decide(seen);
      if (typeof action === 'object' && 'http' in action) {
        res.writeHead(action.http, { 'content-length': '0' }).end();
        return;
      }
      if (typeof action === 'object') {
        const answer = ippAnswer(body, action.ipp, action.message);
        res.writeHead(200, { 'content-type': 'application/ipp', 'content-length': String(answer.length) }).end(answer);
        return;
      }
      const headers = { ...req.headers, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      delete headers.expect;
      const up = http.request({ host, port: Number(port), method: req.method, path: req.url, headers, agent: false }, (answer) => {
        if (action === 'drop-after-forward') {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (proxy as { server: string }).server = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
