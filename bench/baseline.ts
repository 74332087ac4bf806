/** The DIY baseline (bench/diy-baseline.sh, a sequential curl + lp loop) over a list of shipments, timed to its exit. */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { PrivateCups } from '../test/support/cups';
import type { SandboxProcess } from './sandbox-process';

const execFileAsync = promisify(execFile);
const SCRIPT = path.join(path.dirname(new URL(import.meta.url).pathname), 'diy-baseline.sh');

export async function runBaseline(o: {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  readonly queue: string;
  readonly ids: readonly string[];
  readonly workDir: string;
  /** label_layout the loop asks for: `printer` (4x6 stock) or a sheet layout (each label alone on an A4 sheet). */
  readonly layout: string;
}): Promise<{ seconds: number; outputs: string[] }> {
  const { sandbox, cups, queue } = o;
  const idsFile = path.join(o.workDir, `diy-ids-${queue}-${o.layout}.txt`);
  await fs.writeFile(idsFile, `${o.ids.join('\n')}\n`);
  const before = (await cups.outputs(queue)).length;
  const t = performance.now();
  await execFileAsync('bash', [SCRIPT, sandbox.baseUrl, sandbox.apiKey, queue, idsFile, o.layout], {
    env: cups.env,
    maxBuffer: 16 * 2 ** 20,
  });
  const seconds = (performance.now() - t) / 1000;
  await cups.waitForJobs({ queue, timeoutMs: 10 * 60_000 });
  return { seconds, outputs: (await cups.outputs(queue)).slice(before) };
}
