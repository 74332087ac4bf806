import { PRINT_ERROR_CODES, PrintError } from '../errors';
import { ippGetJobReports, ippGetJobsAt, ippGetPrinterAt, type IppJobReport, type IppPrinter, type IppPrinterRef } from './ipp';
import { IppHttpError, connectionFailed, neverSent } from './ipp-connection';
import { JobWords, toSpoolerState } from './ipp-job-state';
import { printerProblem, printerWarnings } from './ipp-printer-state';
import { IPP_STATUS, ippPrintJobAt, type IppPrintAnswer } from './ipp-print';
import { MEDIA_NAMES, MEDIA_WORDS, mediaSupported } from '../media';
import type { PrinterTarget, Readiness, SpoolerJobState, SpoolRequest, SpoolResult } from '../target';
import type { PrinterMedia } from '../../../shared/domain';

/**
 * An IPP Everywhere printer addressed directly (`ipp://HOST[:PORT]/PATH`, `ipps://…`), on
 * every OS, with no driver and no spooler between: the agent asks the printer itself
 * (Get-Printer-Attributes) whether it can print, sends each PDF with Print-Job (the label's
 * exact size and zero margins in `media-col`, `print-scaling` none for labels and fit for
 * sheets) and follows each job on the printer until it says completed. The same IPP client
 * (codec, connection pool, job follower) serves CUPS queues (cups-target.ts).
 */

export interface IppTargetOptions {
  /** The printer URI as configured. */
  readonly uri: string;
  /** Where the printer answers (ipp.ts ippUriRef). */
  readonly ref: IppPrinterRef;
  /**
   * How long a printer that answers server-error-busy (it takes one job at a time) is waited
   * on before the job is handed back as "printer busy" to wait in line. @default 60000
   */
  readonly busyWaitMs?: number;
  /** @default Date.now */
  readonly nowMs?: () => number;
  /** @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
}

const STATUS_BUSY = 0x0507;

/** Which IPP status refusals say what, for the person reading the job's reason. */
const REFUSALS: Readonly<Record<number, string>> = {
  0x0400: 'the printer could not read the request',
  0x0401: 'the printer forbids printing from this station',
  0x0402: 'the printer asks for a user name and password, which the agent cannot give: allow printing without one',
  0x0403: 'this station is not allowed to print there',
  0x040a: 'the printer does not take PDF',
  0x040b: 'the printer cannot print with these options (media or scaling)',
  0x040c: 'the printer does not take the PDF compression',
};

export class IppTarget implements PrinterTarget {
  readonly kind = 'ipp' as const;
  readonly needsPdf = true;
  readonly reconcilable = true;
  readonly uri: string;
  private readonly ref: IppPrinterRef;
  private readonly busyWaitMs: number;
  private readonly nowMs: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly words = new JobWords();

