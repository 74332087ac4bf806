import { PRINT_ERROR_CODES, PrintError } from './errors';
import { agentMessage, zplPrinterName, type ZplCondition } from '../../shared/agent-messages';
import { notReady, type PrinterTarget, type Readiness, type SpoolerJobState, type SpoolRequest, type SpoolResult } from './target';
import { ZplConnection, ZplConnectionError } from './zpl-connection';
import { dpiOfDotsPerMm, type ZplDpi } from './zpl-raster';
import {
  drained,
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
  /** @default Date.now */
  readonly now?: () => number;
}

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
  private readonly timeoutMs: number;
  private readonly answerTimeoutMs: number;
  private readonly statusEveryMs: number;
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

  private async status(connection: ZplConnection): Promise<ZplHostStatus> {
    return parseHostStatus(await connection.ask('~HS', 3));
  }

  /**
   * `~HS` before a job or for readiness. Unanswered on an open connection, `~HQES` is asked:
   * a printer out of media or ribbon, or with its head open, may answer only that, and then
   * it is not ready for those conditions, not down.
   * @throws PrintError PRINTER_DISABLED naming the conditions, or SPOOLER_UNAVAILABLE
   */
  private async statusOrErrors(connection: ZplConnection): Promise<ZplHostStatus> {
    try {
      return await this.status(connection);
    } catch (error) {
      if (!(error instanceof ZplConnectionError) || error.reason !== 'timeout' || !connection.usable) throw this.down(error);
      let conditions: ZplCondition[] | null = null;
      try {
        conditions = parseErrorStatus((await connection.ask('~HQES', 1))[0] ?? '');
      } catch {
        // Neither answered: the printer is down.
      }
      if (conditions && conditions.length > 0) throw notReadyError(this.uri, this.address, this.model, conditions);
      throw this.down(error);
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
        throw error;
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
    await this.session(async (connection) => {
      const conditions = statusConditions(await this.statusOrErrors(connection));
      if (conditions.length > 0) throw notReadyError(this.uri, this.address, this.model, conditions);
      try {
        await connection.write(zpl, true);
        // The printer's word that it took the batch (and what it has left), on the same socket.
        await this.status(connection);
      } catch (error) {
        if (error instanceof ZplConnectionError && !error.sent) throw this.down(error);
        throw new PrintError(
          PRINT_ERROR_CODES.MAY_HAVE_PRINTED,
          `The connection to ${this.who} broke off while sending job ${request.jobId} (${(error as Error).message}): ` +
            'it may have printed: check the printer, then retry by hand',
          { cause: error, target: this.uri },
        );
      }
    });
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
    const done = drained(status);
    for (const id of mine) {
      if (done) this.outstanding.delete(id);
      result.set(id, done ? 'completed' : 'printing');
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
        if (this.identity === null) await this.resolution(connection).catch(() => undefined);
        const conditions = statusConditions(status);
        return conditions.length > 0
          ? notReady(notReadyError(this.uri, this.address, this.model, conditions))
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
