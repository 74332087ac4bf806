import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { startPrivateCups, type PrivateCups } from '../../support/cups';
import { tempDir } from '../../support/jobs/fakes';
import { shipmentsInPdfs } from '../../support/reliability/pdf-shipments';

const CHILD = path.join(import.meta.dirname, 'fixtures', 'pipeline-child.ts');
const QUEUE = 'crash_sink';
const BATCH_QUEUE = 'crash_batch_sink';
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

/** SIGKILL in the middle of a burst, restart, every label exactly once. */
describe('PrintPipeline crash safety (real CUPS, child process killed with SIGKILL)', () => {
  let sandbox: Sandbox;
  let cups: PrivateCups;
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    cups = await startPrivateCups({
      queues: [
        { name: QUEUE, kind: 'sink' },
        { name: BATCH_QUEUE, kind: 'sink' },
      ],
    });
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
    if (wrong.length)
      console.log(
        JSON.stringify(
          {
            first: first.lines.filter((l) => l.state === 'spooling' || l.state === 'spooled').slice(-6),
            second: second.lines.filter((l) => 'find' in l || l.state === 'spooling').slice(0, 6),
          },
          null,
          1,
        ),
      );
    expect(wrong, `labels not printed exactly once (of ${outputs.length} outputs): ${detail}`).toEqual([]);
    expect(outputs).toHaveLength(BURST);
  });
  it('prints every label of a batched burst exactly once across a SIGKILL mid-batch and a restart', { timeout: 180_000 }, async () => {
    const booked = await Promise.all(Array.from({ length: BURST }, () => sandbox.bookShipment({ source: 'API' })));
    const ids = booked.map((b) => b.shipmentId);
    const env = {
      ...cups.env,
      PS_LEDGER: path.join(tmp.dir, 'batched.sqlite'),
      PS_API_URL: sandbox.baseUrl,
      PS_API_KEY: sandbox.apiKey,
      PS_PRINTER: `cups:${BATCH_QUEUE}`,
      PS_SHIPMENTS: ids.join(','),
      PS_BATCH_MAX: '8',
    };

    const first = runChild(env);
    // Killed as soon as a batch is being handed over: its members are `spooling` together.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const spooling = first.lines.filter((l) => l.state === 'spooling').length;
      const spooled = first.lines.filter((l) => l.state === 'spooled').length;
      if (spooling - spooled >= 3 || spooled >= 20) break;
      if (first.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    first.child.kill('SIGKILL');
    const killed = await first.exited;
    expect(killed.signal, `the first run ended before the kill: ${killed.stderr}`).toBe('SIGKILL');
    expect(first.lines.some((l) => l.done)).toBe(false);

    const second = runChild(env);
    const end = await second.exited;
    expect(end.code, end.stderr).toBe(0);
    await cups.waitForJobs({ queue: BATCH_QUEUE, timeoutMs: 60_000 });

    const outputs = await cups.outputs(BATCH_QUEUE);
    const printed = await shipmentsInPdfs(outputs);
    const perShipment = new Map(ids.map((id) => [id, 0]));
    for (const id of printed) perShipment.set(id, (perShipment.get(id) ?? 0) + 1);
    const wrong = [...perShipment].filter(([, n]) => n !== 1);
    expect(wrong, `labels not printed exactly once (${printed.length} labels in ${outputs.length} outputs)`).toEqual([]);
    expect(printed).toHaveLength(BURST);
    expect(outputs.length).toBeLessThan(BURST); // batches did form
    // Jobs the kill left `spooling` (two or more at once: only a batch does that, one line
    // spools one job at a time) were looked up by their batch id after the restart.
    const last = new Map<string, unknown>();
    for (const l of first.lines) if (typeof l.id === 'string') last.set(l.id, l.state);
    const stranded = [...last.values()].filter((state) => state === 'spooling').length;
    const finds = second.lines.filter((l) => typeof l.find === 'string').map((l) => l.find as string);
    if (stranded >= 2)
      expect(
        finds.some((f) => f.startsWith('B')),
        `finds: ${finds.join(', ')}`,
      ).toBe(true);
    console.log(
      `[crash batched] ${outputs.length} outputs for ${BURST} labels; ${stranded} jobs left spooling by the kill; lookups: ${finds.join(', ')}`,
    );
  });
});
