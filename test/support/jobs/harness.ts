import path from 'node:path';
import type { JobView } from '../../../src/shared/domain';
import { Ledger } from '../../../src/main/ledger/ledger';
import type { Engine } from '../../../src/main/jobs/engine';
import type { PrintPipeline, PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { buildEngine, buildPipeline, type PipelineParts } from './builder';
import { tempDir } from './fakes';

/**
 * A ledger in a temp dir and pipelines over it, with every target routed by URI: one
 * label target for every document type unless `route` says otherwise.
 */
export class Harness {
  readonly tmp: { dir: string; cleanup: () => void };
  readonly file: string;
  ledger: Ledger;
  readonly changes: JobView[] = [];
  private readonly pipelines: PrintPipeline[] = [];

  /** `parent`: where the ledger's temp dir is made (a small disk a test fills up). @default os.tmpdir() */
  constructor(
    readonly targets: ReadonlyMap<string, PrinterTarget>,
    private readonly labelTarget: string,
    parent?: string,
  ) {
    this.tmp = tempDir('ps-pipe-', parent);
    this.file = path.join(this.tmp.dir, 'ledger.sqlite');
    this.ledger = Ledger.open({ path: this.file, pruneIntervalMs: 0 });
  }

  /** A pipeline over this ledger and these targets (builder.ts), its job changes kept in `changes`. */
  pipeline(extra: Partial<PrintPipelineOptions> = {}): PrintPipeline {
    return buildPipeline(this.parts, { onJobChange: (job) => this.changes.push(job), ...extra }, this.pipelines);
  }

  /** The engine over this ledger and these targets (builder.ts), for tests of its parts. */
  engine(extra: Partial<PrintPipelineOptions> = {}): Engine {
    return buildEngine(this.parts, extra);
  }

  private get parts(): PipelineParts {
    return { ledger: this.ledger, targets: this.targets, labels: this.labelTarget };
  }

  /** Stop every pipeline and reopen the ledger, as a restarted agent would. */
  async restart(): Promise<void> {
    for (const p of this.pipelines.splice(0)) await p.stop();
    this.ledger.close();
    this.ledger = Ledger.open({ path: this.file, pruneIntervalMs: 0 });
  }

  async close(): Promise<void> {
    for (const p of this.pipelines.splice(0)) await p.stop();
    this.ledger.close();
    this.tmp.cleanup();
  }
}

export const until = async (cond: () => boolean, timeoutMs = 5000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};
