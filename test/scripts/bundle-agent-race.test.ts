import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleAgentCli } from '../../scripts/bundle-agent';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe('bundle-agent', () => {
  it('bundles started together never leave a half-written agent to run (a site started at once)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-bundle-'));
    const outfile = join(dir, 'agent.mjs');
    await bundleAgentCli(outfile);
    const size = (await stat(outfile)).size;
    // What `exec node out/agent/agent.mjs` of another starter would read while these bundle.
    const seen = new Set<number>();
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const text = await readFile(outfile).catch(() => null);
        if (text) seen.add(text.length);
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all([bundleAgentCli(outfile), bundleAgentCli(outfile), bundleAgentCli(outfile)]);
    reading = false;
    await reader;
    expect([...seen]).toEqual([size]);
    // No temporary file is left behind: only the bundle (and any licence file), its chunks and the ZPL worker.
    expect((await readdir(dir)).filter((f) => !f.endsWith('.LEGAL.txt')).sort()).toEqual(['agent.mjs', 'chunks', 'zpl-raster-worker.mjs']);
    expect((await readdir(join(dir, 'chunks'))).some((f) => f.endsWith('.tmp'))).toBe(false);
  }, 60_000);
});
