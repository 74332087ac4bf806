/**
 * Pages used on sheet layouts: a burst of labels to an A4 label printer
 * (a sink queue of the private cupsd; the station's settings say the printer holds A4 sheets
 * in layout L), once through the agent as it runs by default (batching on: a batch fills the
 * sheets) and once through the DIY loop (each label its own print call and `lp`, so its own
 * sheet). Pages are counted with pdf-lib in the PDFs the queue received. No timing target.
 */
import type { PrivateCups } from '../test/support/cups';
import { runAgentBurst } from './agent-burst';
import { runBaseline } from './baseline';
import { BATCH_MAX } from './burst';
import { fewestSheets, pagesOf, SHEET_LAYOUTS, type SheetLayout } from './pages';
import type { SandboxProcess } from './sandbox-process';

export interface SheetPages {
  readonly layout: SheetLayout;
  readonly labels: number;
  /** Pages of the default agent's (--batch-max agent_batch_max) spooler jobs. */
  readonly agent_pages: number;
  readonly agent_jobs: number;
  readonly agent_batch_max: number;
  /** Pages of the DIY loop's jobs (one a label). */
  readonly baseline_pages: number;
  /** Every sheet full but the last: labels ÷ labels a sheet, rounded up. */
  readonly fewest_pages: number;
}

export interface SheetsContext {
  readonly sandbox: SandboxProcess;
  readonly cups: PrivateCups;
  /** A sink queue standing for an A4 label printer. */
  readonly queue: string;
  readonly labels: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
  /** @default all three sheet layouts */
  readonly layouts?: readonly SheetLayout[];
}

export async function runSheets(ctx: SheetsContext): Promise<SheetPages[]> {
  const { sandbox, cups, queue, labels, workDir, log } = ctx;
  const shipments = await sandbox.book(labels, 'SHEET');
  const ids = shipments.map((s) => s.shipmentId);
  const out: SheetPages[] = [];
  for (const layout of ctx.layouts ?? SHEET_LAYOUTS) {
    const agent = await runAgentBurst(
      { sandbox, cups, queue, workDir, log, name: `sheets-${layout}`, batchMax: BATCH_MAX, sheetLayout: layout },
      shipments,
    );
    const baseline = await runBaseline({ sandbox, cups, queue, ids, workDir, layout });
    const row: SheetPages = {
      layout,
      labels,
      agent_pages: await pagesOf(agent.outputs),
      agent_jobs: agent.outputs.length,
      agent_batch_max: BATCH_MAX,
      baseline_pages: await pagesOf(baseline.outputs),
      fewest_pages: fewestSheets(layout, labels),
    };
    log(`sheets ${layout}: agent ${row.agent_pages} pages in ${row.agent_jobs} jobs, DIY ${row.baseline_pages} pages`);
    out.push(row);
  }
  return out;
}
