/** The burst's --json fields from what was measured (bench/burst-result.ts; names in docs/INTERFACES.md). */
import { describe, expect, it } from 'vitest';
import { burstResult } from '../../bench/burst-result';
import { MEASURED } from '../support/bench-measurements';

describe('burstResult', () => {
  it('reports the default (batched) agent under the established names, against the batched limit', () => {
    const r = burstResult(MEASURED);
    expect(r).toMatchObject({
      shipments: 200,
      agent_s: 2,
      agent_first_label_s: 0.25,
      agent_webhooks_s: 1.5,
      agent_pages: 200,
      agent_jobs: 12,
      agent_batch_max: 25,
      baseline_s: 10,
      baseline_pages: 200,
      limit_s: 1.6,
      limit_fetch_s: 1.6,
      limit_fetch_concurrency: 4,
      limit_fetch_by_concurrency: { '1': 3, '4': 1.6 },
      limit_spool_s: 0.2,
      limit_calls: 9,
      vs_baseline: 5,
      vs_limit: 2 / 1.6,
      agent_labels_per_s: 100,
      baseline_labels_per_s: 20,
    });
  });

  it('takes the larger of fetch-only and spool-only for each limit', () => {
    const spoolBound = burstResult({ ...MEASURED, limit: { ...MEASURED.limit, spoolSeconds: 2.5 } });
    expect(spoolBound.limit_s).toBe(2.5);
    expect(spoolBound.vs_limit).toBe(2 / 2.5);
    // Without batching the spool-only side (2.5 s) is the larger here.
    expect(burstResult(MEASURED).limit_alone_s).toBe(2.5);
  });

  it('keeps the unbatched agent and limit in their own fields', () => {
    const r = burstResult(MEASURED);
    expect(r).toMatchObject({
      agent_alone_s: 4,
      agent_alone_first_label_s: 0.5,
      agent_alone_webhooks_s: 1.75,
      agent_alone_pages: 200,
      agent_alone_jobs: 200,
      vs_baseline_alone: 2.5,
      vs_limit_alone: 4 / 2.5,
      limit_alone_s: 2.5,
      limit_fetch_alone_s: 1.9,
      limit_fetch_alone_concurrency: 8,
      limit_fetch_alone_by_concurrency: { '8': 0.9 },
      limit_spool_alone_s: 2.5,
      limit_spool_lp_s: 5,
      limit_spool_unordered_s: 4,
    });
  });

  it('keeps the agent_batched_* fields as aliases of the default run', () => {
    const r = burstResult(MEASURED);
    expect([r.agent_batched_s, r.agent_batched_first_label_s, r.agent_batched_pages, r.agent_batched_jobs, r.vs_baseline_batched]).toEqual([
      r.agent_s,
      r.agent_first_label_s,
      r.agent_pages,
      r.agent_jobs,
      r.vs_baseline,
    ]);
  });

  it('keeps every field docs/INTERFACES.md names for the burst', () => {
    const r = burstResult(MEASURED);
    for (const name of ['shipments', 'agent_s', 'baseline_s', 'limit_s', 'vs_baseline', 'vs_limit']) {
      expect(typeof (r as unknown as Record<string, unknown>)[name], name).toBe('number');
    }
  });
});
