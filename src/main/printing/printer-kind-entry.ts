/**
 * What one printer kind's registry entry carries (printer-kinds.ts lists the entries; each
 * kind's folder exports its own): everything the agent knows about the kind, so adding one
 * touches its folder and that list, nothing else.
 */
import type { PrinterInfo, PrinterMedia } from '../../shared/domain';
import type { PrinterKindFields } from '../../shared/printer-kinds';
import type { TargetDeps } from './target-deps';
import type { ExecFileRunner } from '../process/exec';
import { PRINT_ERROR_CODES, PrintError } from './errors';
import type { PrinterCheck } from './printer-check';
import type { PrinterTarget } from './target';
import type { PdfToPrinterModule } from './windows/windows-target';

export interface ParseContext {
  /** Base for relative paths (folder:). */
  readonly cwd: string;
  /** Throws INVALID_PRINTER_URI saying why and which forms are valid. */
  readonly fail: (why: string) => never;
  /** The URI's scheme: the kind's name, or another scheme naming it (`ipps` for `ipp`). */
  readonly scheme: string;
}

export interface CreateContext {
  /** The whole printer URI, as configured. */
  readonly uri: string;
  readonly deps: TargetDeps;
  /** `deps.platform`, defaulted to process.platform. */
  readonly platform: NodeJS.Platform;
}

/** GET /printers through the service client (ServiceClient.printers fits). */
export interface ServicePrintersPort {
  printers(): Promise<{ printers: ReadonlyArray<{ id: string; name?: string | null; description?: string | null }> }>;
}

export interface DiscoveryDeps {
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** For lpstat (CUPS_SERVER). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default execFile without a shell */
  readonly exec?: ExecFileRunner;
  /** Windows printers; required on win32 to list them. */
  readonly pdfToPrinter?: Pick<PdfToPrinterModule, 'getPrinters'>;
  /** The service's connected printers; omitted = none listed. */
  readonly service?: ServicePrintersPort;
  /** Told about a kind whose printers could not be listed; discovery goes on with the others. */
  readonly onError?: (source: string, error: unknown) => void;
}

/** One kind's entry; `A` is what its URIs say (after `kind:`), taken apart. */
export interface PrinterKindEntry<A extends object> {
  /** The URI forms, for the error that lists them (docs/INTERFACES.md, Printer URIs). */
  readonly forms: readonly string[];
  /** Takes apart what follows `kind:`; calls `context.fail` on anything else. */
  parse(rest: string, context: ParseContext): A;
  /** The canonical text after `kind:`: parse(format(a)) gives `a` back. */
  format(address: A): string;
  /** The URI scheme for an address when it is not always the kind's name (`ipps`). */
  scheme?(address: A): string;
  /** The target for a parsed URI. @throws PrintError PRINT_UNSUPPORTED when it cannot work here */
  create(address: A, context: CreateContext): PrinterTarget;
  /**
   * Whether the targets create() builds can find a job after a crash (`findSpooled` sees the
   * spooler). False: a job caught mid-hand-over fails as "may have printed" instead of being
   * looked up (see PrinterTarget.reconcilable, which the target itself reports).
   */
  readonly reconcilable: boolean;
  /**
   * Whether jobs waiting for one printer of this kind go to it together (jobs/batching.ts):
   * one fetch of their labels as one PDF and one printer job. True where a printer job is
   * spooled (for raw ZPL, one connection); false where each label is its own file or service
   * call.
   */
  readonly batches: boolean;
  /**
   * The least time between two readiness questions to one printer of this kind, when asking
   * costs more than a request (a Windows printer: a PowerShell run). The printer watch asks
   * every printer at its own interval (4 s), this kind's printers no more often than this.
   */
  readonly readinessMinIntervalMs: number;
  /**
   * Whether the start-up check asks this printer's readiness. False for printers that need
   * the connection to the service (the key check covers it).
   */
  readonly checkedAtStart: boolean;
  /**
   * The start-up check of one of its targets: what stops the start, what only warns.
   * @default the target's readiness, which only ever warns (printer-check.ts readinessCheck)
   */
  checkAtStart?(target: PrinterTarget, media: PrinterMedia | null): Promise<PrinterCheck>;
  /**
   * The printers of this kind this machine can offer in the printer picker, or null when it
   * has none to list here (another OS, no service connection). A list that fails is reported
   * through DiscoveryDeps.onError and left out.
   */
  discover?(deps: DiscoveryDeps, platform: NodeJS.Platform): Promise<PrinterInfo[]> | null;
  /** Its Settings fields (the renderer's half, src/shared/printer-kinds.ts PRINTER_KIND_FIELDS). */
  readonly fields: PrinterKindFields;
}

/** Infers an entry's address type from its parser. */
export function printerKindEntryOf<A extends object>(spec: PrinterKindEntry<A>): PrinterKindEntry<A> {
  return spec;
}

/** The error for a printer its kind cannot drive here (another OS, a module not loaded). */
export function unsupported(uri: string, message: string): PrintError {
  return new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, message, { target: uri });
}
