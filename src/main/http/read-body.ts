/**
 * The one request-body reader of the agent's HTTP servers (the webhook receiver, the UI
 * bridge): the whole body as bytes, or `TOO_LARGE` as soon as the declared or received
 * size passes the limit, without buffering more than the limit.
 */
import type { IncomingMessage } from 'node:http';

export const TOO_LARGE = Symbol('body too large');

/**
 * Resolves with the body, or `TOO_LARGE` (then the rest of the body is left unread: the
 * caller answers 413 and drains or drops the connection). Rejects when the request
 * errors (the client went away).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      resolve(TOO_LARGE);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
