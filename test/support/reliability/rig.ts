/**
 * What every reliability scenario stands on: a private CUPS scheduler with one sink
 * queue, the embedded sandbox pushing signed webhooks to a port reserved for the agent
 * (so an agent restarted on the same port receives them again), and a data directory
 * the agent keeps across restarts. Torn down after the scenario's own agent is stopped.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { startPrivateCups, type PrivateCups } from '../cups';
import { freePort } from '../net';

export interface Rig {
  readonly cups: PrivateCups;
  readonly sandbox: Sandbox;
  readonly dataDir: string;
  /** The port the sandbox delivers webhooks to; the agent listens there. */
  readonly webhookPort: number;
  readonly endpoint: { readonly url: string; readonly secret: string };
}

/**
 * Starts the rig before the file's tests and stops it after them. `stopAgent` runs first
 * at teardown, so no agent outlives the sandbox and the scheduler it talks to.
 */
export function useRig(options: {
  readonly name: string;
  readonly queue: string;
  readonly secret: string;
  readonly stopAgent: () => Promise<unknown>;
}): () => Rig {
  let rig: Rig | null = null;
  beforeAll(async () => {
    const cups = await startPrivateCups({ queues: [{ name: options.queue, kind: 'sink' }] });
    const webhookPort = await freePort();
    const endpoint = { url: `http://127.0.0.1:${webhookPort}/webhooks`, secret: options.secret };
    const sandbox = await startSandbox({ webhooks: [endpoint] });
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `rel-${options.name}-`));
    rig = { cups, sandbox, dataDir, webhookPort, endpoint };
  });
  afterAll(async () => {
    await options.stopAgent();
    await rig?.sandbox.close();
    await rig?.cups.stop();
    if (rig) await fs.rm(rig.dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!rig) throw new Error('the reliability rig starts in beforeAll: use it inside a test or hook');
    return rig;
  };
}
