import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { waitFor } from '../../support/agent-harness';
import { NODE, TS } from '../../support/cli-run';
import { startNatsServer, type NatsServer } from '../../support/nats';

const AGENT = join(process.cwd(), 'src', 'main', 'cli', 'agent.ts');

interface Running {
  readonly child: ChildProcess;
  output(): string;
}

function run(args: readonly string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(NODE, [...TS, AGENT, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function stop(running: Running): Promise<void> {
  if (running.child.exitCode !== null) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGTERM');
  await exited;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describe('npm run agent -- relay and --site', () => {
  it('prints the relay and site lines, prints the booking at the station, and serves /metrics on both', async () => {
    const nats: NatsServer = await startNatsServer();
    cleanups.push(() => nats.stop());
    const sandbox: Sandbox = await startSandbox({ port: 0 });
    cleanups.push(() => sandbox.close());
    const dir = await mkdtemp(join(tmpdir(), 'print-station-site-cli-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const env = { PRINT_STATION_API_KEY: sandbox.apiKey };

    const relay = run(
      [
        'relay',
        '--site',
        nats.url,
        '--api-url',
        sandbox.baseUrl,
        '--default-station',
        'Packing 1',
        '--metrics-port',
        '0',
        '--data-dir',
        join(dir, 'relay'),
      ],
      env,
    );
    cleanups.push(() => stop(relay));
    const station = run(
      [
        '--site',
        nats.url,
        '--station-name',
        'Packing 1',
        '--api-url',
        sandbox.baseUrl,
        '--printer',
        `folder:${join(dir, 'prints')}`,
        '--metrics-port',
        '0',
        '--data-dir',
        join(dir, 'station'),
      ],
      env,
    );
    cleanups.push(() => stop(station));
    await waitFor(() => relay.output().includes(`relay: ${nats.url}\n`), `the relay line (${relay.output()})`, 30_000);
    await waitFor(() => station.output().includes(`site: ${nats.url} as Packing 1\n`), `the site line (${station.output()})`, 30_000);

    const booked = await sandbox.bookShipment({ reference_id: 'CLI-1' });
    await waitFor(
      async () => (await readdir(join(dir, 'prints')).catch(() => [] as string[])).some((f) => f.startsWith(booked.shipmentId)),
      'the label at the station',
      20_000,
    );

    for (const running of [relay, station]) {
      const url = /metrics: (\S+)/.exec(running.output())?.[1];
      expect(url).toBeDefined();
      const answer = await fetch(url!);
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).toContain('# TYPE print_station_site_connected gauge');
      expect(text).toMatch(/print_station_site_connected\{role="(relay|station)"\} 1/);
    }
    await waitFor(
      async () =>
        /print_station_labels_printed_total\{role="station"\} 1/.test(
          await (await fetch(/metrics: (\S+)/.exec(station.output())![1]!)).text(),
        ),
      'the printed label counted',
      10_000,
    );
  }, 90_000);

  it('starts a relay without a default station, saying that undecided bookings wait there', async () => {
    const nats: NatsServer = await startNatsServer();
    cleanups.push(() => nats.stop());
    const dir = await mkdtemp(join(tmpdir(), 'print-station-site-cli-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const sandbox: Sandbox = await startSandbox({ port: 0 });
    cleanups.push(() => sandbox.close());
    const relay = run(
      [
        'relay',
        '--site',
        nats.url,
        '--api-url',
        sandbox.baseUrl,
        '--poll-interval',
        '1',
        '--metrics-port',
        '0',
        '--data-dir',
        join(dir, 'relay'),
      ],
      { PRINT_STATION_API_KEY: sandbox.apiKey },
    );
    cleanups.push(() => stop(relay));
    await waitFor(() => relay.output().includes('relay: no --default-station'), `the relay lines (${relay.output()})`, 30_000);
    expect(relay.output()).toContain(`relay: ${nats.url}\n`);
    expect(relay.child.exitCode).toBeNull();
    // A booking no station claims waits, counted in the relay's metrics.
    await sandbox.bookShipment({ reference_id: 'NOBODY-1' });
    const metricsUrl = /metrics: (\S+)/.exec(relay.output())![1]!;
    await waitFor(
      async () => /print_station_site_bookings_waiting\{role="relay"\} 1/.test(await (await fetch(metricsUrl)).text()),
      'the waiting booking counted',
      15_000,
    );
  }, 30_000);
});
