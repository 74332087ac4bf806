import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './net';

/**
 * A private nats-server with JetStream (`-js`), its store in a temp dir, on a loopback port
 * picked free (nats-server needs an explicit port). `kill()` is a SIGKILL; `start()` again
 * brings it back on the same port and store, as a crashed and restarted server would.
 */
export interface NatsServer {
  readonly url: string;
  readonly port: number;
  /** JetStream's store directory (wipe it between kill() and start() for a server that lost its store). */
  readonly store: string;
  start(): Promise<void>;
  /** SIGKILL, then wait for the process to end. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export const NATS_SERVER = process.env.NATS_SERVER ?? '/usr/sbin/nats-server';

export async function startNatsServer(
  options: {
    readonly clusterPort?: number;
    readonly routes?: readonly number[];
    readonly name?: string;
    /** Start from this config (site-setup's), listening on `port`; its store is the config's. */
    readonly config?: { readonly file: string; readonly port: number; readonly store: string };
  } = {},
): Promise<NatsServer> {
  const port = options.config?.port ?? (await freePort());
  const store = options.config?.store ?? mkdtempSync(join(tmpdir(), 'ps-nats-'));
  let child: ChildProcess | null = null;
  const args = (): string[] => {
    if (options.config) return ['-c', options.config.file, '-a', '127.0.0.1'];
    const list = ['-js', '-sd', store, '-a', '127.0.0.1', '-p', String(port)];
    if (options.clusterPort !== undefined) {
      list.push('--cluster_name', 'site', '--cluster', `nats://127.0.0.1:${options.clusterPort}`, '-n', options.name ?? `n${port}`);
      const routes = (options.routes ?? []).map((p) => `nats://127.0.0.1:${p}`).join(',');
      if (routes) list.push('--routes', routes);
    }
    return list;
  };
  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    store,
    async start() {
      const proc = spawn(NATS_SERVER, args(), { stdio: ['ignore', 'ignore', 'pipe'] });
      child = proc;
      let output = '';
      proc.stderr?.on('data', (chunk: Buffer) => {
        if (output.length < 20_000) output += chunk.toString();
      });
      await waitForPort(port, 10_000, () => (proc.exitCode !== null ? `nats-server exited: ${output}` : null));
    },
    async kill() {
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
    },
    async stop() {
      await server.kill();
      rmSync(store, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/** A three-node cluster on loopback, each node routed to the other two. */
export async function startNatsCluster(): Promise<{
  readonly servers: readonly NatsServer[];
  readonly urls: string;
  stop(): Promise<void>;
}> {
  const clusterPorts = [await freePort(), await freePort(), await freePort()];
  const servers = await Promise.all(
    clusterPorts.map((clusterPort, i) =>
      startNatsServer({ clusterPort, name: `node${i + 1}`, routes: clusterPorts.filter((p) => p !== clusterPort) }),
    ),
  );
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}

async function waitForPort(port: number, timeoutMs: number, failed: () => string | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = failed();
    if (problem) throw new Error(problem);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
