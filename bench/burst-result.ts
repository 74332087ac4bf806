/**
 * The burst's `--json` fields (docs/INTERFACES.md), from what burst.ts measured. Kept apart
 * from the measuring so the mapping is tested (test/bench/burst-result.test.ts).
 *
 * `agent_*` is the agent as a station runs it by default: batching on (--batch-max
 * agent_batch_max). `agent_alone_*` is the same burst with --batch-max 1 (each label its own
 * print call and spool job, the agent before batching). `limit_*` is the limit with batching
 * (the calls the agent makes at best: printCalls in limit.ts); `limit_*alone*` the limit with
 * one shipment a call, as measured before batching, so old and new runs stay comparable.
 */

/** One agent run over the burst (bench/agent-burst.ts). */
export interface AgentRun {
  readonly seconds: number;
  /** First label spooled, seconds after the first webhook. */
  readonly first: number;
  /** Last webhook acknowledged, seconds after the first was sent. */
  readonly delivered: number;
  readonly pages: number;
  /** Spooler jobs the run put on the queue. */
  readonly jobs: number;
}

export interface BurstMeasurements {
  readonly shipments: number;
  /** The default configuration: --batch-max batchMax. */
  readonly agent: AgentRun;
  readonly batchMax: number;
  /** --batch-max 1. */
  readonly agentAlone: AgentRun;
  readonly baseline: { readonly seconds: number; readonly pages: number };
  readonly limit: {
    readonly fetchSeconds: number;
    readonly fetchConcurrency: number;
    readonly fetchByConcurrency: Readonly<Record<string, number>>;
    readonly spoolSeconds: number;
    /** Print calls (= spool jobs) the batched limit made. */
    readonly calls: number;
  };
  readonly limitAlone: {
    readonly fetchSeconds: number;
    readonly fetchConcurrency: number;
    readonly fetchByConcurrency: Readonly<Record<string, number>>;
    readonly spoolSeconds: number;
    readonly spoolLpSeconds: number;
    readonly spoolLpUnorderedSeconds: number;
  };
}

export interface BurstResult {
  readonly shipments: number;
  /** The default agent (batching on, --batch-max agent_batch_max): first webhook → last label spooled. */
  readonly agent_s: number;
  readonly baseline_s: number;
  /** With batching: the larger of limit_fetch_s and limit_spool_s. */
  readonly limit_s: number;
  /** baseline_s / agent_s */
  readonly vs_baseline: number;
  /** agent_s / limit_s (1.0 = at the limit) */
  readonly vs_limit: number;
  readonly agent_labels_per_s: number;
  readonly baseline_labels_per_s: number;
  /** Time to the first label spooled, from the first webhook sent (default agent). */
  readonly agent_first_label_s: number;
  /** First webhook sent → last webhook acknowledged by the default agent (the burst's arrival). */
  readonly agent_webhooks_s: number;
  /** Pages the default agent's jobs put on the queue (label layout `printer`: one a label). */
  readonly agent_pages: number;
  /** Spooler jobs the default agent made. */
  readonly agent_jobs: number;
  /** The default agent's --batch-max. */
  readonly agent_batch_max: number;
  readonly baseline_pages: number;

  /** The same burst with --batch-max 1: every label its own print call and spool job. */
  readonly agent_alone_s: number;
  readonly agent_alone_first_label_s: number;
  readonly agent_alone_webhooks_s: number;
  readonly agent_alone_pages: number;
  readonly agent_alone_jobs: number;
  /** baseline_s / agent_alone_s */
  readonly vs_baseline_alone: number;
  /** agent_alone_s / limit_alone_s: the unbatched agent against the unbatched limit. */
  readonly vs_limit_alone: number;

  /** Fetch-only with batching: the first shipment alone, then agent_batch_max a call, at the best concurrency. */
  readonly limit_fetch_s: number;
  readonly limit_fetch_concurrency: number;
  /** Fetch-only with batching at each concurrency tried (the whole set each time). */
  readonly limit_fetch_by_concurrency: Readonly<Record<string, number>>;
  /** Spool-only with batching: the batched PDFs, IPP Print-Job one after another in order. */
  readonly limit_spool_s: number;
  /** Print calls and spool jobs of the batched limit. */
  readonly limit_calls: number;

