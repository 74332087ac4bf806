import { agentMessage, type AgentMessage } from '../../../shared/agent-messages';
import { PRINT_ERROR_CODES, PrintError } from '../errors';
export type { CupsTargetOptions } from './cups-target-options';
import { cLocaleEnv, runExecFile, type ExecFileRunner, type ExecResult } from '../../process/exec';
import {
  cupsQueueRef,
  ippGetJob,
  ippGetJobReport,
  ippGetJobReports,
  ippGetJobs,
  ippGetPrinter,
  ippGetPrinterAt,
  ippUriRef,
  type IppJobReport,
  type IppPrinter,
} from '../ipp/ipp';
import { printerProblem } from '../ipp/ipp-printer-state';
import { JobWords, toSpoolerState } from '../ipp/ipp-job-state';
import { connectionFailed } from '../ipp/ipp-connection';
import type { CupsDriverHost } from './cups-driver';
import type { CupsTargetOptions } from './cups-target-options';
import { CupsIppDriver } from './cups-ipp-driver';
import { CupsLpDriver } from './cups-lp-driver';
import { parseLpstatAccepting, parseLpstatPrinters } from './lpstat';
import { notReady, type PrinterTarget, type Readiness, type SpoolerJobState, type SpoolRequest, type SpoolResult } from '../target';
import type { PrinterMedia } from '../../../shared/domain';
import { MEDIA_WORDS, mediaSupported } from '../media';

/** The media check's answer for a while: a label printer's media list does not change by the minute. */
const MEDIA_CHECK_TTL_MS = 60_000;

function notFoundMessage(queue: string): AgentMessage {
  return agentMessage('printer.cupsNotFound', { queue });
}

/** Prints through CUPS over IPP (or `lp` as the fallback: the two drivers); follows jobs with IPP Get-Jobs on the same scheduler. */
export class CupsTarget implements PrinterTarget {
  readonly kind = 'cups' as const;
  readonly needsPdf = true;
  readonly uri: string;
  private readonly requested: string;
  private readonly server: string | null;
  private readonly env: NodeJS.ProcessEnv;
  private readonly exec: ExecFileRunner;
  private readonly checkReadiness: boolean;
  private readonly spoolMode: 'ipp' | 'lp';
  private readonly ippDriver: CupsIppDriver;
  private readonly lpDriver: CupsLpDriver;
  private readonly lpstat: string;
  private readonly cancelCommand: string;
  private resolvedQueue: string | null = null;
  private ippServer: Promise<string> | null = null;
  /** When the scheduler last refused an IPP readiness query: lpstat answers until ippRetryMs later. */
  private ippRefusedAt: number | null = null;
  private readonly ippRetryMs: number;
  private readonly nowMs: () => number;
  /** The printer's words about jobs it ended (jobMessage) and about jobs it holds up (jobNote). */
  private readonly words = new JobWords();
  /** The device's media-supported, asked at most once a minute (readiness with a media). */
  private deviceMedia: { readonly at: number; readonly media: readonly string[] } | null = null;

  constructor(options: CupsTargetOptions) {
    this.uri = options.uri;
    this.requested = options.queue;
    this.server = options.server ?? null;
    this.env = cLocaleEnv(options.env ?? process.env);
    this.exec = options.exec ?? runExecFile;
    this.checkReadiness = options.checkReadiness ?? true;
    this.spoolMode = options.spool ?? 'ipp';
    this.lpstat = options.lpstatPath ?? 'lpstat';
    this.cancelCommand = options.cancelPath ?? 'cancel';
    this.ippRetryMs = options.ippRetryMs ?? 60_000;
    this.nowMs = options.nowMs ?? Date.now;
    const host: CupsDriverHost = {
      uri: this.uri,
      run: (file, args, input) => this.run(file, args, input),
      scheduler: () => this.ipp(),
      unreachable: (cause) => this.unreachable(cause),
      rejecting: (queue, reason) => this.rejecting(queue, reason),
      notFound: (queue) => this.notFound(queue),
    };
    this.ippDriver = new CupsIppDriver(host, {
      labelMedia: options.labelMedia,
      retryMs: this.ippRetryMs,
      log: options.log,
      nowMs: this.nowMs,
    });
    this.lpDriver = new CupsLpDriver(host, { lpPath: options.lpPath, labelMedia: options.labelMedia });
  }

  private hostArgs(): string[] {
    return this.server ? ['-h', this.server] : [];
  }

