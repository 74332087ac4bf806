/** Printer targets, discovery and routing: the public surface of src/main/printing. */
export type { PrinterTarget, Readiness, SpoolerJobState, SpoolRequest, SpoolResult } from './target';
export { PRINT_ERROR_CODES, PrintError, type PrintErrorCode } from './errors';
export { formatPrinterUri, parsePrinterUri, VALID_PRINTER_URI_FORMS, type PrinterAddress } from './uri';
export { createTarget, loadPdfToPrinter, type TargetDeps } from './create-target';
export { CupsTarget, cupsMediaArgs, type CupsTargetOptions } from './cups-target';
export { FolderTarget, folderFileName, type FolderTargetOptions } from './folder-target';
export { ServiceTarget, type ServicePrintPort } from './service-target';
export { packagedSumatraPdfPath, windowsPrintOptions, WindowsTarget, type PdfToPrinterModule } from './windows-target';
export { discoverPrinters, guessMedia, type DiscoveryDeps, type ServicePrintersPort } from './discovery';
export { autoPrintTypes, mediaForLayout, routeFor, type Route } from './routing';
