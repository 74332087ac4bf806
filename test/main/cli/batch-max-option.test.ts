import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_USAGE, parseAgentOptions, pipelineTuning } from '../../../src/main/cli/options';
import { resolveSettings } from '../../../src/main/jobs/pipeline-options';
import type { PrintPipelineOptions } from '../../../src/main/jobs/pipeline';

let dir: string;
let config: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-batch-max-'));
  config = join(dir, 'agent.json');
  await writeFile(config, JSON.stringify({ batchMax: 1 }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const batchMax = (argv: string[]) => parseAgentOptions(argv, {}, () => {}).batchMax;
/** The pipeline's batchMax for the tuning the agent and the demo pass (pipelineTuning), the pipeline's defaults filled in. */
const pipelineBatchMax = (value: number | null) =>
  resolveSettings({ ...pipelineTuning({ batchMax: value })?.pipeline } as PrintPipelineOptions).batchMax;

describe('--batch-max', () => {
  it('is left to the pipeline when absent, which batches up to 25 shipments', () => {
    expect(batchMax([])).toBeNull();
    expect(pipelineTuning({ batchMax: null })).toBeUndefined();
    expect(pipelineBatchMax(batchMax([]))).toBe(25);
  });

  it('takes 1 to 25 from the command line or batchMax in --config; the command line wins', () => {
    expect(batchMax(['--batch-max', '1'])).toBe(1);
    expect(pipelineBatchMax(batchMax(['--batch-max', '1']))).toBe(1);
    expect(batchMax(['--batch-max', '25'])).toBe(25);
    expect(batchMax(['--config', config])).toBe(1);
    expect(batchMax(['--config', config, '--batch-max', '10'])).toBe(10);
  });

  it('refuses anything outside 1 to 25 with the range', () => {
    expect(() => batchMax(['--batch-max', '0'])).toThrow('--batch-max must be a number from 1 to 25, got "0"');
    expect(() => batchMax(['--batch-max', '26'])).toThrow('--batch-max must be a number from 1 to 25, got "26"');
  });

  it('--help states the default and how to turn batching off', () => {
    expect(AGENT_USAGE).toContain('--batch-max N');
    expect(AGENT_USAGE).toContain('(1-25; default 25; 1 = each label alone)');
  });
});