  private async run(file: string, args: string[], input?: Uint8Array): Promise<ExecResult> {
    try {
      return await this.exec(file, [...this.hostArgs(), ...args], { env: this.env, input });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new PrintError(
          PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE,
          `"${file}" is not installed: install the CUPS client tools (Debian: apt-get install cups-client) to print to ${this.uri}.`,
          { cause: error, target: this.uri, retryable: false, printerDown: false },
        );
      }
      throw new PrintError(PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE, `${file} failed for ${this.uri}: ${(error as Error).message}`, {
        cause: error,
        target: this.uri,
      });
    }
  }

  /** Tells an unreachable scheduler apart from a missing queue: lp reports both as "does not exist". */
  private async notFound(queue: string): Promise<PrintError> {
    const sched = await this.run(this.lpstat, ['-r']).catch(() => null);
    if (!sched || sched.code !== 0 || /not running/.test(sched.stdout)) return this.unreachable();
    return new PrintError(PRINT_ERROR_CODES.PRINTER_NOT_FOUND, notFoundMessage(queue), { target: this.uri });
  }

  /** The real queue name; names with spaces are matched against descriptions. */
  async queue(): Promise<string> {
    if (this.resolvedQueue) return this.resolvedQueue;
    if (!/\s/.test(this.requested)) {
      this.resolvedQueue = this.requested;
      return this.requested;
    }
    const result = await this.run(this.lpstat, ['-l', '-p']);
    const queues = parseLpstatPrinters(result.stdout);
    const underscored = this.requested.trim().replace(/\s+/g, '_');
    const match =
      queues.find((q) => q.description === this.requested) ??
      queues.find((q) => q.name === underscored) ??
      queues.find((q) => q.description?.toLowerCase() === this.requested.toLowerCase());
    if (!match) {
      if (result.code !== 0) throw await this.notFound(this.requested);
      throw new PrintError(
        PRINT_ERROR_CODES.PRINTER_NOT_FOUND,
        `No CUPS printer is named or described "${this.requested}" (CUPS queue names cannot contain spaces): ` +
          `check \`lpstat -l -p\` and use the queue name, e.g. cups:${underscored}.`,
        { target: this.uri },
      );
    }
    this.resolvedQueue = match.name;
    return match.name;
  }

  async readiness(media?: PrinterMedia): Promise<Readiness> {
    const problem = await this.check();
    if (problem) return notReady(problem);
    const lacking = media ? await this.mediaProblem(media).catch(() => null) : null;
    return lacking ? { ready: false, detail: lacking } : { ready: true, detail: null };
  }

  /**
   * Why this queue's printer cannot print `media` (its media-supported lacks the size), or
   * null when it can or cannot say. A raw queue (no PPD) lists no media: its device, when it
   * is an IPP printer, is asked directly.
   */
  async mediaProblem(media: PrinterMedia): Promise<string | null> {
    const queue = await this.queue();
    const printer = await ippGetPrinter({ server: await this.ipp() }, queue);
    if (!printer) return null;
    let supported = printer.mediaSupported;
    let source = `CUPS queue "${queue}"`;
    const device = printer.deviceUri ? ippUriRef(printer.deviceUri, { timeoutMs: 5_000 }) : null;
    if (supported.length === 0 && device) {
      const now = this.nowMs();
      if (!this.deviceMedia || now - this.deviceMedia.at > MEDIA_CHECK_TTL_MS) {
        this.deviceMedia = { at: now, media: (await ippGetPrinterAt(device))?.mediaSupported ?? [] };
      }
      supported = this.deviceMedia.media;
      source = `the printer of CUPS queue "${queue}" (${printer.deviceUri})`;
    }
    if (mediaSupported(supported, media)) return null;
    return `${source} does not list ${MEDIA_WORDS[media]} in the media it supports (it offers: ${supported.slice(0, 8).join(', ')}${supported.length > 8 ? ', …' : ''}): load and configure ${MEDIA_WORDS[media]} on the printer, or route them to another printer.`;
  }

  /** What stops this queue from taking a job now (missing, disabled, scheduler down), or null. */
  async check(): Promise<PrintError | null> {
    try {
      await this.assertReady();
      return null;
    } catch (error) {
      if (error instanceof PrintError) return error;
      throw error;
    }
  }

  /** The queues the scheduler has (`lpstat -e`), to name the right one when a URI is wrong. */
  async knownQueues(): Promise<string[]> {
    const result = await this.run(this.lpstat, ['-e']);
    if (result.code !== 0) return [];
    return result.stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  }

  /**
   * The queue name once it is enabled and accepting. Asked over IPP (printer-state,
   * printer-is-accepting-jobs, printer-state-message): spawning `lpstat` for it cost about
   * 10 ms a label, a third of the spool stage. If the scheduler refuses the IPP request
   * (a policy or an HTTP error, not an unreachable scheduler) lpstat answers instead, as
   * before.
   */
  private async assertReady(): Promise<string> {
    const queue = await this.queue();
    if (this.ippRefusedAt !== null && this.nowMs() - this.ippRefusedAt < this.ippRetryMs) return this.assertReadyByLpstat(queue);
    let printer: IppPrinter | null;
    try {
      printer = await ippGetPrinter({ server: await this.ipp() }, queue);
    } catch (error) {
      if (error instanceof PrintError) throw error;
      if (connectionFailed(error)) throw this.unreachable(error);
      this.ippRefusedAt = this.nowMs();
      return this.assertReadyByLpstat(queue);
    }
    this.ippRefusedAt = null;
    if (!printer) {
      throw new PrintError(PRINT_ERROR_CODES.PRINTER_NOT_FOUND, notFoundMessage(queue), { target: this.uri });
    }
    // lpstat shows printer-state-message, or "reason unknown" when there is none; the
    // state reasons (e.g. media-empty-error) say more than that when a driver sets them.
    const reason = printer.stateMessage || printer.stateReasons.filter((r) => r !== 'paused').join(', ') || 'reason unknown';
    if (printer.state === 'stopped') throw this.disabled(queue, reason);
    if (!printer.acceptingJobs) throw this.rejecting(queue, reason);
    // The queue is fine, the printer behind it may not be: CUPS keeps an unreachable IPP
    // printer `processing` ("The printer may not exist or is unavailable at this time.")
    // and a driver may report media-empty-error or a door open.
    const problem = printerProblem(printer);
    if (problem) {
      throw new PrintError(
        PRINT_ERROR_CODES.PRINTER_OFFLINE,
        `The printer of CUPS queue "${queue}" ${problem}; labels wait and print when it is back.`,
        { target: this.uri },
      );
    }
    return queue;
  }

  /** The readiness check through `lpstat -p Q -a Q`, for schedulers that refuse it over IPP. */
  private async assertReadyByLpstat(queue: string): Promise<string> {
    const result = await this.run(this.lpstat, ['-p', queue, '-a', queue]);
    const printer = parseLpstatPrinters(result.stdout).find((q) => q.name === queue);
    const accepting = parseLpstatAccepting(result.stdout).get(queue);
    if (!printer || !accepting) throw await this.notFound(queue);
    if (!printer.enabled) throw this.disabled(queue, printer.reason);
    if (!accepting.accepting) throw this.rejecting(queue, accepting.reason);
    return queue;
  }

  private disabled(queue: string, reason: string | null): PrintError {
    return new PrintError(PRINT_ERROR_CODES.PRINTER_DISABLED, agentMessage('printer.cupsDisabled', { queue, reason }), {
      target: this.uri,
    });
  }

  private rejecting(queue: string, reason: string | null): PrintError {
    return new PrintError(PRINT_ERROR_CODES.PRINTER_REJECTING, agentMessage('printer.cupsRejecting', { queue, reason }), {
      target: this.uri,
    });
  }

  /**
   * A scheduler that cannot be reached gets the same advice as anywhere else (start CUPS),
   * not the socket's words (`connect ECONNREFUSED`); other failures say what was asked.
   */
  private cannotAsk(error: unknown, what: string): PrintError {
    if (error instanceof PrintError) return error;
    if (connectionFailed(error)) return this.unreachable(error);
    return new PrintError(PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE, `${what}: ${(error as Error).message}`, {
      cause: error,
      target: this.uri,
    });
  }

  private unreachable(cause?: unknown): PrintError {
    const server = this.server ?? this.env.CUPS_SERVER ?? null;
    return new PrintError(PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE, agentMessage('printer.cupsUnreachable', { server, printer: this.uri }), {
      cause,
      target: this.uri,
    });
  }

  /**
   * Over IPP (cups-ipp-driver.ts) while the scheduler takes Print-Job, else through lp
   * (cups-lp-driver.ts); both hand over a job whole or not at all.
   */
  async spool(request: SpoolRequest): Promise<SpoolResult> {
    if (!request.pdf) {
      throw new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, `${this.uri} prints PDFs: fetch the document with output_format file first.`, {
        target: this.uri,
      });
    }
    if (!request.title.includes(request.jobId)) throw new Error(`job title "${request.title}" must contain the job id ${request.jobId}`);
    const queue = this.checkReadiness ? await this.assertReady() : await this.queue();
    if (this.spoolMode === 'ipp' && this.ippDriver.available()) {
      const spooled = await this.ippDriver.spool(queue, request, request.pdf);
      if (spooled) return spooled;
    }
    return this.lpDriver.spool(queue, request, request.pdf);
  }

  /** The scheduler the CUPS tools would use; asked once per target, then remembered. */
  private ipp(): Promise<string> {
    if (this.server) return Promise.resolve(this.server);
    // lpstat -H names the scheduler the CUPS tools would use (CUPS_SERVER, client.conf or the default socket).
    this.ippServer ??= this.run(this.lpstat, ['-H']).then(
      (result) => result.stdout.trim() || 'localhost:631',
      (error: unknown) => {
        this.ippServer = null;
        throw error;
      },
    );
    return this.ippServer;
  }

  async jobState(spoolerJobId: string): Promise<SpoolerJobState> {
    const m = /^(.+)-(\d+)$/.exec(spoolerJobId);
    if (!m) return 'unknown';
    try {
      const report = await ippGetJobReport(cupsQueueRef({ server: await this.ipp() }, m[1]!), Number(m[2]));
      return this.words.settled(spoolerJobId, report);
    } catch (error) {
      throw this.cannotAsk(error, `Cannot ask CUPS about job ${spoolerJobId}`);
    }
  }

  jobMessage(spoolerJobId: string): string | null {
    return this.words.message(spoolerJobId);
  }

  jobNote(spoolerJobId: string): string | null {
    return this.words.note(spoolerJobId);
  }

  /**
   * The jobs in flight only: per queue named in the ids (`QUEUE-123`, as lp printed them)
   * one Get-Jobs for its not-completed jobs, and one Get-Job-Attributes for each asked job
   * that has left that list (it ended: asked once). Get-Jobs with which-jobs=all returned
   * the queue's whole history every tick. A job the scheduler has forgotten is 'unknown'.
   */
  async jobStates(spoolerJobIds: readonly string[]): Promise<ReadonlyMap<string, SpoolerJobState>> {
    const result = new Map<string, SpoolerJobState>();
    const byQueue = new Map<string, Array<{ readonly spoolerJobId: string; readonly id: number }>>();
    for (const spoolerJobId of spoolerJobIds) {
      const m = /^(.+)-(\d+)$/.exec(spoolerJobId);
      if (!m) {
        result.set(spoolerJobId, 'unknown');
        continue;
      }
      const list = byQueue.get(m[1]!) ?? [];
      list.push({ spoolerJobId, id: Number(m[2]) });
      byQueue.set(m[1]!, list);
    }
    for (const [queue, jobs] of byQueue) {
      let reports: Map<number, IppJobReport | null>;
      try {
        reports = await ippGetJobReports(
          cupsQueueRef({ server: await this.ipp() }, queue),
          jobs.map((job) => job.id),
        );
      } catch (error) {
        throw this.cannotAsk(error, `Cannot list the jobs of CUPS queue "${queue}"`);
      }
      for (const job of jobs) {
        const report = reports.get(job.id);
        result.set(job.spoolerJobId, this.words.settled(job.spoolerJobId, report ?? null));
      }
      this.words.holdQueued(
        jobs.map((job) => job.spoolerJobId),
        result,
      );
    }
    return result;
  }

  /**
   * Withdraws a job CUPS still holds (pending or held: not yet sent to the printer) with the
   * `cancel` command (an IPP Cancel-Job as this user, the job's owner). A job already printing
   * or done is left alone: false, and the label may be out.
   */
  async cancelJob(spoolerJobId: string): Promise<boolean> {
    if ((await this.jobState(spoolerJobId)) !== 'pending') return false;
    const result = await this.run(this.cancelCommand, [spoolerJobId]);
    if (result.code !== 0) {
      // Started printing meanwhile, or gone: what the scheduler says now decides.
      const now = await this.jobState(spoolerJobId);
      return now === 'canceled';
    }
    return (await this.jobState(spoolerJobId)) === 'canceled';
  }

  async findSpooled(jobId: string): Promise<{ spoolerJobId: string; state: SpoolerJobState } | null> {
    const queue = await this.queue();
    let jobs;
    try {
      const listed = (await ippGetJobs({ server: await this.ipp() }, queue, 'all')).sort((a, b) => b.id - a.id);
      // Get-Jobs leaves job-name empty for finished jobs cupsd has unloaded from memory
      // (within about a second of completion); Get-Job-Attributes loads the job, name and
      // all. Without this a label printed just before a crash looks absent and prints twice.
      jobs = [];
      for (const job of listed) jobs.push(job.name ? job : ((await ippGetJob({ server: await this.ipp() }, job.id)) ?? job));
    } catch (error) {
      // Unknown is not "absent": reconciling must not conclude it is safe to print again.
      throw this.cannotAsk(error, `Cannot list the jobs of CUPS queue "${queue}"`);
    }
    const mine = jobs.filter((job) => job.name.includes(jobId)).sort((a, b) => b.id - a.id);
    // Prefer a job that printed or will print over an aborted or canceled attempt.
    const best = mine.find((job) => job.state !== 'aborted' && job.state !== 'canceled') ?? mine[0];
    return best ? { spoolerJobId: `${queue}-${best.id}`, state: toSpoolerState(best.state) } : null;
  }
}
