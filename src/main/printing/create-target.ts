import { printerKindEntry } from './printer-kinds';
import type { PrinterTarget } from './target';
import type { TargetDeps } from './target-deps';
import { parsePrinterUri } from './uri';
import { WindowsSpooler } from './windows/windows-spooler';
import type { PdfToPrinterModule } from './windows/windows-target';

export type { TargetDeps } from './target-deps';

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