  constructor(options: IppTargetOptions) {
    this.uri = options.uri;
    this.ref = options.ref;
    this.busyWaitMs = options.busyWaitMs ?? 60_000;
    this.nowMs = options.nowMs ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  private unreachable(cause: unknown): PrintError {
    const code = (cause as NodeJS.ErrnoException | null)?.code;
    const answerTimeoutMs = (cause as { answerTimeoutMs?: unknown } | null)?.answerTimeoutMs;
    if (typeof answerTimeoutMs === 'number') {
      // It took the connection and then hung (or dripped its answer): not the same advice as an address nobody answers at.
      return new PrintError(
        PRINT_ERROR_CODES.PRINTER_OFFLINE,
        `The printer ${this.uri} took the connection but did not answer within ${answerTimeoutMs / 1000} s: check that it is not ` +
          'stuck (switch it off and on) and that the address is the printer itself; labels wait and print when it answers.',
        { cause, target: this.uri },
      );
    }
    return new PrintError(
      PRINT_ERROR_CODES.PRINTER_OFFLINE,
      `The printer ${this.uri} cannot be reached${code ? ` (${code})` : ''}: check that it is on and connected to the network and that the address is right; labels wait and print when it answers.`,
      { cause, target: this.uri },
    );
  }

  /** Any failure to ask the printer as a PrintError that says what to do. */
  private cannotAsk(error: unknown, what: string): PrintError {
    if (error instanceof PrintError) return error;
    if (connectionFailed(error)) return this.unreachable(error);
    return new PrintError(PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE, `${what} ${this.uri}: ${(error as Error).message}`, {
      cause: error,
      target: this.uri,
    });
  }

  private async printer(): Promise<IppPrinter> {
    let printer: IppPrinter | null;
    try {
      printer = await ippGetPrinterAt(this.ref);
    } catch (error) {
      if (error instanceof IppHttpError) {
        throw new PrintError(
          PRINT_ERROR_CODES.PRINTER_NOT_FOUND,
          `${this.uri} answered HTTP ${error.status}: check the printer's address and path (often /ipp/print).`,
          { target: this.uri },
        );
      }
      throw this.cannotAsk(error, 'Cannot ask');
    }
    if (!printer) {
      throw new PrintError(
        PRINT_ERROR_CODES.PRINTER_NOT_FOUND,
        `${this.uri} has no printer at that path: check the address (often ipp://HOST/ipp/print).`,
        { target: this.uri },
      );
    }
    return printer;
  }

  /** What stops the printer printing now, in its own words, or null. */
  private problem(printer: IppPrinter): PrintError | null {
    const problem = printerProblem(printer);
    if (problem) {
      return new PrintError(
        PRINT_ERROR_CODES.PRINTER_OFFLINE,
        `The printer ${this.uri} reports: ${problem}; labels wait and print when it is ready.`,
        {
          target: this.uri,
        },
      );
    }
    if (!printer.acceptingJobs) {
      const says = printer.stateMessage ? ` (the printer says: "${printer.stateMessage}")` : '';
      return new PrintError(
        PRINT_ERROR_CODES.PRINTER_REJECTING,
        `The printer ${this.uri} is not accepting jobs${says}: accept jobs on its panel or web page.`,
        {
          target: this.uri,
        },
      );
    }
    if (printer.formatsSupported.length > 0 && !printer.formatsSupported.includes('application/pdf')) {
      return new PrintError(
        PRINT_ERROR_CODES.UNSUPPORTED,
        `The printer ${this.uri} does not take PDF (it takes: ${printer.formatsSupported.join(', ')}): use a printer with IPP Everywhere PDF support, or print to it through CUPS (cups:QUEUE).`,
        { target: this.uri },
      );
    }
    return null;
  }

  /** Why the printer cannot print `media` (its media-supported lacks the size), or null. */
  private mediaProblem(printer: IppPrinter, media: PrinterMedia): string | null {
    if (mediaSupported(printer.mediaSupported, media)) return null;
    const offers = printer.mediaSupported.slice(0, 8).join(', ') + (printer.mediaSupported.length > 8 ? ', …' : '');
    return `The printer ${this.uri} does not list ${MEDIA_WORDS[media]} in the media it supports (it offers: ${offers}): load and configure ${MEDIA_WORDS[media]} on the printer, or route them to another printer.`;
  }

  async readiness(media?: PrinterMedia): Promise<Readiness> {
    let printer: IppPrinter;
    try {
      printer = await this.printer();
    } catch (error) {
      if (error instanceof PrintError) return { ready: false, detail: error.message };
      throw error;
    }
    const problem = this.problem(printer);
    if (problem) return { ready: false, detail: problem.message };
    const lacking = media ? this.mediaProblem(printer, media) : null;
    if (lacking) return { ready: false, detail: lacking };
    // Remarks that do not stop it (ribbon low) are said, with the printer ready.
    const warnings = printerWarnings(printer);
    return { ready: true, detail: warnings ? `The printer ${this.uri}: ${warnings}.` : null };
  }

  /** The start-up check's question: what stops this printer printing `media`, or null. */
  async check(media?: PrinterMedia | null): Promise<PrintError | null> {
    try {
      const printer = await this.printer();
      const problem = this.problem(printer);
      if (problem) return problem;
      const lacking = media ? this.mediaProblem(printer, media) : null;
      return lacking ? new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, lacking, { target: this.uri, printerDown: false }) : null;
    } catch (error) {
      if (error instanceof PrintError) return error;
      throw error;
    }
  }

