import { PRINT_ERROR_CODES, PrintError } from '../errors';
import { agentMessage, zplPrinterName, type ZplCondition } from '../../../shared/agent-messages';
import { notReady, type PrinterTarget, type Readiness, type SpoolerJobState, type SpoolRequest, type SpoolResult } from '../target';
import { ZplConnection, ZplConnectionError } from './zpl-connection';
import { dpiOfDotsPerMm, type ZplDpi } from './zpl-raster';
import {
  drained,
  statesCounts,
  parseErrorStatus,
  parseHostStatus,
  parseIdentity,
  statusConditions,
  type ZplHostStatus,
  type ZplIdentity,
} from './zpl-status';
import { labelsFor } from './zpl-labels';

export interface ZplTargetOptions {
  readonly uri: string;
  readonly host: string;
  /** @default 9100 */
  readonly port?: number;
  /** From the URI's `?dpi=`; null: asked from the printer with `~HI`. @default null */
  readonly dpi?: ZplDpi | null;
  /** Connecting may take this long before the printer counts as down. @default 5000 */
  readonly timeoutMs?: number;
  /**
   * Each answer to `~HS`/`~HI` may take this long (a printer answers in milliseconds); a
   * `~HS` left unanswered is asked again as `~HQES`, which newer firmware answers while out
   * of media or ribbon or with the head open. @default 2000
   */
  readonly answerTimeoutMs?: number;
  /**
   * The least time between two `~HS` questions while following printed labels (the
   * follower ticks every 500 ms or faster; a printer answers in a millisecond, but each
   * question is a connection). Asked sooner, jobStates answers nothing new. @default 250
   */
  readonly statusEveryMs?: number;
  /**
   * Handing a job's labels to the printer may take this long in all; a printer that stops
   * reading is dropped then, and the job may have printed. @default 30 s + 1 s per 64 KB of ZPL
   */
  readonly sendTimeoutMs?: number;
  /**
   * How long one label may take to print: the answer to `~HS` after a job's labels is waited
   * for `answerTimeoutMs` plus this per label (at most 2 minutes), since some printers answer
   * it only once they have printed them. No answer by then: the job may have printed. @default 2000
   */
  readonly msPerLabel?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/**
 * The resolution labels are rendered at when neither the URI (`?dpi=`) nor the printer
 * (`~HI`) says it: 203 dpi, the resolution of most 4x6 label printers. A 300 dpi printer
 * then prints them at two thirds of their size, so readiness says to set `?dpi=`.
 */
export const ZPL_FALLBACK_DPI: ZplDpi = 203;

/** How long a job's ZPL may take to hand over: 30 s, and a second more per 64 KB. */
function sendDeadlineMs(bytes: number): number {
  return 30_000 + Math.ceil(bytes / 65_536) * 1000;
}

/** Status asked on an open connection and not answered at all: a device that only takes bytes. */
const SILENT = Symbol('silent');

/** How long `~HS` is waited for from a printer that did not answer it last time. */
const SILENT_WAIT_MS = 500;

/** The longest wait for `~HS` after a job's labels, however many labels it has. */
const MAX_AFTER_LABELS_WAIT_MS = 120_000;

/** Labels in a job's ZPL: its formats, each times its `^PQ` copies. */
function labelCount(zpl: Buffer): number {
  let labels = 0;
  for (const format of zpl.toString('latin1').split('^XZ')) {
    if (format.includes('^XA')) labels += Math.max(1, Number(/\^PQ(\d+)/.exec(format)?.[1] ?? 1));
  }
  return labels;
}

/** Words on a job sent to a printer that cannot say whether it printed. */
export const ZPL_UNCONFIRMED_NOTE = 'labels are sent, but whether they printed cannot be confirmed: check the printer';

/** What `~HS` means for one printer: a PrintError naming its conditions, in the printer's words. */
function notReadyError(uri: string, address: string, model: string | null, conditions: readonly ZplCondition[]): PrintError {
  return new PrintError(PRINT_ERROR_CODES.PRINTER_DISABLED, agentMessage('printer.zplNotReady', { address, model, conditions }), {
    target: uri,
  });
}

/**
 * A ZPL printer on the network (`zpl://HOST[:PORT][?dpi=N]`), spoken to directly on its raw
 * port: each PDF page rasterized at the printer's resolution and sent as a ZPL graphic. The
 * printer's own status is the truth: `~HS` before a job (paper out, head open, ribbon out,
 * paused or a full buffer refuse it, and its labels wait) and after it; a job counts as
 * printed once the printer's formats in buffer and labels remaining have drained, not when
 * the bytes were sent.
 */
export class ZplTarget implements PrinterTarget {
  readonly kind = 'zpl' as const;
  readonly needsPdf = true;
  /** Labels already sent cannot be listed from the printer after a restart. */
  readonly reconcilable = false;
  readonly uri: string;
  readonly host: string;
  readonly port: number;
  private dpi: ZplDpi | null;
  private identity: ZplIdentity | null = null;
  /** `~HI` was asked (answered or not): with the dpi in the URI it is not asked before every job. */
  private identityAsked = false;
  /** `~HI` went unanswered and the URI has no `?dpi=`: labels are rendered at ZPL_FALLBACK_DPI. */
  private dpiAssumed = false;
  /** The printer took a connection and answered neither `~HS` nor `~HQES` the last time it was asked. */
  private silent = false;
  /**
   * It answered `~HS` on a fresh connection during this run: it is a printer that reports
   * its state, and its silence later means it hangs or is switched off behind a print
   * server, not that it is a device that never says anything. Its labels then wait.
   */
  private reportsState = false;
  private readonly timeoutMs: number;
  private readonly answerTimeoutMs: number;
  private readonly statusEveryMs: number;
  private readonly sendTimeoutMs: number | null;
  private readonly msPerLabel: number;
  private readonly now: () => number;
  private sequence = 0;
  /** Jobs sent and not yet seen drained. */
  private readonly outstanding = new Set<string>();
  private askedAt = Number.NEGATIVE_INFINITY;
  /** The end of the last connection's turn (see session). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(options: ZplTargetOptions) {
    this.uri = options.uri;
    this.host = options.host;
    this.port = options.port ?? 9100;
    this.dpi = options.dpi ?? null;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.answerTimeoutMs = options.answerTimeoutMs ?? 2000;
    this.statusEveryMs = options.statusEveryMs ?? 250;
    this.sendTimeoutMs = options.sendTimeoutMs ?? null;
    this.msPerLabel = options.msPerLabel ?? 2000;
    this.now = options.now ?? Date.now;
  }

  private get address(): string {
    return this.host.includes(':') ? `[${this.host}]:${this.port}` : `${this.host}:${this.port}`;
  }

  /** The printer named as people see it: its model when `~HI` told it. */
  private get who(): string {
    return `ZPL printer ${zplPrinterName({ address: this.address, model: this.model })}`;
  }

