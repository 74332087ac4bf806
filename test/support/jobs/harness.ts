import path from 'node:path';
import type { JobView } from '../../../src/shared/domain';
import { Ledger } from '../../../src/main/ledger/ledger';
import { PrintPipeline, type PrintPipelineOptions } from '../../../src/main/jobs/pipeline';
import type { PdfFetcher, RouteDecision } from '../../../src/main/jobs/ports';
import type { PrinterTarget } from '../../../src/main/printing/target';
import { ScriptedFetcher, tempDir } from './fakes';

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

  pipeline(extra: Partial<PrintPipelineOptions> & { fetcher?: PdfFetcher } = {}): PrintPipeline {
    const route = (): RouteDecision => ({ target: this.labelTarget, layout: 'printer', media: 'label' });
    const p = new PrintPipeline({
      ledger: this.ledger,
      fetcher: new ScriptedFetcher(),
      targetFor: (uri) => {
        const t = this.targets.get(uri);
        if (!t) throw new Error(`no target ${uri}`);
        return t;
      },
      route,
      retryBaseMs: 5,
      retryMaxMs: 20,
      followIntervalMs: 10,
      reconcileSettleMs: 0,
      onJobChange: (job) => this.changes.push(job),
      ...extra,
    });
    this.pipelines.push(p);
    return p;
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
