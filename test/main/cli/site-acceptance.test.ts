import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server';
import { BRIDGE_TOKEN_HEADER } from '../../../src/shared/agent-api';
import { waitFor } from '../../support/agent-harness';
import { startNatsServer } from '../../support/nats';

/**
 * The site as an operator starts it, from the documented commands only: `npm run agent --`
 * for the relay and each station (each bundles first, all at once), the stations' bridges
 * with the token of their `ui:` lines, `/metrics`.
 */

interface Running {
  readonly child: ChildProcess;
  output(): string;
}

function npmAgent(args: readonly string[], env: NodeJS.ProcessEnv): Running {
  // Its own process group: npm, its shell and node stop together.
  const child = spawn('npm', ['run', '--silent', 'agent', '--', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function stop(running: Running): Promise<void> {
  if (running.child.exitCode !== null || running.child.signalCode !== null) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  process.kill(-running.child.pid!, 'SIGTERM');
  await exited;
}

/** One bridge operation with the token of the station's `ui:` line. */
async function bridge<T>(running: Running, op: string, input: unknown): Promise<T> {
  const ui = new URL(/^ui: (\S+)$/m.exec(running.output())![1]!);
  const response = await fetch(new URL(`/api/${op}`, ui.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: ui.searchParams.get('token')! },
    body: JSON.stringify(input),
  });
  const result = (await response.json()) as { ok: boolean; value: T; error?: unknown };
  if (!result.ok) throw new Error(`${op}: ${JSON.stringify(result.error)}`);
  return result.value;
}

interface SiteStatus {
  stations: Array<{ name: string; role: string; online: boolean }>;
  decisions: Array<{ shipmentId: string; station: string; reason: string; takenBy: string | null }>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describe('a site started from the documented commands', () => {
  it('prints each booking once at the right station, honours a scan claim, shows a stopped station offline, serves metrics', async () => {
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    // The relay is started before the server is up.
    await nats.kill();
    const sandbox = await startSandbox({ port: 0 });
    cleanups.push(() => sandbox.close());
    const dir = await mkdtemp(join(tmpdir(), 'print-station-site-acceptance-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const env = { PRINT_STATION_API_KEY: sandbox.apiKey };

    const relay = npmAgent(
      ['relay', '--site', nats.url, '--api-url', sandbox.baseUrl, '--poll-interval', '1', '--default-station', 'Packing 1'].concat([
        '--metrics-port',
        '0',
        '--data-dir',
        join(dir, 'relay'),
      ]),
      env,
    );
    cleanups.push(() => stop(relay));
    const station = (name: string | null): Running => {
      const folder = (name ?? 'host').replace(/\W/g, '_');
      const running = npmAgent(
        [
          '--site',
          nats.url,
          ...(name === null ? [] : ['--station-name', name]),
          '--api-url',
          sandbox.baseUrl,
          '--printer',
          `folder:${join(dir, folder, 'prints')}`,
          '--ui-port',
          '0',
          '--metrics-port',
          '0',
          '--data-dir',
          join(dir, folder, 'data'),
        ],
        env,
      );
      cleanups.push(() => stop(running));
      return running;
    };
    // Started together: each `npm run agent` bundles the agent into the same file first.
    const one = station('Packing 1');
    const two = station('Packing 2');
    const host = station(null);
    const printed = async (name: string): Promise<string[]> =>
      (await readdir(join(dir, name, 'prints')).catch(() => [] as string[])).filter((f) => f.endsWith('.pdf')).map((f) => f.split('_')[0]!);

    // Each says what it waits for, not silence, and is not connected yet.
    await waitFor(
      () => [relay, one, two, host].every((r) => r.output().includes(`waiting for the site's NATS server at ${nats.url}: start it`)),
      'the waiting lines',
      90_000,
    );
    expect(relay.output()).not.toContain('relay: nats://');
    await nats.start();
    await waitFor(() => relay.output().includes(`relay: ${nats.url}\n`), `the relay line (${relay.output()})`, 90_000);
    for (const [running, name] of [
      [one, 'Packing 1'],
      [two, 'Packing 2'],
      [host, hostname()],
    ] as const) {
      await waitFor(
        () => /^ui: /m.test(running.output()) && running.output().includes(`site: ${nats.url} as ${name}\n`),
        `${name} (${running.output()})`,
        90_000,
      );
    }

    // A scan at Packing 2 before the booking exists claims its reference there.
    await bridge(two, 'lookup', { scan: 'ACC-CLAIMED' });
    // The claim holds as soon as the scan answered: booked at once, it prints there.
    const byClaim = await sandbox.bookShipment({ reference_id: 'ACC-CLAIMED' });
    // The host-named station takes H- references by a rule given from Packing 1.
    const hRules = { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: 'H-' }] };
    await bridge(one, 'saveSiteRules', { station: hostname(), rules: hRules });
    await new Promise((r) => setTimeout(r, 1_000));

    const byDefault = await sandbox.bookShipment({ reference_id: 'ACC-1' });
    const byRule = await sandbox.bookShipment({ reference_id: 'H-1' });
    const all = async (): Promise<string[]> => [
      ...(await printed('Packing_1')),
      ...(await printed('Packing_2')),
      ...(await printed('host')),
    ];
    await waitFor(async () => (await all()).length >= 3, 'three labels', 30_000);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await printed('Packing_1')).toEqual([byDefault.shipmentId]);
    expect(await printed('Packing_2')).toEqual([byClaim.shipmentId]);
    expect(await printed('host')).toEqual([byRule.shipmentId]);

    const names = (status: SiteStatus): Array<[string, boolean]> =>
      status.stations.filter((s) => s.role === 'station').map((s) => [s.name, s.online]);
    const before = await bridge<SiteStatus>(one, 'siteStatus', {});
    expect(names(before)).toEqual(
      expect.arrayContaining([
        ['Packing 1', true],
        ['Packing 2', true],
        [hostname(), true],
      ]),
    );
    expect(before.decisions.find((d) => d.shipmentId === byClaim.shipmentId)).toMatchObject({ reason: 'claim', takenBy: 'Packing 2' });

    // A stopped station shows offline within 30 s.
    const stoppedAt = Date.now();
    await stop(two);
    await waitFor(
      async () => names(await bridge<SiteStatus>(one, 'siteStatus', {})).some(([n, online]) => n === 'Packing 2' && !online),
      'Packing 2 offline',
      30_000,
    );
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);

    for (const running of [relay, one]) {
      const answer = await fetch(/metrics: (\S+)/.exec(running.output())![1]!);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/^# TYPE print_station_\w+ /m);
    }
  }, 300_000);
});