  private get model(): string | null {
    return this.identity?.model ?? null;
  }

  private down(error: unknown): PrintError {
    const reason = (error as Error).message;
    return new PrintError(
      PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE,
      agentMessage('printer.zplNoAnswer', { address: this.address, model: this.model, reason }),
      { cause: error, target: this.uri, printerDown: true },
    );
  }

  private async open(): Promise<ZplConnection> {
    try {
      return await ZplConnection.open({
        host: this.host,
        port: this.port,
        timeoutMs: this.timeoutMs,
        answerTimeoutMs: this.answerTimeoutMs,
      });
    } catch (error) {
      throw this.down(error);
    }
  }

  private async status(connection: ZplConnection, waitMs?: number): Promise<ZplHostStatus> {
    return parseHostStatus(await connection.ask('~HS', 3, waitMs));
  }

  /**
   * How long `~HS` is waited for: the answer time, but a printer already found silent is
   * given SILENT_WAIT_MS (a printer answers in milliseconds), so a device that never
   * answers does not hold each of its labels back for seconds.
   */
  private get statusWaitMs(): number {
    return this.silent ? Math.min(this.answerTimeoutMs, SILENT_WAIT_MS) : this.answerTimeoutMs;
  }

  /**
   * `~HS` before a job or for readiness. Unanswered on an open connection, `~HQES` is asked:
   * a printer out of media or ribbon, or with its head open, may answer only that, and then
   * it is not ready for those conditions, not down.
   * @throws PrintError PRINTER_DISABLED naming the conditions, or SPOOLER_UNAVAILABLE
   */
  private async statusOrErrors(connection: ZplConnection): Promise<ZplHostStatus | typeof SILENT> {
    const wasSilent = this.silent;
    try {
      const status = await this.status(connection, this.statusWaitMs);
      this.silent = false;
      this.reportsState = true;
      return status;
    } catch (error) {
      if (!(error instanceof ZplConnectionError) || error.reason !== 'timeout' || !connection.usable) throw this.down(error);
      if (wasSilent) return SILENT;
      let conditions: ZplCondition[] | null = null;
      let answered = false;
      try {
        const answer = await connection.ask('~HQES', 1);
        answered = true;
        conditions = parseErrorStatus(answer.join('\n'));
      } catch {
        // Neither answered.
      }
      if (conditions && conditions.length > 0) throw notReadyError(this.uri, this.address, this.model, conditions);
      if (answered || !connection.usable || this.reportsState) throw this.down(error);
      // It took the connection and said nothing: a plain raw-port device (a "dumb" 9100
      // printer or print server) that cannot report its state. Labels still go to it.
      this.silent = true;
      return SILENT;
    }
  }

