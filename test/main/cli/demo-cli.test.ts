import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE, TS } from '../../support/cli-run';

const DEMO = join(process.cwd(), 'src', 'main', 'cli', 'demo.ts');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-demo-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('prints a 4x6 label into ./demo-prints within 10 seconds of being ready, and stops on Ctrl-C', async () => {
    // No --data-dir: the demo's own ./.demo-data, never the agent's ./.data.
    const child = spawn(NODE, [...TS, DEMO], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`demo not ready: ${stdout}`)), 30_000);
        child.stdout.on('data', () => stdout.includes('printer: ') && (clearTimeout(timer), resolve()));
      });
      expect(stdout).toMatch(/^sandbox: http:\/\/127\.0\.0\.1:\d+\/external\/v1$/m);
      expect(stdout).toMatch(/^ui: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m);
      expect(stdout).toMatch(/^webhooks: http:\/\/127\.0\.0\.1:\d+\/webhooks$/m);
      expect(stdout).toContain('printer: folder:./demo-prints');

      const ready = Date.now();
      let pdfs: string[] = [];
      while (pdfs.length === 0 && Date.now() - ready < 10_000) {
        await new Promise((r) => setTimeout(r, 200));
        pdfs = (await readdir(join(dir, 'demo-prints')).catch(() => [] as string[])).filter((f) => f.endsWith('.pdf'));
      }
      expect(pdfs.length).toBeGreaterThan(0);
      const pdf = await PDFDocument.load(await readFile(join(dir, 'demo-prints', pdfs[0]!)));
      expect([pdf.getPage(0).getWidth(), pdf.getPage(0).getHeight()]).toEqual([288, 432]);
      // Drafts to finish at the station are announced (each one's own line says "scan DRAFT-000N to pack and ship it").
      expect(stdout).toMatch(/^demo: every third shipment is left as a draft \(DRAFT-0003, /m);
      // Its log is kept like the agent's (docs/OPERATIONS.md: the headless agent always writes logs/agent.log).
      const logged = await readFile(join(dir, '.demo-data', 'logs', 'agent.log'), 'utf8');
      expect(logged).toMatch(/connected: team /);
      expect(await readdir(dir)).not.toContain('.data');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it("starts ./demo-prints fresh: the last run's labels are gone unless --keep-data", async () => {
    // The first test's run left its labels (and the demo's marker) in ./demo-prints.
    const before = (await readdir(join(dir, 'demo-prints'))).filter((f) => f.endsWith('.pdf'));
    expect(before.length).toBeGreaterThan(0);
    const run = async (args: string[]): Promise<string[]> => {
      const child = spawn(NODE, [...TS, DEMO, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`demo not ready: ${stdout}`)), 45_000);
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (!stdout.includes('printer: ')) return;
          clearTimeout(timer);
          resolve();
        });
      });
      const files = (await readdir(join(dir, 'demo-prints'))).filter((f) => f.endsWith('.pdf'));
      // Stopped as the first test stops it; its exit is that test's concern, not this one's.
      child.kill('SIGINT');
      await exited;
      return files;
    };
    const kept = await run(['--keep-data']);
    expect(kept).toEqual(expect.arrayContaining(before));
    const fresh = await run([]);
    expect(fresh.filter((f) => before.includes(f))).toEqual([]);
  }, 120_000);
});
