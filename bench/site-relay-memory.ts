/**
 * `npx tsx bench/site-relay-memory.ts [--decisions 100000]`: does a relay's start-up time and
 * memory grow with the days of decisions the site keeps? A private nats-server, the sandbox
 * in its own process, and the relay CLI in its own, started twice: once on an empty site and
 * once with `--decisions` taken decisions in the bucket. Prints, for each, the time from spawn
 * to its `relay: nats://…` line and its RSS 10 s later (its watches settled). A benchmark: it
 * asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connectSite } from '../src/main/site/bus/connection';
import { startNatsServer } from '../test/support/nats';
import { SandboxProcess } from './sandbox-process';
import { fillDecisions, rssMb, spawnRelay } from './site-many';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function measure(sandbox: SandboxProcess, decisions: number, workDir: string): Promise<{ startMs: number; rssMb: number }> {
  const nats = await startNatsServer();
  try {
    const site = await connectSite({ servers: [nats.url], name: 'bench-fill' });
    await fillDecisions(site, decisions);
    await site.close();
    const { child, startMs } = await spawnRelay(nats.url, sandbox, path.join(workDir, `relay-${decisions}`), 'Station 1');
    await sleep(10_000);
    const rss = rssMb(child.pid!);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    return { startMs, rssMb: rss };
  } finally {
    await nats.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { decisions: { type: 'string', default: '100000' } } });
  const kept = Number(values.decisions);
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'ps-bench-relay-'));
  const sandbox = await SandboxProcess.start();
  try {
    process.stdout.write(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}; load average ${os.loadavg()[0]!.toFixed(2)}\n`);
    for (const decisions of [0, kept]) {
      const { startMs, rssMb: rss } = await measure(sandbox, decisions, workDir);
      process.stdout.write(`relay with ${decisions} decisions kept: started in ${startMs} ms, RSS ${rss} MB 10 s later\n`);
    }
    process.stdout.write(`load average at the end ${os.loadavg()[0]!.toFixed(2)}\n`);
  } finally {
    await sandbox.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
