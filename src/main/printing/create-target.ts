import type { ExecFileRunner } from './exec';
import type { FolderFs } from './folder/folder-target';
import { printerKindEntry } from './printer-kinds';
import type { ServicePrintPort } from './service/service-target';
import type { PrinterTarget } from './target';
import { parsePrinterUri } from './uri';
import { WindowsSpooler } from './windows/windows-spooler';
import type { PdfToPrinterModule } from './windows/windows-target';

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

/**
 * The target a printer URI names, built by its kind's factory (src/main/printing/printer-kinds.ts).
 * @throws PrintError INVALID_PRINTER_URI or PRINT_UNSUPPORTED
 */
export function createTarget(uri: string, deps: TargetDeps = {}): PrinterTarget {
  const address = parsePrinterUri(uri, deps.cwd);
  const platform = deps.platform ?? process.platform;
  return printerKindEntry(address.kind).create(address, { uri, deps, platform });
}

/**
 * Loads pdf-to-printer (a CommonJS module) for Windows targets and discovery. Its printing
 * runs its own SumatraPDF by full path; its getPrinters runs `Powershell.exe` by name, which
 * PATH decides, so the list comes from `spooler` instead (PowerShell by its full path).
 */
export async function loadPdfToPrinter(spooler: Pick<WindowsSpooler, 'listPrinters'> = new WindowsSpooler()): Promise<PdfToPrinterModule> {
  const mod = (await import('pdf-to-printer')) as unknown as PdfToPrinterModule & { default?: PdfToPrinterModule };
  return withSpoolerPrinterList(mod.default ?? mod, spooler);
}

/** `module` with getPrinters answered by `spooler` (Windows PowerShell by its full path). */
export function withSpoolerPrinterList(module: PdfToPrinterModule, spooler: Pick<WindowsSpooler, 'listPrinters'>): PdfToPrinterModule {
  return { print: (pdf, options) => module.print(pdf, options), getPrinters: () => spooler.listPrinters() };
}
