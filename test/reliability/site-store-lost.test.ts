/**
 * A protected site (site-setup's config and credentials, every part a real process started
 * with the documented commands) whose nats-server loses its store in the middle of a burst:
 * killed, its store deleted, started again empty. Nobody is restarted: the relay sets the
 * site up again, the stations recreate their consumers, and every booking prints exactly
 * once, at the station that should print it (Packing 2's station rule, else the default
 * station Packing 1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server';
import { connectSite } from '../../src/main/site/bus/connection';
import { SiteRules } from '../../src/main/site/bus/site-rules';
import { AGENT_CLI, REPO_ROOT, startAgentProcess, type AgentProcess } from '../support/reliability/agent-process';
import { waitFor } from '../support/agent-harness';
import { startNatsServer } from '../support/nats';
import { freePort } from '../support/net';

const LONG = process.env.RELIABILITY_LONG === '1';
const BOOKINGS = LONG ? 80 : 30;

/** `npm run agent -- site-setup …`: its printed `config:` and `creds:` lines. */
async function siteSetup(args: readonly string[]): Promise<{ config: string; creds: Map<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', AGENT_CLI, 'site-setup', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`site-setup exited ${String(code)}:\n${out}`);
  const config = /^config: (.+)$/m.exec(out)![1]!;
  const creds = new Map([...out.matchAll(/^creds: (.+) (\/\S+\.creds)$/gm)].map((m) => [m[1]!, m[2]!]));
  return { config, creds };
}

/** The relay through the CLI; resolves at its `relay:` line. */
function startRelay(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', AGENT_CLI, 'relay', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`relay not ready:\n${lines.join('\n')}`)), 90_000);
    const onData = (chunk: Buffer): void => {
      lines.push(...chunk.toString().split('\n'));
      if (lines.some((l) => l.startsWith('relay: '))) {
        clearTimeout(timer);
        resolve({ child, lines });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`relay exited ${String(code)}:\n${lines.join('\n')}`));
    });
  });
}

describe('a protected site whose server loses its store mid-burst', () => {
  it(`prints ${BOOKINGS} bookings exactly once each, at the right station, with no restart of relay or stations`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'print-station-site-wiped-'));
    const port = await freePort();
    const store = join(dir, 'store');
    const setup = await siteSetup([
      '--out',
      join(dir, 'site'),
      '--stations',
      'Packing 1,Packing 2',
      '--relays',
      '2',
      '--port',
      String(port),
      '--store',
      store,
    ]);
    const nats = await startNatsServer({ config: { file: setup.config, port, store } });
    const sandbox = await startSandbox({ port: 0 });
    const env = { PRINT_STATION_API_KEY: sandbox.apiKey };
    const names = ['Packing 1', 'Packing 2'];
    const printsOf = (name: string): string => join(dir, name.replace(' ', '-'), 'prints');
    const stations = new Map<string, AgentProcess>();
    let relay: { child: ChildProcess; lines: string[] } | null = null;
    try {
      // Packing 2's rule, written as its Settings would (a relay's credential may write any station's).
      const admin = await connectSite({ servers: [nats.url], name: 'admin', credsFile: setup.creds.get('relay-2')! });
      await new SiteRules(admin.buckets.rules).put('Packing 2', {
        rules: { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: 'P2-' }] },
        fallback: null,
      });
      await admin.close();
      relay = await startRelay(
        [
          '--site',
          nats.url,
          '--site-creds',
          setup.creds.get('relay-1')!,
          '--api-url',
          sandbox.baseUrl,
          '--default-station',
          'Packing 1',
          '--poll-interval',
          '1',
          '--data-dir',
          join(dir, 'relay'),
        ],
        env,
      );
      // A protected site without TLS: the one line that says so.
      expect(relay.lines.filter((l) => l.startsWith('warning: relay:'))).toEqual([expect.stringContaining('no TLS')]);
      for (const name of names) {
        stations.set(
          name,
          await startAgentProcess({
            args: [
              '--site',
              nats.url,
              '--site-creds',
              setup.creds.get(name)!,
              '--station-name',
              name,
              '--api-url',
              sandbox.baseUrl,
              '--printer',
              `folder:${printsOf(name)}`,
              '--data-dir',
              join(dir, name.replace(' ', '-'), 'data'),
            ],
            env,
          }),
        );
      }
      await waitFor(() => stations.get('Packing 2')!.lines.some((l) => l.startsWith('site: ')), 'Packing 2 in the site', 60_000);

      const expected = new Map<string, string>();
      let wipe: Promise<void> | null = null;
      for (let i = 0; i < BOOKINGS; i++) {
        if (i === Math.floor(BOOKINGS * 0.4)) {
          wipe = (async () => {
            await nats.kill();
            await rm(store, { recursive: true, force: true });
            await new Promise((r) => setTimeout(r, 1_500));
            await nats.start();
          })();
        }
        const toTwo = i % 3 === 1;
        const booked = await sandbox.bookShipment({ reference_id: toTwo ? `P2-${i}` : `D-${i}` });
        expected.set(booked.shipmentId, toTwo ? 'Packing 2' : 'Packing 1');
        await new Promise((r) => setTimeout(r, 150));
      }
      await wipe;

      const count = async (): Promise<Map<string, string[]>> => {
        const where = new Map<string, string[]>();
        for (const name of names) {
          for (const file of await readdir(printsOf(name)).catch(() => [] as string[])) {
            if (!file.endsWith('.pdf')) continue;
            const id = file.split('_')[0]!;
            where.set(id, [...(where.get(id) ?? []), name]);
          }
        }
        return where;
      };
      await waitFor(async () => (await count()).size >= BOOKINGS, 'every booking printed somewhere', 180_000);
      await new Promise((r) => setTimeout(r, 3_000));
      const where = await count();
      const missing = [...expected.keys()].filter((id) => !where.has(id));
      const duplicated = [...where].filter(([, at]) => at.length > 1);
      const wrong = [...where].filter(([id, at]) => expected.get(id) !== at[0]);
      expect({ missing, duplicated, wrong }).toEqual({ missing: [], duplicated: [], wrong: [] });
    } finally {
      for (const station of stations.values()) await station.kill('SIGKILL').catch(() => undefined);
      if (relay && relay.child.exitCode === null) {
        const exited = new Promise((resolve) => relay!.child.once('exit', resolve));
        relay.child.kill('SIGKILL');
        await exited;
      }
      await sandbox.close();
      await nats.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
