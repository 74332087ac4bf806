/**
 * The agent bundle carries the raw ZPL printers' rendering thread: `bundleAgentCli` writes
 * zpl-raster-worker.mjs beside agent.mjs, and bundled code finds it there (the pool looks
 * beside its own module, which in a bundle is the bundle file).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAgentCli } from '../../scripts/bundle-agent';
import { renderDocument } from '../../src/sandbox/documents/render';
import { labelShipment } from '../support/label-shipment';

const ROOT = process.cwd();
let dir: string;

beforeAll(async () => {
  // Inside the project (out/ is not tracked), so the bundles resolve mupdf from its node_modules as out/agent does.
  await mkdir(join(ROOT, 'out'), { recursive: true });
  dir = await mkdtemp(join(ROOT, 'out', 'bundle-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const shipment = labelShipment(1, { trackingId: '00370712345678901234', parcels: 2 });

describe('the agent bundle', () => {
  it('has the ZPL rendering thread beside it, and bundled code renders labels on that thread', { timeout: 120_000 }, async () => {
    const agent = await bundleAgentCli(join(dir, 'agent.mjs'));
    expect(existsSync(join(dir, 'zpl-raster-worker.mjs'))).toBe(true);
    // Bundled like the agent, into the same folder: the pool as the bundled agent holds it.
    const probe = join(dir, 'probe.mjs');
    await writeFile(
      join(dir, 'probe-entry.ts'),
      `import { readFileSync } from 'node:fs';
import { pdfToZplOffThread, rasterWorkerRunning } from ${JSON.stringify(join(ROOT, 'src/main/printing/zpl/zpl-raster-pool.ts'))};
import { mupdfLoaded } from ${JSON.stringify(join(ROOT, 'src/main/printing/zpl/zpl-raster.ts'))};
const labels = await pdfToZplOffThread(new Uint8Array(readFileSync(process.argv[2])), { dpi: 203 });
process.stdout.write(JSON.stringify({ labels: labels.length, worker: rasterWorkerRunning(), mupdfHere: mupdfLoaded() }));
process.exit(0);
`,
    );
    await build({
      entryPoints: [join(dir, 'probe-entry.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: probe,
      external: ['mupdf'],
      logLevel: 'warning',
    });
    const pdf = join(dir, 'labels.pdf');
    await writeFile(pdf, await renderDocument({ shipments: [shipment], documentType: 'label', layout: 'printer' }));
    const result = JSON.parse(execFileSync(process.execPath, [probe, pdf], { cwd: dir, encoding: 'utf8' })) as unknown;
    expect(result).toEqual({ labels: 2, worker: true, mupdfHere: false });
    expect(existsSync(agent)).toBe(true);
  });
});
