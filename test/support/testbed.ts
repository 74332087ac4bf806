/**
 * The sandbox + temp-dir harness many tests set up by hand: a sandbox on port 0, a
 * ServiceClient on it and a private temp directory, each optional, closed and removed
 * together. `useTestbed` and `useTempDir` start them for a whole test file (beforeAll /
 * afterAll) and hand back handles that can be taken at module level.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ServiceClient, type ServiceClientOptions } from '../../src/main/api/client';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server';

export interface TestbedOptions {
  /** The sandbox's options. @default {} (port 0, a fresh key) */
  readonly sandbox?: SandboxOptions;
  /** The client's options beyond the sandbox's address and key. @default the client's defaults */
  readonly client?: Partial<ServiceClientOptions>;
  /** Prefix of the temp directory's name. @default 'ps-test-' */
  readonly dirPrefix?: string;
}

export interface Testbed {
  readonly sandbox: Sandbox;
  readonly client: ServiceClient;
  /** A private temp directory, removed by close(). */
  readonly dir: string;
  close(): Promise<void>;
}

export async function startTestbed(options: TestbedOptions = {}): Promise<Testbed> {
  const dir = await mkdtemp(join(tmpdir(), options.dirPrefix ?? 'ps-test-'));
  const sandbox = await startSandbox(options.sandbox ?? {});
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, ...options.client });
  return {
    sandbox,
    client,
    dir,
    async close() {
      await client.close();
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One testbed for the whole file: started before its first test, closed after its last. */
export function useTestbed(options: TestbedOptions = {}): Testbed {
  let started: Testbed | undefined;
  beforeAll(async () => {
    started = await startTestbed(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const bed = (): Testbed => {
    if (!started) throw new Error('the testbed is started in beforeAll: use it inside a test or hook');
    return started;
  };
  return {
    get sandbox() {
      return bed().sandbox;
    },
    get client() {
      return bed().client;
    },
    get dir() {
      return bed().dir;
    },
    close: () => bed().close(),
  };
}

/** A private temp directory for the whole file, removed after its last test. */
export function useTempDir(prefix = 'ps-test-'): { readonly path: string } {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    get path() {
      if (!dir) throw new Error('the temp directory is made in beforeAll: use it inside a test or hook');
      return dir;
    },
  };
}