  /** Without batching (every shipment alone): the larger of limit_fetch_alone_s and limit_spool_alone_s. */
  readonly limit_alone_s: number;
  readonly limit_fetch_alone_s: number;
  readonly limit_fetch_alone_concurrency: number;
  /** Seconds for the first 100 shipments at each concurrency tried (the best one then fetched them all). */
  readonly limit_fetch_alone_by_concurrency: Readonly<Record<string, number>>;
  /** IPP Print-Job for every single-label PDF, in booking order. */
  readonly limit_spool_alone_s: number;
  /** lp one after another, in booking order: the spool limit before IPP, for reference. */
  readonly limit_spool_lp_s: number;
  /** lp four at a time, order not kept: for reference, not the limit. */
  readonly limit_spool_unordered_s: number;

  /** @deprecated = agent_s (the default agent is the batched one); kept for older readers. */
  readonly agent_batched_s: number;
  /** @deprecated = agent_first_label_s */
  readonly agent_batched_first_label_s: number;
  /** @deprecated = agent_pages */
  readonly agent_batched_pages: number;
  /** @deprecated = agent_jobs */
  readonly agent_batched_jobs: number;
  /** @deprecated = vs_baseline */
  readonly vs_baseline_batched: number;
}

export function burstResult(m: BurstMeasurements): BurstResult {
  const { agent, agentAlone, baseline, limit, limitAlone } = m;
  const limitSeconds = Math.max(limit.fetchSeconds, limit.spoolSeconds);
  const limitAloneSeconds = Math.max(limitAlone.fetchSeconds, limitAlone.spoolSeconds);
  return {
    shipments: m.shipments,
    agent_s: agent.seconds,
    baseline_s: baseline.seconds,
    limit_s: limitSeconds,
    vs_baseline: baseline.seconds / agent.seconds,
    vs_limit: agent.seconds / limitSeconds,
    agent_labels_per_s: m.shipments / agent.seconds,
    baseline_labels_per_s: m.shipments / baseline.seconds,
    agent_first_label_s: agent.first,
    agent_webhooks_s: agent.delivered,
    agent_pages: agent.pages,
    agent_jobs: agent.jobs,
    agent_batch_max: m.batchMax,
    baseline_pages: baseline.pages,

    agent_alone_s: agentAlone.seconds,
    agent_alone_first_label_s: agentAlone.first,
    agent_alone_webhooks_s: agentAlone.delivered,
    agent_alone_pages: agentAlone.pages,
    agent_alone_jobs: agentAlone.jobs,
    vs_baseline_alone: baseline.seconds / agentAlone.seconds,
    vs_limit_alone: agentAlone.seconds / limitAloneSeconds,

    limit_fetch_s: limit.fetchSeconds,
    limit_fetch_concurrency: limit.fetchConcurrency,
    limit_fetch_by_concurrency: limit.fetchByConcurrency,
    limit_spool_s: limit.spoolSeconds,
    limit_calls: limit.calls,

    limit_alone_s: limitAloneSeconds,
    limit_fetch_alone_s: limitAlone.fetchSeconds,
    limit_fetch_alone_concurrency: limitAlone.fetchConcurrency,
    limit_fetch_alone_by_concurrency: limitAlone.fetchByConcurrency,
    limit_spool_alone_s: limitAlone.spoolSeconds,
    limit_spool_lp_s: limitAlone.spoolLpSeconds,
    limit_spool_unordered_s: limitAlone.spoolLpUnorderedSeconds,

    agent_batched_s: agent.seconds,
    agent_batched_first_label_s: agent.first,
    agent_batched_pages: agent.pages,
    agent_batched_jobs: agent.jobs,
    vs_baseline_batched: baseline.seconds / agent.seconds,
  };
}
