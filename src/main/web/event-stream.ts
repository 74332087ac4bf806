/**
 * Server-sent events for AgentEvents. EventSource reconnects by itself; the heartbeat
 * comment keeps idle connections from being dropped by anything in between and lets a
 * dead client be noticed (the write fails and the subscription ends).
 */
import type { ServerResponse } from 'node:http';
import type { AgentEvent } from '../../shared/agent-api';

export type Subscribe = (listener: (event: AgentEvent) => void) => () => void;

/** Opens the stream on `res`; returns a function that ends it (idempotent). */
/** Bytes an SSE client may leave unread before its stream is closed. */
export const MAX_BUFFERED_EVENT_BYTES = 1024 * 1024;

export function openEventStream(
  res: ServerResponse,
  subscribe: Subscribe,
  heartbeatMs: number,
  maxBufferedBytes = MAX_BUFFERED_EVENT_BYTES,
): () => void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  });
  // `retry` tells EventSource how soon to reconnect after the agent restarts.
  res.write('retry: 2000\n: connected\n\n');

  let ended = false;
  // A client that stops reading (a frozen tab) must not make the agent buffer events
  // without bound: past the cap the stream is closed, and EventSource reconnects and
  // reloads what it shows once it reads again.
  const send = (chunk: string): void => {
    if (ended) return;
    if (res.writableLength > maxBufferedBytes) {
      end();
      res.destroy();
      return;
    }
    res.write(chunk);
  };
  const unsubscribe = subscribe((event) => send(`data: ${JSON.stringify(event)}\n\n`));
  const heartbeat = setInterval(() => send(': ping\n\n'), heartbeatMs);
  heartbeat.unref();

  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
  };
  res.on('close', end);
  res.on('error', end);
  return end;
}