  async spool(request: SpoolRequest): Promise<SpoolResult> {
    if (!request.pdf) {
      throw new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, `${this.uri} prints PDFs: fetch the document with output_format file first.`, {
        target: this.uri,
      });
    }
    if (!request.title.includes(request.jobId)) throw new Error(`job title "${request.title}" must contain the job id ${request.jobId}`);
    const problem = this.problem(await this.printer());
    if (problem) throw problem;
    const started = this.nowMs();
    for (let wait = 250; ; wait = Math.min(wait * 2, 4_000)) {
      const answer = await this.printJob(request, request.pdf);
      if (answer.jobId !== null) return { spoolerJobId: String(answer.jobId), completed: false };
      if (answer.status < 0x0100) {
        // The printer took the job but named none: a blind retry would print twice.
        throw new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, `${this.uri} accepted the job but named no job id; check the printer.`, {
          target: this.uri,
          retryable: false,
        });
      }
      if (answer.status === STATUS_BUSY) {
        // One job at a time: waited on here, not failed.
        if (this.nowMs() - started < this.busyWaitMs) {
          await this.sleep(wait);
          continue;
        }
        throw new PrintError(
          PRINT_ERROR_CODES.PRINTER_OFFLINE,
          `The printer ${this.uri} is busy with other jobs; labels wait and print when it takes them.`,
          {
            target: this.uri,
          },
        );
      }
      throw this.refusal(answer);
    }
  }

  private refusal(answer: IppPrintAnswer): PrintError {
    const says = answer.message ? ` (the printer says: "${answer.message}")` : '';
    const status = `IPP status 0x${answer.status.toString(16).padStart(4, '0')}`;
    if (answer.status === IPP_STATUS.notAcceptingJobs) {
      return new PrintError(
        PRINT_ERROR_CODES.PRINTER_REJECTING,
        `The printer ${this.uri} is not accepting jobs${says}: accept jobs on its panel or web page.`,
        {
          target: this.uri,
        },
      );
    }
    if (answer.status === IPP_STATUS.notFound) {
      return new PrintError(PRINT_ERROR_CODES.PRINTER_NOT_FOUND, `${this.uri} has no printer at that path${says}: check the address.`, {
        target: this.uri,
      });
    }
    const what = REFUSALS[answer.status] ?? 'the printer refused the job';
    return new PrintError(
      PRINT_ERROR_CODES.SPOOL_FAILED,
      `${what}${says}, ${status}: check the printer's media and settings, then retry.`,
      {
        target: this.uri,
        retryable: answer.status >= 0x0500,
      },
    );
  }

  private async printJob(request: SpoolRequest, pdf: Uint8Array): Promise<IppPrintAnswer> {
    const names = MEDIA_NAMES[request.media];
    try {
      return await ippPrintJobAt(this.ref, {
        name: request.title,
        pdf,
        copies: request.copies,
        media: names.ipp,
        printScaling: names.scaling,
        mediaCol: request.media === 'a4' || request.media === 'letter' ? 'size' : 'borderless',
      });
    } catch (error) {
      if (error instanceof PrintError) throw error;
      if (error instanceof IppHttpError) {
        throw new PrintError(
          PRINT_ERROR_CODES.SPOOL_FAILED,
          `${this.uri} answered HTTP ${error.status} to the print request: check the printer's address and settings.`,
          {
            target: this.uri,
            retryable: false,
          },
        );
      }
      if (neverSent(error)) throw this.unreachable(error);
      // Written, then broken off: the job may exist; it is looked up by its title first.
      throw new PrintError(
        PRINT_ERROR_CODES.SPOOL_FAILED,
        `The connection to ${this.uri} broke off while handing it a job (${(error as Error).message}); the job is looked up by its title before it is sent again.`,
        { cause: error, target: this.uri },
      );
    }
  }

  async jobState(spoolerJobId: string): Promise<SpoolerJobState> {
    return (await this.jobStates([spoolerJobId])).get(spoolerJobId) ?? 'unknown';
  }

  /**
   * The jobs in flight, asked of the printer itself in one Get-Jobs (job-ids). A job the
   * printer no longer knows, that it never said it finished, is `lost` (it restarted
   * mid-job): the label may or may not have come out.
   */
  async jobStates(spoolerJobIds: readonly string[]): Promise<ReadonlyMap<string, SpoolerJobState>> {
    const result = new Map<string, SpoolerJobState>();
    const ids = spoolerJobIds.filter((id) => /^\d+$/.test(id));
    for (const id of spoolerJobIds) if (!ids.includes(id)) result.set(id, 'unknown');
    if (ids.length === 0) return result;
    let reports: Map<number, IppJobReport | null>;
    try {
      reports = await ippGetJobReports(this.ref, ids.map(Number));
    } catch (error) {
      throw this.cannotAsk(error, 'Cannot ask about jobs on');
    }
    for (const id of ids) result.set(id, this.words.settled(id, reports.get(Number(id)) ?? null, 'lost'));
    // Jobs waiting at a printer that cannot print say why, in its words.
    const waiting = ids.filter((id) => result.get(id) === 'pending' || result.get(id) === 'printing');
    if (waiting.length > 0) {
      const printer = await ippGetPrinterAt(this.ref).catch(() => null);
      this.words.noteAll(waiting, printer ? printerProblem(printer) : null);
    }
    return result;
  }

  jobMessage(spoolerJobId: string): string | null {
    return this.words.message(spoolerJobId);
  }

  jobNote(spoolerJobId: string): string | null {
    return this.words.note(spoolerJobId);
  }

  async findSpooled(jobId: string): Promise<{ spoolerJobId: string; state: SpoolerJobState } | null> {
    let jobs;
    try {
      jobs = await ippGetJobsAt(this.ref, 'all');
    } catch (error) {
      // Unknown is not "absent": reconciling must not conclude it is safe to print again.
      throw this.cannotAsk(error, 'Cannot list the jobs of');
    }
    const mine = jobs.filter((job) => job.name.includes(jobId)).sort((a, b) => b.id - a.id);
    const best = mine.find((job) => job.state !== 'aborted' && job.state !== 'canceled') ?? mine[0];
    return best ? { spoolerJobId: String(best.id), state: toSpoolerState(best.state) } : null;
  }
}
