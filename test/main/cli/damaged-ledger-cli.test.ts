import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { runCli } from '../../support/cli-run';
import { damageMiddle, fillLedger } from '../../support/jobs/damage';

const CLI = join(process.cwd(), 'src', 'main', 'cli', 'agent.ts');
const KEY = 'cli-damaged-key-5b1e';

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
  dir = await mkdtemp(join(tmpdir(), 'print-station-cli-damaged-'));
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('npm run agent on a damaged ledger', () => {
  it('refuses to start, names the file and says what to do, and exits non-zero', async () => {
    const dataDir = join(dir, 'data');
    const file = join(dataDir, 'ledger.sqlite');
    fillLedger(file, 3000);
    damageMiddle(file);
    const run = await runCli(
      CLI,
      [
        '--api-url',
        sandbox.baseUrl,
        '--printer',
        `folder:${join(dir, 'prints')}`,
        '--webhook-port',
        '0',
        '--webhook-secret',
        'whsec_cli_0123456789',
        '--poll-interval',
        '0',
        '--data-dir',
        dataDir,
      ],
      { env: { PRINT_STATION_API_KEY: KEY }, killAfterMs: 20_000 },
    );
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toContain(`The job ledger ${file} is damaged`);
    expect(run.stderr).toContain('so the station did not start: move ledger.sqlite aside');
    // It already stopped (no "Stop the agent"), and SQLite's banner is not passed on raw.
    expect(run.stderr).not.toContain('Stop the agent');
    expect(run.stderr).not.toContain('***');
    expect(run.stdout).not.toMatch(/^printer: /m);
  }, 30_000);
});
