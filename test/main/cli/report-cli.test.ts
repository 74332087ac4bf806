/**
 * `npm run agent -- report --day D [--csv FILE]` as a process: the report of a data dir
 * an agent printed into, the same service options as the agent, CSV written, and a clear
 * word when the agent still holds the ledger.
 */
import { spawn } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDay } from '../../../src/main/report/day-window';
import { startStation, waitFor, type Station } from '../../support/agent-harness';
import { NODE, TS } from '../../support/cli-run';

const CLI = join(process.cwd(), 'src', 'main', 'cli', 'agent.ts');

function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [...TS, CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let station: Station;
beforeEach(async () => {
  station = await startStation();
});
afterEach(async () => {
  await station.close();
});

describe('npm run agent -- report', () => {
  it('reports the day from the ledger and the service, writes CSV, and names the booking that never printed', async () => {
    const agent = await station.start();
    await agent.agent.poller?.pollOnce();
    const printed = await station.sandbox.bookShipment({ source: 'API', reference_id: 'CLI-PRINTED' });
    await waitFor(async () => (await station.prints()).length === 1, 'the label');
    await station.stopAgent(); // the report reads the ledger: the agent lets go of it first
    const missing = await station.sandbox.bookShipment({ source: 'API', reference_id: 'CLI-MISSING' });

    const csv = join(station.dir, 'eod.csv');
    // Yesterday's file, readable by all: the report's file is the owner's alone all the same.
    await writeFile(csv, 'old', { mode: 0o644 });
    const dataDir = join(station.dir, 'data');
    const run = await runCli(['report', '--day', localDay(), '--csv', csv, '--api-url', station.sandbox.baseUrl, '--data-dir', dataDir], {
      PRINT_STATION_API_KEY: station.sandbox.apiKey,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`End of day ${localDay()}`);
    expect(run.stdout).toContain('booked 2 · printed 1 · may have printed 0 · failed 0 · not printed 1 · canceled 0');
    expect(run.stdout).toMatch(new RegExp(`^CLI-PRINTED\\tPostNord\\t${printed.trackingId}\\tprinted \\d\\d:\\d\\d on /`, 'm'));
    // Printers named as docs/OPERATIONS.md names them: a folder by its folder, no `folder:`.
    expect(run.stdout).not.toMatch(/ on folder:/);
    expect(run.stdout).toContain(`CLI-MISSING\tPostNord\t${missing.trackingId}\tnot printed: never reached this station`);
    expect(run.stdout).toContain(`csv: ${csv}`);
    expect(run.stdout).not.toContain(station.sandbox.apiKey);
    const lines = (await readFile(csv, 'utf8')).trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain(`CLI-MISSING,PostNord,${missing.trackingId},${missing.shipmentId},`);
    expect(lines[2]).toContain(',not printed,');
    expect((await stat(csv)).mode & 0o777).toBe(0o600);
  });

  it('says to use the UI while the agent holds the ledger, and refuses a day that is not one', async () => {
    await station.start();
    const dataDir = join(station.dir, 'data');
    const busy = await runCli(['report', '--day', localDay(), '--data-dir', dataDir]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('The agent is running on');
    expect(busy.stderr).toContain('End of day tab');
    expect(busy.stderr).toContain('[AGENT_RUNNING]');
    await station.stopAgent();

    const bad = await runCli(['report', '--day', '2026-13-01', '--data-dir', dataDir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('2026-13-01 is not a day of the calendar');
    const none = await runCli(['report', '--data-dir', dataDir]);
    expect(none.stderr).toContain('report needs --day YYYY-MM-DD');
    const nowhere = await runCli(['report', '--day', localDay(), '--data-dir', join(station.dir, 'elsewhere')]);
    expect(nowhere.stderr).toContain('No ledger in');
  });
});
