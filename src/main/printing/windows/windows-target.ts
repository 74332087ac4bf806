import { promises as fs, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { PrinterMedia } from '../../../shared/domain';
import { MEDIA_NAMES } from '../media';
import { fsPrintError, PRINT_ERROR_CODES, PrintError } from '../errors';
import { notReady, type PrinterTarget, type Readiness, type SpoolerJobState, type SpoolRequest, type SpoolResult } from '../target';
import type { WindowsPrintJob, WindowsSpooler } from './windows-spooler';
import { assertPrinterReady, jobHasError, jobStateOf } from './windows-status';

/** pdf-to-printer's print options that the agent sets (see its README, PrintOptions). */
export interface WindowsPrintOptions {
  printer: string;
  scale: 'noscale' | 'shrink' | 'fit';
  paperSize: string;
  copies: number;
  silent?: boolean;
  sumatraPdfPath?: string;
}

/** The part of the pdf-to-printer module the agent uses; injectable because Windows cannot run here. */
export interface PdfToPrinterModule {
  print(pdf: string, options?: WindowsPrintOptions): Promise<void>;
  getPrinters(): Promise<Array<{ deviceId: string; name: string; paperSizes?: string[] }>>;
}

export interface WindowsTargetOptions {
  readonly uri: string;
  /** The exact Windows printer name. */
  readonly name: string;
  readonly pdfToPrinter: PdfToPrinterModule;
  /**
   * SumatraPDF.exe; in a packaged app the one in app.asar.unpacked (see
   * packagedSumatraPdfPath). @default undefined: pdf-to-printer's own copy
   */
  readonly sumatraPdfPath?: string;
  /** Driver paper name for 4x6 labels. @default '4x6' */
  readonly labelPaperSize?: string;
  /** @default os.tmpdir() */
  readonly tempDir?: string;
  /**
   * How long one print may take before it is given up as "may have printed" (a SumatraPDF
   * hung on a driver dialog or a stuck spooler would otherwise block the lane for good).
   * @default 60000
   */
  readonly timeoutMs?: number;
  /**
   * The Windows spooler (Get-Printer / Get-PrintJob through PowerShell). With it the target
   * checks the printer before each job, follows each job until it printed, failed or was
   * deleted, and finds a job by its document name after a crash (reconcilable). Without it
   * (null) the hand-over to SumatraPDF is the last fact: completed at once, not
   * reconcilable, readiness only knows whether the printer exists.
   * @default null
   */
  readonly spooler?: WindowsSpooler | null;
  /** Refuse a job while the spooler says the printer cannot print (paused, offline, ...). @default true */
  readonly checkReadiness?: boolean;
  /**
   * A printer found ready is not asked again for this long: each question starts a
   * PowerShell (about half a second), and a burst of labels would pay it per label.
   * @default 5000
   */
  readonly readyForMs?: number;
  /**
   * The least time between two job listings while following: the follower ticks every
   * 500 ms, and a PowerShell every tick would keep a station PC's CPU busy. Asked sooner,
   * jobStates answers nothing (not evidence of anything) and the next tick asks.
   * @default 2000
   */
  readonly listEveryMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/** The temp file SumatraPDF prints: its name is the document name Windows lists, so it carries the job id. */
export function windowsDocumentFileName(jobId: string, suffix: string): string {
  return `print-station-${jobId.replace(/[^A-Za-z0-9._-]/g, '-')}-${suffix}.pdf`;
}

/** Options for pdf-to-printer per media: labels unscaled on explicit 4x6 paper, documents fit to A4. */
export function windowsPrintOptions(
  printer: string,
  media: PrinterMedia,
  copies: number,
  extra: { labelPaperSize?: string; sumatraPdfPath?: string } = {},
): WindowsPrintOptions {
  const names = MEDIA_NAMES[media];
  const paperSize = media === 'label' ? (extra.labelPaperSize ?? names.windows) : names.windows;
  const options: WindowsPrintOptions = { printer, scale: names.scaling === 'none' ? 'noscale' : 'fit', paperSize, copies, silent: true };
  if (extra.sumatraPdfPath) options.sumatraPdfPath = extra.sumatraPdfPath;
  return options;
}

const SUMATRA_DEFAULT = 'SumatraPDF-3.4.6-32.exe';

/**
 * Where SumatraPDF lives in a packaged Electron app. An .exe inside app.asar cannot be
 * executed, so electron-builder unpacks it (asarUnpack) to app.asar.unpacked; pdf-to-printer
 * only redirects there when `process.mainModule` names app.asar, which is undefined in an
 * ESM or bundled main process. Returns undefined outside a packaged app.
 *
 * @param moduleDir pdf-to-printer's dist directory as the running code sees it
 */
export function packagedSumatraPdfPath(moduleDir: string, readdir: (dir: string) => string[] = (d) => readdirSync(d)): string | undefined {
  const asar = /([\\/])app\.asar(?=[\\/]|$)/;
  if (!asar.test(moduleDir)) return undefined;
  const unpacked = moduleDir.replace(asar, '$1app.asar.unpacked');
  let exe = SUMATRA_DEFAULT;
  try {
    exe = readdir(unpacked).find((f) => /^SumatraPDF.*\.exe$/i.test(f)) ?? SUMATRA_DEFAULT;
  } catch {
    // keep the name pdf-to-printer 5 ships
  }
  const sep = moduleDir.includes('\\') ? '\\' : '/';
  return `${unpacked.replace(/[\\/]+$/, '')}${sep}${exe}`;
}

/**
 * Prints through pdf-to-printer (SumatraPDF) and, given the spooler, follows the job there.
 * SumatraPDF names the spooler job after the file it prints, so the temp file is named
 * after the ledger job id: that document name is how a job is found again, as the job
 * title is on CUPS.
 */
export class WindowsTarget implements PrinterTarget {
  readonly kind = 'windows' as const;
  readonly needsPdf = true;
  readonly reconcilable: boolean;
  readonly uri: string;
  readonly name: string;
  private readonly module: PdfToPrinterModule;
  private readonly sumatraPdfPath: string | undefined;
  private readonly labelPaperSize: string;
  private readonly tempDir: string;
  private readonly timeoutMs: number;
  private readonly spooler: WindowsSpooler | null;
  private readonly checkReadiness: boolean;
  /** Jobs seen held up by an error or being deleted: if they then vanish, that is how they ended. */
  private readonly troubled = new Map<string, 'aborted' | 'canceled'>();
  /** Ledger jobs whose failed spool the spooler confirmed never reached it: safe to send again. */
  private readonly notSent = new Set<string>();
  private readonly readyForMs: number;
  private readonly listEveryMs: number;
  private readonly now: () => number;
  private readyAt = Number.NEGATIVE_INFINITY;
  private listedAt = Number.NEGATIVE_INFINITY;

  constructor(options: WindowsTargetOptions) {
    this.uri = options.uri;
    this.name = options.name;
    this.module = options.pdfToPrinter;
    this.sumatraPdfPath = options.sumatraPdfPath;
    this.labelPaperSize = options.labelPaperSize ?? '4x6';
    this.tempDir = options.tempDir ?? os.tmpdir();
    this.timeoutMs = Math.max(1, options.timeoutMs ?? 60_000);
    this.spooler = options.spooler ?? null;
    this.checkReadiness = options.checkReadiness ?? true;
    this.reconcilable = this.spooler !== null;
    this.readyForMs = options.readyForMs ?? 5000;
    this.listEveryMs = options.listEveryMs ?? 2000;
    this.now = options.now ?? Date.now;
  }

  private spoolerJobId(job: WindowsPrintJob): string {
    return `${this.name}-${job.id}`;
  }

  /** The spooler's jobs for this printer carrying the ledger job id, best first. */
  private mine(jobs: readonly WindowsPrintJob[], jobId: string): WindowsPrintJob[] {
    const listed = jobs.filter((job) => job.documentName.includes(jobId)).sort((a, b) => b.id - a.id);
    // Prefer a job that printed or will print over a deleted attempt.
    return [
      ...listed.filter((job) => jobStateOf(job.status) !== 'canceled'),
      ...listed.filter((job) => jobStateOf(job.status) === 'canceled'),
    ];
  }

  /** Refuses a job the printer cannot print now; a spooler that cannot be asked does not stop printing. */
  private async assertReady(jobId: string): Promise<void> {
    if (!this.spooler || !this.checkReadiness) return;
    if (this.now() - this.readyAt < this.readyForMs) return;
    let printer;
    try {
      printer = await this.spooler.printer(this.name);
    } catch (error) {
      if (error instanceof PrintError && error.code === PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE) return;
      throw error;
    }
    try {
      if (!printer) throw new PrintError(PRINT_ERROR_CODES.PRINTER_NOT_FOUND, this.notFoundMessage(), { target: this.uri });
      assertPrinterReady(printer, this.uri);
      this.readyAt = this.now();
    } catch (error) {
      this.readyAt = Number.NEGATIVE_INFINITY;
      this.notSent.add(jobId);
      throw error;
    }
  }

  private notFoundMessage(): string {
    return `Windows printer "${this.name}" does not exist: check the exact name in Windows settings (Printers & scanners).`;
  }

  async spool(request: SpoolRequest): Promise<SpoolResult> {
    if (!request.pdf) {
      throw new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, `${this.uri} prints PDFs: fetch the document with output_format file first.`, {
        target: this.uri,
      });
    }
    await this.assertReady(request.jobId);
    this.notSent.delete(request.jobId);
    // SumatraPDF takes a path. The job id in the name is what Windows shows as the document.
    const file = path.join(this.tempDir, windowsDocumentFileName(request.jobId, randomBytes(3).toString('hex')));
    try {
      await fs.writeFile(file, request.pdf);
    } catch (error) {
      throw fsPrintError(error, file, this.uri);
    }
    const printing = this.module.print(
      file,
      windowsPrintOptions(this.name, request.media, request.copies, {
        labelPaperSize: this.labelPaperSize,
        sumatraPdfPath: this.sumatraPdfPath,
      }),
    );
    // The file goes once SumatraPDF is done with it, even if that is after a timeout.
    const removed = printing.then(
      () => fs.unlink(file).catch(() => undefined),
      () => fs.unlink(file).catch(() => undefined),
    );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    try {
      const outcome = await Promise.race([printing, timedOut]);
      if (outcome !== 'timeout') await removed;
      if (outcome === 'timeout') {
        throw new PrintError(
          PRINT_ERROR_CODES.MAY_HAVE_PRINTED,
          `Windows did not confirm printing to "${this.name}" within ${Math.round(this.timeoutMs / 1000)} s (SumatraPDF may be stuck on a dialog); it may have printed: check the printer, then retry by hand`,
          { target: this.uri },
        );
      }
    } catch (error) {
      if (error instanceof PrintError) throw error;
      await removed;
      await this.noteNotSent(request.jobId);
      const detail = error instanceof Error ? error.message : String(error);
      throw new PrintError(
        PRINT_ERROR_CODES.SPOOL_FAILED,
        `Windows could not print to "${this.name}": ${detail}. Check the printer in Windows settings.`,
        {
          cause: error,
          target: this.uri,
        },
      );
    } finally {
      clearTimeout(timer);
    }
    return this.handedOver(request.jobId);
  }

  /**
   * pdf-to-printer resolves once SumatraPDF has exited after handing the job to the spooler;
   * it returns no job id, so the job is looked up by its document name. Not listed any more
   * means it left the queue without an error (printed, as a vanished CUPS job). Without a
   * spooler that answers, the hand-over is the last fact: reporting "not completed" would
   * leave the job `spooled` with nothing to follow.
   */
  private async handedOver(jobId: string): Promise<SpoolResult> {
    if (!this.spooler) return { spoolerJobId: null, completed: true };
    let jobs;
    try {
      jobs = await this.spooler.jobs(this.name);
    } catch {
      return { spoolerJobId: null, completed: true };
    }
    const job = this.mine(jobs, jobId)[0];
    if (!job) return { spoolerJobId: null, completed: true };
    this.remember(job);
    return { spoolerJobId: this.spoolerJobId(job), completed: jobStateOf(job.status) === 'completed' };
  }

  /** After SumatraPDF failed: if the spooler has no job of ours, a retry cannot print twice. */
  private async noteNotSent(jobId: string): Promise<void> {
    if (!this.spooler) return;
    try {
      if (this.mine(await this.spooler.jobs(this.name), jobId).length === 0) this.notSent.add(jobId);
    } catch {
      // Unknown is not "absent".
    }
  }

  private remember(job: WindowsPrintJob): void {
    const id = this.spoolerJobId(job);
    const state = jobStateOf(job.status);
    if (state === 'canceled') this.troubled.set(id, 'canceled');
    else if (jobHasError(job.status)) this.troubled.set(id, 'aborted');
    else this.troubled.delete(id);
  }

  /** One job's state now (not throttled: the follower uses jobStates). */
  async jobState(spoolerJobId: string): Promise<SpoolerJobState> {
    this.listedAt = Number.NEGATIVE_INFINITY;
    return (await this.jobStates([spoolerJobId])).get(spoolerJobId) ?? 'unknown';
  }

  /**
   * One Get-PrintJob for all followed jobs of this printer. A job that leaves the queue
   * after it was seen in error or being deleted ended that way (aborted, canceled); one
   * that leaves it otherwise is 'unknown', which the follower takes as printed once it
   * stays gone, as on CUPS.
   */
  async jobStates(spoolerJobIds: readonly string[]): Promise<ReadonlyMap<string, SpoolerJobState>> {
    const result = new Map<string, SpoolerJobState>();
    if (!this.spooler) {
      for (const id of spoolerJobIds) result.set(id, 'unknown');
      return result;
    }
    if (this.now() - this.listedAt < this.listEveryMs) return result;
    this.listedAt = this.now();
    const jobs = await this.spooler.jobs(this.name);
    for (const spoolerJobId of spoolerJobIds) {
      const job = jobs.find((j) => this.spoolerJobId(j) === spoolerJobId);
      if (job) {
        const state = jobStateOf(job.status);
        this.remember(job);
        if (state === 'completed' || state === 'canceled') this.troubled.delete(spoolerJobId);
        result.set(spoolerJobId, state);
        continue;
      }
      const ended = this.troubled.get(spoolerJobId);
      this.troubled.delete(spoolerJobId);
      result.set(spoolerJobId, ended ?? 'unknown');
    }
    return result;
  }

  /**
   * After a crash: the spooler's job whose document name carries the ledger job id. Windows
   * removes a printed job from the queue unless the printer keeps printed documents, so a
   * job that is not listed may have printed already: then this throws MAY_HAVE_PRINTED and a
   * person decides, unless the printer keeps printed documents or this run saw the spool
   * fail without reaching the spooler.
   */
  async findSpooled(jobId: string): Promise<{ spoolerJobId: string; state: SpoolerJobState } | null> {
    if (!this.spooler) return null;
    const job = this.mine(await this.spooler.jobs(this.name), jobId)[0];
    if (job) {
      this.remember(job);
      return { spoolerJobId: this.spoolerJobId(job), state: jobStateOf(job.status) };
    }
    if (this.notSent.has(jobId)) return null;
    const printer = await this.spooler.printer(this.name);
    if (printer?.keepPrintedJobs) return null;
    throw new PrintError(
      PRINT_ERROR_CODES.MAY_HAVE_PRINTED,
      `The Windows print queue of "${this.name}" no longer lists job ${jobId}, and Windows removes printed jobs from it: ` +
        'it may have printed: check the printer, then retry by hand',
      { target: this.uri },
    );
  }

  async readiness(): Promise<Readiness> {
    if (this.spooler) {
      try {
        const printer = await this.spooler.printer(this.name);
        if (!printer) return { ready: false, detail: this.notFoundMessage() };
        assertPrinterReady(printer, this.uri);
        return { ready: true, detail: null };
      } catch (error) {
        if (!(error instanceof PrintError)) throw error;
        if (error.code !== PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE) return notReady(error);
        // PowerShell could not answer: whether the printer exists is still worth knowing.
      }
    }
    let printers;
    try {
      printers = await this.module.getPrinters();
    } catch (error) {
      return { ready: false, detail: `Cannot list Windows printers: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (printers.some((p) => p.name === this.name)) return { ready: true, detail: null };
    return { ready: false, detail: this.notFoundMessage() };
  }
}
