import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findNatsServer, NATS_INSTALL_ADVICE } from '../../../src/main/demo/site-demo';
import { NODE, TS } from '../../support/cli-run';
import { waitFor } from '../../support/agent-harness';

const DEMO = join(process.cwd(), 'src', 'main', 'cli', 'demo.ts');

/** `npm run demo -- --stations N` with its data and folder printers in `dir`; stdout and stderr read together. */
function startDemo(stations: number, dir: string, options: { detached?: boolean } = {}) {
  const child = spawn(
    NODE,
    [...TS, DEMO, '--stations', String(stations), '--data-dir', join(dir, 'data'), '--printer', `folder:${join(dir, 'prints')}`],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached ?? false },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => out, exited };
}

describe('npm run demo -- --stations N', () => {
  it('finds nats-server, or says how to install it', () => {
    expect(findNatsServer('/nowhere', [])).toBeNull();
    expect(findNatsServer('', ['/usr/sbin'])).toBe('/usr/sbin/nats-server');
    expect(NATS_INSTALL_ADVICE).toContain('apt install nats-server');
  });

  it('starts a relay and the stations with their UIs, and the default station prints the first demo booking', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'print-station-site-demo-'));
    const { child, output, exited } = startDemo(2, dir);
    try {
      await waitFor(() => output().includes('demo: a site of 2'), `the demo's ready lines (${output()})`, 60_000);
      expect(output()).toMatch(/^relay: nats:\/\/127\.0\.0\.1:\d+$/m);
      expect(output()).toMatch(/^site: nats:\/\/127\.0\.0\.1:\d+ as Packing 1$/m);
      expect(output()).toMatch(/^ui: Packing 1: http:\/\/127\.0\.0\.1:\d+\//m);
      expect(output()).toMatch(/^ui: Packing 2: http:\/\/127\.0\.0\.1:\d+\//m);
      // DEMO-0001 is booked through the API (source API): no rule takes it, so Packing 1, the default, prints it.
      await waitFor(
        async () => (await readdir(join(dir, 'prints', 'packing-1')).catch(() => [] as string[])).some((f) => f.endsWith('.pdf')),
        'a demo label at Packing 1',
        20_000,
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
  it('stops within 2 s of Ctrl-C, without a warning (the signal reaches the whole process group, nats-server too)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'print-station-site-demo-stop-'));
    // Its own process group, as a terminal's foreground job: Ctrl-C is a SIGINT to every process in it.
    const { child, output, exited } = startDemo(3, dir, { detached: true });
    try {
      await waitFor(() => output().includes('demo: a site of 3'), `the demo's ready lines (${output()})`, 60_000);
      // A booking or two through the site first, so the stop meets consumers and sweeps at work.
      await waitFor(() => /job \S+ completed/.test(output()), 'a demo label printed', 20_000);
      const before = output().length;
      const signalledAt = Date.now();
      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      const tookMs = Date.now() - signalledAt;
      const after = output().slice(before);
      expect(after).toContain('SIGINT: stopping');
      expect(after.split('\n').filter((line) => /\bWARN\b|warning/i.test(line))).toEqual([]);
      expect(tookMs).toBeLessThan(2_000);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
