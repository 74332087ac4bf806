import type { AgentMessage } from '../../shared/agent-messages';
import type { JobView, LabelLayout } from '../../shared/domain';
import { CodedError } from '../errors';
import { findPrinter, layoutOn, printersOf } from '../printing/routing';
import type { StoredSettings } from '../settings/settings-store';
import { PeriodicCheck } from './periodic-check';

/*
 * A label printer that stops (CUPS: stopped, rejecting, media empty, jobs failing; Windows:
 * offline) stops its own line in the pipeline (Lane.down). This watcher looks at those lines:
 * for a label printer with `fallback.auto` it moves the waiting labels to the fallback A4
 * printer itself; otherwise it offers the move once per outage (an event), and
 * AgentApi.moveToFallback does it when a person says so.
 */

export interface FallbackPipeline {
  downPrinters(): ReadonlyArray<{ readonly target: string; readonly advice: string; readonly adviceMessage?: AgentMessage }>;
  moveWaiting(from: string, to: string, layout: LabelLayout, documentTypes?: readonly string[]): Promise<JobView[]>;
}

export interface FallbackOffer {
  /** The stopped label printer's URI. */
  readonly printer: string;
  /** What the printer said. */
  readonly advice: string;
  /** `advice` as a message code, for the UI's languages. */
  readonly adviceMessage?: AgentMessage;
  /** The configured fallback printer's URI; null when none is set (choose one in moveToFallback). */
  readonly fallback: string | null;
}

export interface FallbackWatcherOptions {
  readonly pipeline: FallbackPipeline;
  readonly routing: () => StoredSettings['routing'];
  /** A stopped label printer without `auto`: offer the move (the agent emits an event). */
  readonly onOffer: (offer: FallbackOffer) => void;
  /**
   * A stopped label printer with no fallback set and no other A4 or Letter printer on the
   * station to take its labels as sheets: nothing to offer, so it is told as what it is (its
   * labels wait and print once it is ready), once per outage. @default nothing
   */
  readonly onStopped?: (stopped: Omit<FallbackOffer, 'fallback'>) => void;
  /** Labels moved (automatically or on request). */
  readonly onMoved: (printer: string, to: string, jobs: readonly JobView[]) => void;
  readonly onError: (error: Error) => void;
  /** How often down lines are looked at. @default 2000 */
  readonly intervalMs?: number;
}

export class FallbackError extends CodedError {
  constructor(message: string) {
    super('FALLBACK_INVALID', message);
  }
}

export class FallbackWatcher {
  private readonly offered = new Set<string>();
  private readonly periodic: PeriodicCheck;

  constructor(private readonly options: FallbackWatcherOptions) {
    this.periodic = new PeriodicCheck(() => this.checkOnce(), options.intervalMs ?? 2000);
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** One look at the down lines; concurrent calls share one run. */
  check(): Promise<void> {
    return this.periodic.run();
  }

  /**
   * Moves `printer`'s waiting labels to `to` (default: its configured fallback), as sheets in
   * the A4 printer's layout (`a4` unless set for it). Each label moves once; calling it again
   * moves only labels that arrived since.
   */
  async moveToFallback(printer: string, to?: string): Promise<JobView[]> {
    const routing = this.options.routing();
    const from = findPrinter(routing, printer);
    const fromUri = from?.uri ?? printer;
    const choice = to ?? from?.fallback?.printer;
    if (!choice) throw new FallbackError(`No fallback printer is set for "${printer}": choose an A4 printer to send its labels to.`);
    const target = findPrinter(routing, choice);
    if (!target || (target.media !== 'a4' && target.media !== 'letter')) {
      throw new FallbackError(`"${choice}" is not an A4 or Letter printer of this station: choose one from Settings → Printers.`);
    }
    if (target.uri === fromUri) throw new FallbackError(`"${choice}" is the stopped printer itself: choose another A4 printer.`);
    const jobs = await this.options.pipeline.moveWaiting(fromUri, target.uri, layoutOn(target, 'label'));
    if (jobs.length > 0) this.options.onMoved(fromUri, target.uri, jobs);
    return jobs;
  }

  private async checkOnce(): Promise<void> {
    const down = this.options.pipeline.downPrinters();
    const downUris = new Set(down.map((d) => d.target));
    for (const uri of this.offered) if (!downUris.has(uri)) this.offered.delete(uri); // back: a new outage offers again
    const routing = this.options.routing();
    for (const { target, advice, adviceMessage } of down) {
      const printer = printersOf(routing).find((p) => p.uri === target);
      if (!printer || layoutOn(printer, 'label') !== 'printer') continue; // only label printers fall back
      try {
        if (printer.fallback?.auto) {
          await this.moveToFallback(target);
        } else if (!this.offered.has(target)) {
          this.offered.add(target);
          const fallback = printer.fallback ? (findPrinter(routing, printer.fallback.printer)?.uri ?? printer.fallback.printer) : null;
          const sheets = printersOf(routing).some((p) => p.uri !== target && (p.media === 'a4' || p.media === 'letter'));
          const stopped = { printer: target, advice, ...(adviceMessage ? { adviceMessage } : {}) };
          // An offer to move labels nowhere would be untrue: the station has no A4 printer for them.
          if (fallback === null && !sheets) this.options.onStopped?.(stopped);
          else this.options.onOffer({ ...stopped, fallback });
        }
      } catch (error) {
        this.options.onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
