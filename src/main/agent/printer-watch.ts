/**
 * The configured printers' own readiness, asked every few seconds whether or not a label
 * waits, so the tray and the window's state bar say "paper out" (or "paused", "head open",
 * "does not answer") as soon as the printer does, not only once a label is stuck behind it.
 */
import type { AgentMessage } from '../../shared/agent-messages';
import type { PrinterMedia, PrinterProblem } from '../../shared/domain';
import type { Readiness } from '../printing/target';
import { PeriodicCheck } from './periodic-check';

export interface PrinterWatchOptions {
  /** The printers to watch (the routing's), with the media each is configured for. */
  readonly printers: () => ReadonlyArray<{ readonly uri: string; readonly media: PrinterMedia }>;
  /** One printer's readiness (PrinterTarget.readiness with its media). */
  readonly readiness: (uri: string, media: PrinterMedia) => Promise<Readiness>;
  /** Something shown changed: a printer became not ready, ready, or its words changed. */
  readonly onChange: () => void;
  /** A printer said it is ready (at each look): its waiting labels may go now. @default none */
  readonly onReady?: (uri: string) => void;
  /**
   * How often the printers are asked. A change shows within this plus one answer (the
   * window and tray promise 10 s). @default 4000
   */
  readonly intervalMs?: number;
  /**
   * The least time between two questions to one printer, where asking costs more than a
   * request (a Windows printer: a PowerShell run). @default intervalMs for every printer
   */
  readonly minGapMs?: (uri: string) => number;
  /** @default Date.now */
  readonly now?: () => number;
}

function same(a: readonly PrinterProblem[], b: readonly PrinterProblem[]): boolean {
  return a.length === b.length && a.every((p, i) => p.uri === b[i]?.uri && p.detail === b[i]?.detail);
}

export class PrinterWatch {
  private readonly periodic: PeriodicCheck;
  private current: PrinterProblem[] = [];
  /** When each printer was last asked, and what it said (kept between sparser questions). */
  private readonly asked = new Map<string, { readonly at: number; readonly problem: PrinterProblem | null }>();

  constructor(private readonly options: PrinterWatchOptions) {
    this.periodic = new PeriodicCheck(() => this.look(), options.intervalMs ?? 4000);
  }

  /** The printers that said they are not ready at the last look, in routing order. */
  problems(): readonly PrinterProblem[] {
    return this.current;
  }

  start(): void {
    this.periodic.start(true);
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** Asks every printer once (a look still running is waited for, not doubled). */
  check(): Promise<void> {
    return this.periodic.run();
  }

  private async look(): Promise<void> {
    const printers = this.options.printers();
    const now = (this.options.now ?? Date.now)();
    const answers = await Promise.all(
      printers.map(async ({ uri, media }): Promise<PrinterProblem | null> => {
        const last = this.asked.get(uri);
        const gap = this.options.minGapMs?.(uri) ?? 0;
        if (last && now - last.at < gap) return last.problem;
        const problem = await this.ask(uri, media);
        this.asked.set(uri, { at: now, problem });
        return problem;
      }),
    );
    const next = answers.filter((p): p is PrinterProblem => p !== null);
    if (same(this.current, next)) return;
    this.current = next;
    this.options.onChange();
  }

  private async ask(uri: string, media: PrinterMedia): Promise<PrinterProblem | null> {
    let readiness: Readiness;
    try {
      readiness = await this.options.readiness(uri, media);
    } catch (error) {
      readiness = { ready: false, detail: (error as Error).message };
    }
    if (readiness.ready === true) this.options.onReady?.(uri);
    // null: cannot be known (service printers); only a printer that says "not ready" is a problem.
    if (readiness.ready !== false) return null;
    const detailMessage: AgentMessage | null = readiness.message ?? null;
    const detail = readiness.detail ?? 'not ready';
    return detailMessage && detailMessage.code !== 'text' ? { uri, detail, detailMessage } : { uri, detail };
  }
}