  /** The resolution: the URI's, else `~HI`'s (asked once, on this connection). */
  private async resolution(connection: ZplConnection): Promise<ZplDpi> {
    if (this.dpi !== null && this.identity !== null) return this.dpi;
    if (this.identity === null) {
      this.identityAsked = true;
      try {
        this.identity = parseIdentity((await connection.ask('~HI', 1))[0] ?? '');
      } catch (error) {
        if (this.dpi !== null) return this.dpi;
        // Connected but no (readable) answer: many clones and print servers never answer
        // ~HI. A printer left stuck for that would print nothing; render at the fallback
        // and say so in readiness. A printer that cannot be reached stays down.
        if (error instanceof ZplConnectionError && error.reason !== 'timeout' && !connection.usable) throw error;
        this.dpiAssumed = true;
        return ZPL_FALLBACK_DPI;
      }
    }
    if (this.dpi !== null) return this.dpi;
    const dpi = dpiOfDotsPerMm(this.identity.dotsPerMm);
    if (dpi === null) {
      throw new PrintError(
        PRINT_ERROR_CODES.UNSUPPORTED,
        `${this.who} says it prints ${this.identity.dotsPerMm} dots/mm, which the agent cannot render for: ` +
          `set the resolution in the printer URI (${this.uri.split('?')[0]}?dpi=203, 300 or 600).`,
        { target: this.uri },
      );
    }
    this.dpi = dpi;
    return dpi;
  }

  /**
   * One connection at a time to this printer: many ZPL printers serve a single connection on
   * their raw port and leave the others waiting, so a readiness question opened while a
   * batch is being sent would time out and show a working printer as down.
   */
  private session<T>(use: (connection: ZplConnection) => Promise<T>): Promise<T> {
    const run = this.turn.then(async () => {
      const connection = await this.open();
      try {
        return await use(connection);
      } finally {
        await connection.close();
      }
    });
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** The resolution to render at, and `~HI`'s identity for the test label: asked once, on a connection of its own. */
  private async renderDpi(): Promise<ZplDpi> {
    if (this.dpi !== null && (this.identity !== null || this.identityAsked)) return this.dpi;
    if (this.dpiAssumed) return ZPL_FALLBACK_DPI;
    return this.session(async (connection) => {
      try {
        return await this.resolution(connection);
      } catch (error) {
        if (error instanceof PrintError) throw error;
        throw this.down(error);
      }
    });
  }

  async spool(request: SpoolRequest): Promise<SpoolResult> {
    if (!request.pdf) {
      throw new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, `${this.uri} prints PDFs: fetch the document with output_format file first.`, {
        target: this.uri,
      });
    }
    // Rendered before connecting: the connection stays open for milliseconds, not for the
    // rendering of a batch.
    const dpi = await this.renderDpi();
    const zpl = await labelsFor(request, { dpi, uri: this.uri, identity: this.identity });
    const followable = await this.session(async (connection) => {
      const status = await this.statusOrErrors(connection);
      if (status !== SILENT) {
        const conditions = statusConditions(status);
        if (conditions.length > 0) throw notReadyError(this.uri, this.address, this.model, conditions);
      }
      const brokeOff = (error: unknown): PrintError =>
        new PrintError(
          PRINT_ERROR_CODES.MAY_HAVE_PRINTED,
          `The connection to ${this.who} broke off while sending job ${request.jobId} (${(error as Error).message}): ` +
            'it may have printed: check the printer, then retry by hand',
          { cause: error, target: this.uri },
        );
      try {
        await connection.write(zpl, true, this.sendTimeoutMs ?? sendDeadlineMs(zpl.length));
      } catch (error) {
        if (error instanceof ZplConnectionError && !error.sent) throw this.down(error);
        throw brokeOff(error);
      }
      try {
        // The printer's word that it took the batch, on the same socket, within the deadline
        // and with its counts: TCP takes a few KB into buffers of a device that stopped
        // reading, so only this answer says the labels reached the printer. Some printers
        // answer only once the labels have printed (hence a deadline per label); some answer
        // status only once job data has come, and can then be followed after all.
        const wait = status === SILENT ? this.statusWaitMs : this.answerTimeoutMs + labelCount(zpl) * this.msPerLabel;
        const after = await this.status(connection, Math.min(wait, MAX_AFTER_LABELS_WAIT_MS));
        this.silent = false;
        if (!statesCounts(after)) throw new Error('its answer does not say what it holds');
      } catch (error) {
        // A reset rather than an orderly close: the device dropped bytes it had not read.
        if (connection.brokeOffAfterLabels) throw brokeOff(error);
        // A device that never reports its state: sent, and that is all anyone can know.
        if (status === SILENT) return false;
        // Closed in order right after the data: it had read the labels whole; followed on connections of their own.
        if (error instanceof ZplConnectionError && error.reason === 'closed') return true;
        throw new PrintError(
          PRINT_ERROR_CODES.MAY_HAVE_PRINTED,
          `${this.who} did not answer after the labels of job ${request.jobId} (${(error as Error).message}): ` +
            'it may have printed: check the printer, then retry by hand',
          { cause: error, target: this.uri },
        );
      }
      return true;
    });
    // A printer that cannot report its state: sent, and that is all anyone can know. The job
    // stays `spooled` (not `completed`) with words saying so, and is not followed.
    if (!followable) return { spoolerJobId: null, completed: false, note: ZPL_UNCONFIRMED_NOTE };
    const id = `${this.address}#${++this.sequence}`;
    this.outstanding.add(id);
    this.askedAt = Number.NEGATIVE_INFINITY;
    return { spoolerJobId: id, completed: false };
  }

