import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts listening and resolves with the bound port (port 0 picks a free one); a bind
 * failure (EADDRINUSE, EACCES) rejects instead of surfacing as an unhandled 'error' event.
 * Shared by the agent's two HTTP servers (webhook receiver, local UI).
 */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
