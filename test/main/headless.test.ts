/**
 * The headless agent tells its web UI whether the UI's address lasts past this run, so the UI
 * advises bookmarking it only where a bookmark keeps working: a fixed --ui-port and a kept
 * token do; a port chosen at random, or a data dir the demo wipes at each start, do not.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHeadlessAgent, type HeadlessAgentOptions } from '../../src/main/headless';
import { createLogger } from '../../src/main/log';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { freePort } from '../support/net';

describe('the headless agent and its UI address', () => {
  let dir: string;
  let sandbox: Sandbox;
  let uiDir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'print-station-headless-'));
    uiDir = join(dir, 'ui');
    await mkdir(uiDir);
    await writeFile(join(uiDir, 'index.html'), '<!doctype html><title>ui</title>');
    sandbox = await startSandbox({ port: 0 });
  });
  afterEach(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  const lasts = async (options: Partial<HeadlessAgentOptions>): Promise<boolean | undefined> => {
    const agent = await startHeadlessAgent({
      apiUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      dataDir: join(dir, 'data'),
      log: createLogger({ write: () => undefined }),
      printer: `folder:${join(dir, 'prints')}`,
      pollIntervalSeconds: 0,
      uiStaticDir: uiDir,
      ...options,
    });
    try {
      const [read, saved] = [await agent.agent.api.getSettings({}), await agent.agent.api.saveSettings({ routing: { copies: 1 } })];
      expect(saved.uiAddressLasts).toBe(read.uiAddressLasts);
      return read.uiAddressLasts;
    } finally {
      await agent.stop();
    }
  };

  it('lasts on a fixed UI port with a kept token: no field, the UI advises a bookmark', async () => {
    expect(await lasts({ uiPort: await freePort() })).toBeUndefined();
  });

  it('does not last on a port chosen at random, nor where the data dir starts fresh (the demo)', async () => {
    expect(await lasts({ uiPort: 0 })).toBe(false);
    expect(await lasts({ uiPort: await freePort(), uiAddressKept: false })).toBe(false);
  });
});
