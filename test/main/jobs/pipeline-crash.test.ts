import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { startPrivateCups, type PrivateCups } from '../../support/cups';
import { tempDir } from '../../support/jobs/fakes';

const CHILD = path.join(import.meta.dirname, 'fixtures', 'pipeline-child.ts');
const QUEUE = 'crash_sink';
const BURST = 60;

interface ChildRun {
  readonly child: ChildProcess;
  readonly lines: Array<Record<string, unknown>>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function runChild(env: NodeJS.ProcessEnv): ChildRun {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not ours (a warning)
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, lines, exited };
}

/** Issue 3 part 5: SIGKILL in the middle of a burst, restart, every label exactly once. */
describe('PrintPipeline crash safety (real CUPS, child process killed with SIGKILL)', () => {
  let sandbox: Sandbox;
  let cups: PrivateCups;
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    cups = await startPrivateCups({ queues: [{ name: QUEUE, kind: 'sink' }] });
    tmp = tempDir('ps-crash-');
  });
  afterAll(async () => {
    await cups?.stop();
    await sandbox?.close();
    tmp?.cleanup();
  });

  it('prints every label of a burst exactly once across a SIGKILL and a restart', { timeout: 180_000 }, async () => {
    const booked = await Promise.all(Array.from({ length: BURST }, () => sandbox.bookShipment({ source: 'API' })));
    const ids = booked.map((b) => b.shipmentId);
    const env = {
      ...cups.env,
      PS_LEDGER: path.join(tmp.dir, 'ledger.sqlite'),
      PS_API_URL: sandbox.baseUrl,
      PS_API_KEY: sandbox.apiKey,
      PS_PRINTER: `cups:${QUEUE}`,
      PS_SHIPMENTS: ids.join(','),
    };

    const first = runChild(env);
    // Kill once some labels are out and others are still on their way.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const seen = (await cups.outputs(QUEUE)).length;
      const spooled = first.lines.filter((l) => l.state === 'spooled').length;
      if (seen >= 8 || spooled >= 12) break;
      if (first.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    const killed = await first.exited;
    expect(killed.signal, `the first run ended before the kill: ${killed.stderr}`).toBe('SIGKILL');
    expect(first.lines.some((l) => l.done)).toBe(false);
    const spooledBeforeKill = new Set(first.lines.filter((l) => l.state === 'spooled').map((l) => l.shipmentId));
    expect(spooledBeforeKill.size).toBeGreaterThan(0);
    expect(spooledBeforeKill.size).toBeLessThan(BURST);

    const second = runChild(env);
    const end = await second.exited;
    expect(end.code, end.stderr).toBe(0);
    expect(second.lines.some((l) => l.done)).toBe(true);
    await cups.waitForJobs({ queue: QUEUE, timeoutMs: 60_000 });

    const outputs = (await cups.outputs(QUEUE)).map((f) => path.basename(f));
    const perShipment = new Map<string, number>();
    for (const id of ids) {
      const tag = `_${id.replace(/[^A-Za-z0-9._-]/g, '_')}_label`;
      perShipment.set(id, outputs.filter((f) => f.includes(tag)).length);
    }
    const wrong = [...perShipment].filter(([, n]) => n !== 1);
    const detail = wrong.map(([id]) => outputs.filter((f) => f.includes(id.replace(/[^A-Za-z0-9._-]/g, '_'))).join(' + ')).join('; ');
    if (wrong.length) console.log(JSON.stringify({ first: first.lines.filter((l) => l.state === 'spooling' || l.state === 'spooled').slice(-6), second: second.lines.filter((l) => 'find' in l || l.state === 'spooling').slice(0, 6) }, null, 1));
    expect(wrong, `labels not printed exactly once (of ${outputs.length} outputs): ${detail}`).toEqual([]);
    expect(outputs).toHaveLength(BURST);
  });
});
