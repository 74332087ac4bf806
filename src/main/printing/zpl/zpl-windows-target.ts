/**
 * A ZPL printer on USB behind the Windows spooler (`zpl-windows:PRINTER NAME`): the labels,
 * rendered to ZPL here, go to the spooler with the RAW datatype, so no driver rasterizes or
 * scales them. One fixed PowerShell script calls winspool's OpenPrinter / StartDocPrinter /
 * WritePrinter; the printer name and document name reach it through environment variables
 * and the ZPL through stdin, so nothing a name contains can change what runs.
 */
import { PRINT_ERROR_CODES, PrintError } from '../errors';
import { runExecFile, type ExecFileRunner } from '../../process/exec';
import { notReady, type PrinterTarget, type Readiness, type SpoolerJobState, type SpoolRequest, type SpoolResult } from '../target';
import { defaultPowershellPath, POWERSHELL_ARGS, PRINTER_NAME_ENV, type WindowsSpooler } from '../windows/windows-spooler';
import { assertPrinterReady, jobStateOf } from '../windows/windows-status';
import { labelsFor } from './zpl-labels';
import type { ZplDpi } from './zpl-raster';

/** The environment variable the raw script reads the spooler's document name from. */
export const DOCUMENT_NAME_ENV = 'PRINT_STATION_DOCUMENT';

/**
 * Reads the ZPL from stdin and writes it to the printer as one RAW document; prints the
 * spooler's job id as JSON. The C# is fixed text: only $env values and stdin vary.
 */
export const WRITE_RAW_SCRIPT =
  `$ErrorActionPreference = 'Stop'; $n = $env:${PRINTER_NAME_ENV}; $d = $env:${DOCUMENT_NAME_ENV}; ` +
  "Add-Type -TypeDefinition @'\n" +
  'using System; using System.IO; using System.Runtime.InteropServices;\n' +
  'public static class PrintStationRaw {\n' +
  '  [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)] public class DOCINFO { public string pDocName; public string pOutputFile; public string pDatatype; }\n' +
  '  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)] static extern bool OpenPrinter(string name, out IntPtr h, IntPtr defaults);\n' +
  '  [DllImport("winspool.drv", SetLastError = true)] static extern bool ClosePrinter(IntPtr h);\n' +
  '  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)] static extern int StartDocPrinter(IntPtr h, int level, [In] DOCINFO info);\n' +
  '  [DllImport("winspool.drv", SetLastError = true)] static extern bool EndDocPrinter(IntPtr h);\n' +
  '  [DllImport("winspool.drv", SetLastError = true)] static extern bool StartPagePrinter(IntPtr h);\n' +
  '  [DllImport("winspool.drv", SetLastError = true)] static extern bool EndPagePrinter(IntPtr h);\n' +
  '  [DllImport("winspool.drv", SetLastError = true)] static extern bool WritePrinter(IntPtr h, byte[] data, int count, out int written);\n' +
  '  static Exception Fail(string what) { return new Exception(what + " failed (Windows error " + Marshal.GetLastWin32Error() + ")"); }\n' +
  '  public static int Send(string printer, string document, byte[] data) {\n' +
  '    IntPtr h; if (!OpenPrinter(printer, out h, IntPtr.Zero)) throw Fail("OpenPrinter");\n' +
  '    try {\n' +
  '      DOCINFO info = new DOCINFO(); info.pDocName = document; info.pDatatype = "RAW";\n' +
  '      int job = StartDocPrinter(h, 1, info); if (job == 0) throw Fail("StartDocPrinter");\n' +
  '      try {\n' +
  '        if (!StartPagePrinter(h)) throw Fail("StartPagePrinter");\n' +
  '        int written; if (!WritePrinter(h, data, data.Length, out written) || written != data.Length) throw Fail("WritePrinter");\n' +
  '        EndPagePrinter(h);\n' +
  '      } finally { EndDocPrinter(h); }\n' +
  '      return job;\n' +
  '    } finally { ClosePrinter(h); }\n' +
  '  }\n' +
  '}\n' +
  "'@\n" +
  '$in = New-Object IO.MemoryStream; [Console]::OpenStandardInput().CopyTo($in); ' +
  '$job = [PrintStationRaw]::Send($n, $d, $in.ToArray()); ConvertTo-Json -Compress -InputObject @{ JobId = $job }';

export interface ZplWindowsTargetOptions {
  readonly uri: string;
  /** The exact Windows printer name. */
  readonly name: string;
  /** @default 203 (a spooler cannot be asked the printer's resolution) */
  readonly dpi?: ZplDpi;
  /** Printer and job states (Get-Printer / Get-PrintJob). */
  readonly spooler: WindowsSpooler;
  /** @default the full System32 path (defaultPowershellPath) */
  readonly powershellPath?: string;
  /** @default runExecFile (execFile, never a shell) */
  readonly exec?: ExecFileRunner;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** One hand-over. @default 30000 */
  readonly timeoutMs?: number;
}

