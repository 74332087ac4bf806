/** The printed table (bench/table.ts): each figure beside its issue-14 target, with the verdict. */
import { describe, expect, it } from 'vitest';
import { burstResult } from '../../bench/burst-result';
import type { BenchReport } from '../../bench/run';
import { renderTable, rows } from '../../bench/table';
import { MEASURED } from '../support/bench-measurements';

function report(over: Partial<BenchReport> = {}): BenchReport {
  return {
    machine: '2 × test cpu',
    date: '2026-11-24T08:00:00.000Z',
    quick: true,
    machine_detail: { summary: '2 × test cpu', cpus: 2, cpuModel: 'test', ramGb: 1, node: 'v20', os: 'Linux', loadAverage: 1 },
    duration_s: 1,
    ...over,
  };
}

const row = (r: BenchReport, start: string) => rows(r).find((x) => x.metric.startsWith(start));

describe('bench table', () => {
  it('judges the burst against the batched limit (≤ 1.25×) and the DIY loop (≥ 3×)', () => {
    const r = report({ burst: burstResult(MEASURED) });
    expect(row(r, 'burst: vs limit')).toEqual({
      metric: 'burst: vs limit (agent ÷ limit with batching)',
      value: '1.25×',
      target: '≤ 1.25× the batched limit',
      met: true,
    });
    expect(row(r, 'burst: vs baseline')).toMatchObject({ value: '5.00×', target: '≥ 3×', met: true });
    const slow = report({ burst: burstResult({ ...MEASURED, agent: { ...MEASURED.agent, seconds: 4 } }) });
    expect(row(slow, 'burst: vs limit')).toMatchObject({ value: '2.50×', met: false });
    expect(row(slow, 'burst: vs baseline')).toMatchObject({ value: '2.50×', met: false });
  });

  it('shows the default agent, the agent alone and both limits with their parts', () => {
    const r = report({ burst: burstResult(MEASURED) });
    expect(row(r, 'burst: 200 labels, agent')).toMatchObject({
      metric: 'burst: 200 labels, agent as it runs by default (--batch-max 25)',
      value: '2.0 s (100.0 labels/s), 12 spooler jobs; webhooks all in after 1.50 s',
    });
    expect(row(r, 'burst: agent, each label alone')?.value).toBe('4.0 s, 200 spooler jobs; first label 500 ms');
    expect(row(r, 'burst: limit with batching')?.value).toBe(
      '1.60 s (fetch 1.60 s at 4, 9 calls: 1 alone, then ≤ 25; IPP spool in order 0.20 s)',
    );
    expect(row(r, '  fetch-only with batching')?.value).toBe('1: 3.00 s, 4: 1.60 s');
    expect(row(r, 'burst: limit without batching')?.value).toBe(
      '2.50 s (fetch 1.90 s at 8; IPP in order 2.50 s; lp in order 5.0 s, unordered ×4 4.0 s)',
    );
    expect(row(r, '  each label alone')).toMatchObject({ value: '2.50×; 1.60×', met: null });
    expect(row(r, 'burst: first label')).toMatchObject({ value: '250 ms', target: '≤ 300 ms', met: true });
  });

  it('lists pages used on each sheet layout, agent against the DIY loop', () => {
    const r = report({
      sheet_pages: [
        { layout: '2x2', labels: 40, agent_pages: 12, agent_jobs: 3, agent_batch_max: 25, baseline_pages: 40, fewest_pages: 10 },
        { layout: '3x1', labels: 40, agent_pages: 15, agent_jobs: 3, agent_batch_max: 25, baseline_pages: 40, fewest_pages: 14 },
      ],
    });
    expect(rows(r).map((x) => [x.metric, x.value])).toEqual([
      ['sheets 2x2: 40 labels on A4, pages agent / DIY', '12 / 40 (fewest possible 10; agent 3 spooler jobs)'],
      ['sheets 3x1: 40 labels on A4, pages agent / DIY', '15 / 40 (fewest possible 14; agent 3 spooler jobs)'],
    ]);
  });

  it('prints a verdict column: met or MISSED, blank without a target', () => {
    const slow = report({ burst: burstResult({ ...MEASURED, agent: { ...MEASURED.agent, seconds: 4 } }) });
    const lines = renderTable(slow).split('\n');
    expect(lines[0]).toBe('Print Station benchmarks, 2026-11-24T08:00:00.000Z (quick)');
    expect(lines[1]).toBe('2 × test cpu; 1-minute load average 1 at the start (compare figures of one run only)');
    expect(lines.find((l) => l.startsWith('burst: vs limit'))).toMatch(/2\.50×\s+≤ 1\.25× the batched limit\s+MISSED$/);
    expect(lines.find((l) => l.startsWith('burst: DIY baseline'))).toMatch(/labels\/s\)$/);
  });
});
