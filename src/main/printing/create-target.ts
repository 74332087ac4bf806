import { CupsTarget } from './cups-target';
import { PRINT_ERROR_CODES, PrintError } from './errors';
import type { ExecFileRunner } from './exec';
import { FolderTarget, type FolderFs } from './folder-target';
import { ServiceTarget, type ServicePrintPort } from './service-target';
import type { PrinterTarget } from './target';
import { parsePrinterUri } from './uri';
import { WindowsSpooler } from './windows-spooler';
import { WindowsTarget, type PdfToPrinterModule } from './windows-target';

export interface TargetDeps {
  /** For `service:` targets (ServiceClient fits). */
  readonly service?: ServicePrintPort;
  /** For `cups:` (CUPS_SERVER). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** For `windows:` (see loadPdfToPrinter). */
  readonly pdfToPrinter?: PdfToPrinterModule;
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** Base for relative `folder:` paths. @default process.cwd() */
  readonly cwd?: string;
  /** SumatraPDF in a packaged app (packagedSumatraPdfPath). @default pdf-to-printer's own */
  readonly sumatraPdfPath?: string;
  /** How `cups:` jobs reach the scheduler (CupsTargetOptions.spool). @default 'ipp' */
  readonly cupsSpool?: 'ipp' | 'lp';
  /** Warnings a target logs itself (CUPS: IPP printing fell back to lp, and why). @default process.stderr */
  readonly log?: (line: string) => void;
  /** @default execFile without a shell */
  readonly exec?: ExecFileRunner;
  /** @default node:fs/promises */
  readonly fs?: FolderFs;
  /** For `windows:` printer and job states. @default PowerShell through `exec` */
  readonly windowsSpooler?: WindowsSpooler;
}

function unsupported(uri: string, message: string): PrintError {
  return new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, message, { target: uri });
}

/** The target a printer URI names. @throws PrintError INVALID_PRINTER_URI or PRINT_UNSUPPORTED */
export function createTarget(uri: string, deps: TargetDeps = {}): PrinterTarget {
  const address = parsePrinterUri(uri, deps.cwd);
  const platform = deps.platform ?? process.platform;
  switch (address.kind) {
    case 'cups':
      if (platform === 'win32') throw unsupported(uri, `${uri}: CUPS printing needs macOS or Linux; on Windows use windows:PRINTER NAME.`);
      return new CupsTarget({ uri, queue: address.queue, server: address.server, env: deps.env, exec: deps.exec, spool: deps.cupsSpool, log: deps.log });
    case 'windows':
      if (platform !== 'win32') throw unsupported(uri, `${uri}: Windows printers print only on Windows; on ${platform} use cups:QUEUE.`);
      if (!deps.pdfToPrinter) throw unsupported(uri, `${uri}: the pdf-to-printer module is not loaded.`);
      return new WindowsTarget({
        uri,
        name: address.name,
        pdfToPrinter: deps.pdfToPrinter,
        sumatraPdfPath: deps.sumatraPdfPath,
        spooler: deps.windowsSpooler ?? new WindowsSpooler({ env: deps.env, exec: deps.exec }),
      });
    case 'folder':
      return new FolderTarget({ uri, dir: address.dir, fs: deps.fs });
    case 'service':
      if (!deps.service) throw unsupported(uri, `${uri}: service printing needs a connection to the service; set the API URL and key first.`);
      return new ServiceTarget({ uri, printerId: address.printerId, service: deps.service });
  }
}

/** Loads pdf-to-printer (a CommonJS module) for Windows targets and discovery. */
export async function loadPdfToPrinter(): Promise<PdfToPrinterModule> {
  const mod = (await import('pdf-to-printer')) as unknown as PdfToPrinterModule & { default?: PdfToPrinterModule };
  return mod.default ?? mod;
}