  async jobState(spoolerJobId: string): Promise<SpoolerJobState> {
    this.askedAt = Number.NEGATIVE_INFINITY;
    return (await this.jobStates([spoolerJobId])).get(spoolerJobId) ?? 'unknown';
  }

  /**
   * One `~HS` for every followed job: all labels sent before it have printed once the
   * printer's buffer and batch count have drained. A job this run did not send (a restart)
   * is 'unknown'.
   */
  async jobStates(spoolerJobIds: readonly string[]): Promise<ReadonlyMap<string, SpoolerJobState>> {
    const result = new Map<string, SpoolerJobState>();
    const mine = spoolerJobIds.filter((id) => this.outstanding.has(id));
    for (const id of spoolerJobIds) if (!this.outstanding.has(id)) result.set(id, 'unknown');
    if (mine.length === 0) return result;
    if (this.now() - this.askedAt < this.statusEveryMs) return result;
    this.askedAt = this.now();
    const status = await this.session(async (connection) => {
      try {
        return await this.status(connection);
      } catch (error) {
        throw this.down(error);
      }
    });
    // An answer without its counts cannot say what printed: the jobs are no longer followed,
    // and 'lost' makes them "may have printed" (not 'unknown', which in time reads as done).
    const known = statesCounts(status);
    const done = drained(status);
    for (const id of mine) {
      if (done || !known) this.outstanding.delete(id);
      result.set(id, !known ? 'lost' : done ? 'completed' : 'printing');
    }
    return result;
  }

  async findSpooled(): Promise<null> {
    return null;
  }

  /** The printer's own `~HS`, in its words; a printer that does not answer is not ready. */
  async readiness(): Promise<Readiness> {
    try {
      return await this.session(async (connection) => {
        const status = await this.statusOrErrors(connection);
        if (status === SILENT) {
          // Ready as far as anyone can tell: it takes labels, but cannot say paper out or head open.
          return {
            ready: true,
            detail: `${this.who} takes labels but does not report its state (no answer to ~HS): ${ZPL_UNCONFIRMED_NOTE}`,
          };
        }
        if (this.identity === null && !this.dpiAssumed) await this.resolution(connection).catch(() => undefined);
        const conditions = statusConditions(status);
        if (conditions.length > 0) return notReady(notReadyError(this.uri, this.address, this.model, conditions));
        return this.dpiAssumed && this.dpi === null
          ? {
              ready: true,
              detail:
                `${this.who} does not say its resolution (no answer to ~HI): labels are rendered at ${ZPL_FALLBACK_DPI} dpi. ` +
                `If it prints at 300 or 600 dpi, add it to the printer URI (${this.uri.split('?')[0]}?dpi=300).`,
            }
          : { ready: true, detail: null };
      });
    } catch (error) {
      return notReady(error instanceof PrintError ? error : this.down(error));
    }
  }

  /** What `~HI` said, once asked (the test label and Settings show it). */
  get printerIdentity(): ZplIdentity | null {
    return this.identity;
  }
}