export class ZplWindowsTarget implements PrinterTarget {
  readonly kind = 'zpl-windows' as const;
  readonly needsPdf = true;
  readonly reconcilable = false;
  readonly uri: string;
  readonly name: string;
  private readonly dpi: ZplDpi;
  private readonly spooler: WindowsSpooler;
  private readonly powershell: string;
  private readonly exec: ExecFileRunner;
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeoutMs: number;

  constructor(options: ZplWindowsTargetOptions) {
    this.uri = options.uri;
    this.name = options.name;
    this.dpi = options.dpi ?? 203;
    this.spooler = options.spooler;
    this.env = options.env ?? process.env;
    this.powershell = options.powershellPath ?? defaultPowershellPath(this.env);
    this.exec = options.exec ?? runExecFile;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  private spoolerJobId(id: number): string {
    return `${this.name}-${id}`;
  }

  async spool(request: SpoolRequest): Promise<SpoolResult> {
    const printer = await this.spooler.printer(this.name);
    if (!printer) throw new PrintError(PRINT_ERROR_CODES.PRINTER_NOT_FOUND, this.notFoundMessage(), { target: this.uri });
    assertPrinterReady(printer, this.uri);
    const zpl = await labelsFor(request, { dpi: this.dpi, uri: this.uri, identity: null });
    let result;
    try {
      result = await this.exec(this.powershell, [...POWERSHELL_ARGS, WRITE_RAW_SCRIPT], {
        env: { ...this.env, [PRINTER_NAME_ENV]: this.name, [DOCUMENT_NAME_ENV]: request.title },
        input: zpl,
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new PrintError(
          PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE,
          `${this.powershell} was not found (Windows PowerShell 5.1 ships with Windows 10 and 11): cannot print to "${this.name}".`,
          { cause: error, target: this.uri },
        );
      }
      throw new PrintError(
        PRINT_ERROR_CODES.MAY_HAVE_PRINTED,
        `Handing job ${request.jobId} to "${this.name}" did not finish (${(error as Error).message}): it may have printed: check the printer, then retry by hand`,
        { cause: error, target: this.uri },
      );
    }
    const said = (result.stderr.trim() || result.stdout.trim()).split(/\r?\n/)[0] ?? '';
    const match = /"JobId"\s*:\s*(\d+)/.exec(result.stdout);
    if (result.code !== 0 || !match) {
      // OpenPrinter or StartDocPrinter failing leaves nothing at the spooler; WritePrinter may have.
      const sent = /WritePrinter/.test(said) || (result.code === 0 && !match);
      throw new PrintError(
        sent ? PRINT_ERROR_CODES.MAY_HAVE_PRINTED : PRINT_ERROR_CODES.SPOOL_FAILED,
        `Windows could not take the labels for "${this.name}" (${said || `exit code ${result.code}`})` +
          (sent ? ': it may have printed: check the printer, then retry by hand' : ': check the printer in Windows settings.'),
        { target: this.uri },
      );
    }
    return { spoolerJobId: this.spoolerJobId(Number(match[1])), completed: false };
  }

  async jobState(spoolerJobId: string): Promise<SpoolerJobState> {
    return (await this.jobStates([spoolerJobId])).get(spoolerJobId) ?? 'unknown';
  }

  /** Get-PrintJob once for all; a job no longer listed is 'unknown' (the follower takes it as printed once it stays gone). */
  async jobStates(spoolerJobIds: readonly string[]): Promise<ReadonlyMap<string, SpoolerJobState>> {
    const jobs = await this.spooler.jobs(this.name);
    const result = new Map<string, SpoolerJobState>();
    for (const id of spoolerJobIds) {
      const job = jobs.find((j) => this.spoolerJobId(j.id) === id);
      result.set(id, job ? jobStateOf(job.status) : 'unknown');
    }
    return result;
  }

  async findSpooled(): Promise<null> {
    return null;
  }

  private notFoundMessage(): string {
    return `Windows printer "${this.name}" does not exist: check the exact name in Windows settings (Printers & scanners).`;
  }

  async readiness(): Promise<Readiness> {
    try {
      const printer = await this.spooler.printer(this.name);
      if (!printer) return { ready: false, detail: this.notFoundMessage() };
      assertPrinterReady(printer, this.uri);
      return { ready: true, detail: null };
    } catch (error) {
      if (error instanceof PrintError) return notReady(error);
      throw error;
    }
  }
}
