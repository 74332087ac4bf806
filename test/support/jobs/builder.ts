import type { LabelLayout } from '../../../src/shared/domain';
import { Engine } from '../../../src/main/jobs/engine';
import { PrintPipeline, type PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import type { PipelineLedger } from '../../../src/main/jobs/ports';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { ScriptedFetcher } from './fakes';

/**
 * What a pipeline test runs with unless it says otherwise: short backoffs (5 ms doubling to
 * 20 ms), a spooler followed every 10 ms, and no settle time before a crash's recovery.
 */
export const TEST_TIMINGS = {
  retryBaseMs: 5,
  retryMaxMs: 20,
  followIntervalMs: 10,
  reconcileSettleMs: 0,
} as const satisfies Partial<PrintPipelineOptions>;

export interface PipelineParts {
  readonly ledger: PipelineLedger;
  /**
   * One target that every printer URI resolves to, or targets by URI (a URI without one
   * throws, as an unknown printer would).
   */
  readonly targets: PrinterTarget | ReadonlyMap<string, PrinterTarget>;
  /** Where every job is routed unless `route` says otherwise. @default the single target's URI */
  readonly labels?: string;
  /** The layout of that route (media `label` for `printer`, else `a4`). @default 'printer' */
  readonly layout?: LabelLayout;
}

/**
 * A pipeline's options over `parts`: a scripted fetcher, TEST_TIMINGS, one route for every
 * document type; `extra` overrides any of them.
 */
export function pipelineOptions(parts: PipelineParts, extra: Partial<PrintPipelineOptions> = {}): PrintPipelineOptions {
  const { targets } = parts;
  const single = targets instanceof Map ? null : (targets as PrinterTarget);
  const byUri = targets as ReadonlyMap<string, PrinterTarget>;
  const labels = parts.labels ?? single?.uri;
  if (!labels) throw new TypeError('pipelineOptions: say which URI jobs go to (labels)');
  const layout = parts.layout ?? 'printer';
  return {
    ledger: parts.ledger,
    fetcher: new ScriptedFetcher(),
    targetFor: single
      ? () => single
      : (uri) => {
          const target = byUri.get(uri);
          if (!target) throw new Error(`no target ${uri}`);
          return target;
        },
    route: () => ({ target: labels, layout, media: layout === 'printer' ? 'label' : 'a4' }),
    ...TEST_TIMINGS,
    ...extra,
  };
}

/** A pipeline over `parts` (pipelineOptions), added to `keep` for the test's afterEach to stop. */
export function buildPipeline(parts: PipelineParts, extra: Partial<PrintPipelineOptions> = {}, keep?: PrintPipeline[]): PrintPipeline {
  const pipeline = new PrintPipeline(pipelineOptions(parts, extra));
  keep?.push(pipeline);
  return pipeline;
}

/** The engine behind a pipeline, for tests that drive its scheduler, runner and steps directly. */
export function buildEngine(parts: PipelineParts, extra: Partial<PrintPipelineOptions> = {}): Engine {
  return new Engine(pipelineOptions(parts, extra));
}
