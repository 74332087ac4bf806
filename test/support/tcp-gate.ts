/**
 * A TCP forwarder on a fixed loopback port in front of a real server (the private cupsd),
 * that can be closed and opened again: closed, the port refuses connections (ECONNREFUSED),
 * exactly as a scheduler that is not running; open, every byte goes through unchanged.
 * Stopping the real cupsd of another test's private CUPS would take its queues and jobs
 * down with it; the gate takes down only the address the agent under test uses.
 */
import net from 'node:net';
import { freePort } from './net';

export interface TcpGate {
  /** `127.0.0.1:PORT`, the address to give the agent (CUPS_SERVER). */
  readonly address: string;
  /** Refuse new connections and cut the open ones. */
  close(): Promise<void>;
  /** Listen again on the same port. */
  open(): Promise<void>;
}

export async function startTcpGate(upstream: string): Promise<TcpGate> {
  const [host, portText] = upstream.split(':');
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const open = async (): Promise<void> => {
    if (server) return;
    const created = net.createServer((client) => {
      const up = net.connect(Number(portText), host);
      for (const s of [client, up]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(up).pipe(client);
      client.on('close', () => up.destroy());
      up.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      created.once('error', reject);
      created.listen(port, '127.0.0.1', () => resolve());
    });
    server = created;
  };
  const close = async (): Promise<void> => {
    const current = server;
    server = null;
    if (!current) return;
    const closed = new Promise<void>((resolve) => current.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  await open();
  return { address: `127.0.0.1:${port}`, open, close };
}
