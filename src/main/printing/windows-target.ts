import { promises as fs, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { PrinterMedia } from '../../shared/domain';
import { fsPrintError, PRINT_ERROR_CODES, PrintError } from './errors';
import type { PrinterTarget, Readiness, SpoolerJobState, SpoolRequest, SpoolResult } from './target';

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
}

/** Options for pdf-to-printer per media: labels unscaled on explicit 4x6 paper, documents fit to A4. */
export function windowsPrintOptions(
  printer: string,
  media: PrinterMedia,
  copies: number,
  extra: { labelPaperSize?: string; sumatraPdfPath?: string } = {},
): WindowsPrintOptions {
  const options: WindowsPrintOptions =
    media === 'label'
      ? { printer, scale: 'noscale', paperSize: extra.labelPaperSize ?? '4x6', copies, silent: true }
      : { printer, scale: 'fit', paperSize: 'A4', copies, silent: true };
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
 * Prints through pdf-to-printer (SumatraPDF). pdf-to-printer reports nothing after the
 * Windows spooler takes the job: jobState is 'unknown', findSpooled cannot look
 * (reconcilable false), and readiness only knows whether the printer exists.
 */
export class WindowsTarget implements PrinterTarget {
  readonly kind = 'windows' as const;
  readonly needsPdf = true;
  readonly reconcilable = false;
  readonly uri: string;
  readonly name: string;
  private readonly module: PdfToPrinterModule;
  private readonly sumatraPdfPath: string | undefined;
  private readonly labelPaperSize: string;
  private readonly tempDir: string;
  private readonly timeoutMs: number;

  constructor(options: WindowsTargetOptions) {
    this.uri = options.uri;
    this.name = options.name;
    this.module = options.pdfToPrinter;
    this.sumatraPdfPath = options.sumatraPdfPath;
    this.labelPaperSize = options.labelPaperSize ?? '4x6';
    this.tempDir = options.tempDir ?? os.tmpdir();
    this.timeoutMs = Math.max(1, options.timeoutMs ?? 60_000);
  }

  async spool(request: SpoolRequest): Promise<SpoolResult> {
    if (!request.pdf) {
      throw new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, `${this.uri} prints PDFs: fetch the document with output_format file first.`, { target: this.uri });
    }
    // SumatraPDF takes a path. The job id in the name is what Windows shows as the document.
    const file = path.join(this.tempDir, `print-station-${request.jobId.replace(/[^A-Za-z0-9._-]/g, '-')}-${randomBytes(3).toString('hex')}.pdf`);
    try {
      await fs.writeFile(file, request.pdf);
    } catch (error) {
      throw fsPrintError(error, file, this.uri);
    }
    const printing = this.module.print(
      file,
      windowsPrintOptions(this.name, request.media, request.copies, { labelPaperSize: this.labelPaperSize, sumatraPdfPath: this.sumatraPdfPath }),
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
      const detail = error instanceof Error ? error.message : String(error);
      throw new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, `Windows could not print to "${this.name}": ${detail}. Check the printer in Windows settings.`, {
        cause: error,
        target: this.uri,
      });
    } finally {
      clearTimeout(timer);
    }
    // pdf-to-printer resolves once SumatraPDF has exited after handing the job to the
    // Windows spooler; it returns no job id and nothing more can be followed or looked up.
    // Reporting "not completed" would leave the job `spooled` with nothing to follow, and
    // start() would find it open at every restart; the hand-over is the last fact we get.
    return { spoolerJobId: null, completed: true };
  }

  async jobState(_spoolerJobId: string): Promise<SpoolerJobState> {
    return 'unknown';
  }

  async findSpooled(_jobId: string): Promise<null> {
    return null;
  }

  async readiness(): Promise<Readiness> {
    let printers;
    try {
      printers = await this.module.getPrinters();
    } catch (error) {
      return { ready: false, detail: `Cannot list Windows printers: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (printers.some((p) => p.name === this.name)) return { ready: true, detail: null };
    return { ready: false, detail: `Windows printer "${this.name}" does not exist: check the exact name in Windows settings (Printers & scanners).` };
  }
}
