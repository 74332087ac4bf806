/**
 * A fresh station prints only what is booked after its first start (src/main/intake/first-start.ts),
 * tried as a newcomer would: real agents through `npm run agent`, against a sandbox team whose
 * shipments another station already printed. What was booked in the hour before is offered
 * (catchUpOffer, printCatchUp), and `--catch-up MINUTES` prints those minutes once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { callAgentBridge } from '../../../src/main/web/bridge-call';
import { readBridgeFile } from '../../../src/main/web/bridge-file';
import { NODE, TS } from '../../support/cli-run';

const CLI = join(process.cwd(), 'src', 'main', 'cli', 'agent.ts');
const KEY = 'fresh-station-key-41c2';

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY });
  dir = await mkdtemp(join(tmpdir(), 'print-station-fresh-'));
});
afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

interface Running {
  readonly child: ChildProcess;
  readonly prints: string;
  readonly dataDir: string;
  output(): string;
  stop(): Promise<number | null>;
}

/** Starts a station on its own data dir and folder printer; resolves once it has polled once (its reconcile). */
async function station(name: string, extra: string[] = [], service: Sandbox = sandbox): Promise<Running> {
  const prints = join(dir, `${name}-prints`);
  const dataDir = join(dir, `${name}-data`);
  const args = [CLI, '--api-url', service.baseUrl, '--printer', `folder:${prints}`, '--poll-interval', '1', '--ui-port', '0'];
  const child = spawn(NODE, [...TS, ...args, '--data-dir', dataDir, ...extra], {
    env: { ...process.env, PRINT_STATION_API_KEY: service.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await waitFor(
    () => /poller: reconciled since/.test(text),
    `${name} reconciled`,
    () => text,
  );
  return {
    child,
    prints,
    dataDir,
    output: () => text,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function waitFor(ok: () => boolean | Promise<boolean>, what: string, detail: () => string = () => ''): Promise<void> {
  const until = Date.now() + 45_000;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n${detail()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function printed(folder: string): Promise<string[]> {
  return (await readdir(folder).catch(() => [] as string[])).filter((f) => f.endsWith('.pdf')).sort();
}

const has = (files: readonly string[], reference: string): boolean => files.some((f) => f.includes(reference));

describe('a fresh station', () => {
  it('prints nothing booked before its first start, offers the hour before, and prints it when asked', async () => {
    const old1 = (await sandbox.bookShipment({ source: 'API', reference_id: 'OLD-0001' })).shipmentId;
    const old2 = (await sandbox.bookShipment({ source: 'API', reference_id: 'OLD-0002' })).shipmentId;
    // The team's first station, started with --catch-up, prints them.
    const first = await station('first', ['--catch-up', '10']);
    await waitFor(async () => (await printed(first.prints)).length >= 2, 'the first station printing the old bookings', first.output);
    expect(await first.stop()).toBe(0);

    // A second, fresh station against the same team: nothing old prints by itself.
    const second = await station('second');
    expect(second.output()).toContain('first start of this station');
    const bridge = readBridgeFile(second.dataDir)!;
    expect(await callAgentBridge(bridge, 'catchUpOffer', {})).toMatchObject({ count: 2, windowMinutes: 60 });
    const new3 = (await sandbox.bookShipment({ source: 'API', reference_id: 'NEW-0003' })).shipmentId;
    await waitFor(async () => has(await printed(second.prints), new3), 'the new booking printed', second.output);
    await new Promise((r) => setTimeout(r, 1500));
    let files = await printed(second.prints);
    expect(files.filter((f) => f.includes(old1) || f.includes(old2))).toEqual([]);

    // The offer, taken: the two old ones print, once.
    expect(await callAgentBridge(bridge, 'printCatchUp', {})).toEqual({ submitted: 2 });
    await waitFor(async () => has(await printed(second.prints), old2), 'the offered bookings printed', second.output);
    files = await printed(second.prints);
    expect(has(files, old1)).toBe(true);
    expect(await callAgentBridge(bridge, 'catchUpOffer', {})).toMatchObject({ count: 0 });
    expect(await second.stop()).toBe(0);
  }, 90_000);

  it('prints the --catch-up minutes once: a second start with the same option prints nothing again', async () => {
    const start = await station('caught-up', ['--catch-up', '30']);
    await waitFor(async () => (await printed(start.prints)).length >= 3, 'the catch-up printed', start.output);
    expect(await start.stop()).toBe(0);
    const before = await printed(start.prints);
    await rm(start.prints, { recursive: true, force: true });
    const again = await station('caught-up', ['--catch-up', '30']);
    expect(again.output()).toContain('--catch-up 30: already done');
    await new Promise((r) => setTimeout(r, 2000));
    expect(await printed(again.prints)).toEqual([]);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(await again.stop()).toBe(0);
  }, 90_000);

  // The first start is a time on the service's clock (the Date of its answers), as booked_at is:
  // a PC clock that differs from the service's neither holds back a booking made after the first
  // start nor lets through one made before it.
  it.each([
    ['two minutes ahead of', -120_000],
    ['two minutes behind', 120_000],
  ])(
    'takes its first start from the service clock when the PC clock is %s it',
    async (_how, serviceAheadMs) => {
      const skewed = await startSandbox({ port: 0, apiKey: `${KEY}-skew`, now: () => new Date(Date.now() + serviceAheadMs) });
      try {
        const before = (await skewed.bookShipment({ source: 'API', reference_id: 'SKEW-OLD' })).shipmentId;
        // The service dates its answers to the second: a booking in the second before the first start may pass.
        await new Promise((r) => setTimeout(r, 1100));
        const fresh = await station(`skew${serviceAheadMs}`, [], skewed);
        const after = (await skewed.bookShipment({ source: 'API', reference_id: 'SKEW-NEW' })).shipmentId;
        await waitFor(async () => has(await printed(fresh.prints), after), 'the booking made after the first start printed', fresh.output);
        expect(await callAgentBridge(readBridgeFile(fresh.dataDir)!, 'catchUpOffer', {})).toMatchObject({ count: 1 });
        expect(has(await printed(fresh.prints), before)).toBe(false);
        expect(await fresh.stop()).toBe(0);
      } finally {
        await skewed.close();
      }
    },
    90_000,
  );
});
