import { defaultPowershellPath, POWERSHELL_ARGS } from '../../windows-powershell';
import { PRINT_ERROR_CODES, PrintError } from '../errors';
import { runExecFile, type ExecFileRunner } from '../../process/exec';

/*
 * What the Windows print spooler says about a printer and its jobs, asked through
 * PowerShell's PrintManagement cmdlets (Get-Printer, Get-PrintJob: the MSFT_Printer and
 * MSFT_PrintJob CIM classes) with ConvertTo-Json. PowerShell runs through execFile, never a
 * shell, with a fixed script: the printer name reaches it through an environment variable,
 * so no name (quotes, `$`, backticks) can change what runs.
 */

/** The environment variable the fixed scripts read the printer name from. */
export const PRINTER_NAME_ENV = 'PRINT_STATION_PRINTER';

// UTF-8 output: Windows PowerShell 5.1 writes the console's OEM code page otherwise, which
// garbles printer and document names such as "Etiketter på lager".
const PRELUDE = `$ErrorActionPreference = 'Stop'; [Console]::OutputEncoding = [Text.Encoding]::UTF8; $n = $env:${PRINTER_NAME_ENV}; `;

/** One printer by its exact name (Where-Object: -Name would treat [ and * as wildcards). */
export const GET_PRINTER_SCRIPT =
  `${PRELUDE}ConvertTo-Json -Compress -InputObject @(Get-Printer | Where-Object { $_.Name -eq $n } | ` +
  `Select-Object Name, PrinterStatus, WorkOffline, KeepPrintedJobs, JobCount)`;

/** Every job the spooler lists for the printer. */
export const GET_PRINT_JOBS_SCRIPT =
  `${PRELUDE}ConvertTo-Json -Compress -InputObject @(Get-PrintJob -PrinterName $n | ` +
  `Select-Object Id, PrinterName, DocumentName, JobStatus, SubmittedTime)`;

export { defaultPowershellPath, POWERSHELL_ARGS };

/**
 * Every printer, as pdf-to-printer's getPrinters lists them (Win32_Printer: DeviceID, Name,
 * PrinterPaperNames), but through this PowerShell by its full path: pdf-to-printer runs
 * `Powershell.exe` by name, which PATH decides.
 */
export const LIST_PRINTERS_SCRIPT =
  `${PRELUDE}ConvertTo-Json -Compress -Depth 3 -InputObject @(Get-CimInstance Win32_Printer -Property DeviceID, Name, PrinterPaperNames | ` +
  `Select-Object DeviceID, Name, PrinterPaperNames)`;

/** MSFT_Printer.PrinterStatus (Microsoft's documented values). */
export const PRINTER_STATUS = [
  'Normal',
  'Paused',
  'Error',
  'PendingDeletion',
  'PaperJam',
  'PaperOut',
  'ManualFeed',
  'PaperProblem',
  'Offline',
  'IOActive',
  'Busy',
  'Printing',
  'OutputBinFull',
  'NotAvailable',
  'Waiting',
  'Processing',
  'Initializing',
  'WarmingUp',
  'TonerLow',
  'NoToner',
  'PagePunt',
  'UserIntervention',
  'OutOfMemory',
  'DoorOpen',
  'ServerUnknown',
  'PowerSave',
] as const;
export type PrinterStatusName = (typeof PRINTER_STATUS)[number] | 'Unknown';

/** MSFT_PrintJob.JobStatus flags (the spooler's JOB_STATUS_* bits). */
export const JOB_STATUS = {
  Paused: 0x1,
  Error: 0x2,
  Deleting: 0x4,
  Spooling: 0x8,
  Printing: 0x10,
  Offline: 0x20,
  PaperOut: 0x40,
  Printed: 0x80,
  Deleted: 0x100,
  Blocked: 0x200,
  UserIntervention: 0x400,
  Restarted: 0x800,
  Complete: 0x1000,
  Retained: 0x2000,
} as const;

export interface WindowsPrinterInfo {
  readonly name: string;
  readonly status: PrinterStatusName;
  /** "Use Printer Offline" ticked in the queue window. */
  readonly workOffline: boolean;
  /** "Keep printed documents": printed jobs stay listed, so a missing job was never sent. */
  readonly keepPrintedJobs: boolean;
  readonly jobCount: number;
}

export interface WindowsPrintJob {
  readonly id: number;
  readonly printerName: string;
  readonly documentName: string;
  /** JOB_STATUS flags. */
  readonly status: number;
  readonly submittedAt: string | null;
}

export interface WindowsSpoolerOptions {
  /**
   * Windows PowerShell. @default `%SystemRoot%\System32\WindowsPowerShell\v1.0\powershell.exe`
   * (a full path, so a powershell.exe earlier on PATH is not run; C:\Windows when SystemRoot
   * is not set): see windows-powershell.ts
   */
  readonly powershellPath?: string;
  /** @default runExecFile (execFile, never a shell) */
  readonly exec?: ExecFileRunner;
  /** One PowerShell run; its start-up alone takes about half a second. @default 15000 */
  readonly timeoutMs?: number;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

function asArray(json: unknown): unknown[] {
  // -InputObject @(...) keeps a one-element array an array, but older outputs had a bare object.
  if (json === null || json === undefined || json === '') return [];
  return Array.isArray(json) ? json : [json];
}

function statusName(raw: unknown): PrinterStatusName {
  if (typeof raw === 'number') return PRINTER_STATUS[raw] ?? 'Unknown';
  if (typeof raw === 'string') return (PRINTER_STATUS as readonly string[]).includes(raw) ? (raw as PrinterStatusName) : 'Unknown';
  return 'Unknown';
}

function jobFlags(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return 0;
  // PowerShell 7 with -EnumsAsStrings, or a formatted flags enum: "Printing, Retained".
  let flags = 0;
  for (const word of raw.split(/[,\s]+/)) flags |= JOB_STATUS[word as keyof typeof JOB_STATUS] ?? 0;
  return flags;
}

/** Windows PowerShell 5.1 writes dates as "/Date(ms)/", PowerShell 7 as ISO 8601. */
function dateOf(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const ms = /\/Date\((-?\d+)/.exec(raw);
  const date = ms ? new Date(Number(ms[1])) : new Date(raw);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function parsePrinters(stdout: string): WindowsPrinterInfo[] {
  return asArray(parseJson(stdout)).map((p) => {
    const o = (p ?? {}) as Record<string, unknown>;
    return {
      name: String(o.Name ?? ''),
      status: statusName(o.PrinterStatus),
      workOffline: o.WorkOffline === true,
      keepPrintedJobs: o.KeepPrintedJobs === true,
      jobCount: typeof o.JobCount === 'number' ? o.JobCount : 0,
    };
  });
}

/** One printer as pdf-to-printer's getPrinters gives it. */
export interface WindowsPrinterListing {
  readonly deviceId: string;
  readonly name: string;
  readonly paperSizes: string[];
}

export function parsePrinterList(stdout: string): WindowsPrinterListing[] {
  return asArray(parseJson(stdout))
    .map((p) => {
      const o = (p ?? {}) as Record<string, unknown>;
      const papers = Array.isArray(o.PrinterPaperNames) ? o.PrinterPaperNames.map(String) : [];
      return { deviceId: String(o.DeviceID ?? ''), name: String(o.Name ?? ''), paperSizes: papers };
    })
    .filter((p) => p.name !== '');
}

export function parsePrintJobs(stdout: string): WindowsPrintJob[] {
  return asArray(parseJson(stdout))
    .map((j) => {
      const o = (j ?? {}) as Record<string, unknown>;
      return {
        id: typeof o.Id === 'number' ? o.Id : Number(o.Id),
        printerName: String(o.PrinterName ?? ''),
        documentName: String(o.DocumentName ?? ''),
        status: jobFlags(o.JobStatus),
        submittedAt: dateOf(o.SubmittedTime),
      };
    })
    .filter((j) => Number.isInteger(j.id));
}

function parseJson(stdout: string): unknown {
  const text = stdout.replace(/^\uFEFF/, '').trim();
  if (!text) return [];
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`PowerShell printed something that is not JSON: "${text.slice(0, 120)}"`);
  }
}

/** Asks the spooler; throws PrintError SPOOLER_UNAVAILABLE when PowerShell cannot answer. */
export class WindowsSpooler {
  private readonly powershell: string;
  private readonly exec: ExecFileRunner;
  private readonly timeoutMs: number;
  private readonly env: NodeJS.ProcessEnv;

  constructor(options: WindowsSpoolerOptions = {}) {
    this.env = options.env ?? process.env;
    this.powershell = options.powershellPath ?? defaultPowershellPath(this.env);
    this.exec = options.exec ?? runExecFile;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** The printer with exactly this name, or null when Windows has none. */
  async printer(name: string): Promise<WindowsPrinterInfo | null> {
    const stdout = await this.run(GET_PRINTER_SCRIPT, name, `read the state of Windows printer "${name}"`);
    return parsePrinters(stdout).find((p) => p.name === name) ?? null;
  }

  async jobs(name: string): Promise<WindowsPrintJob[]> {
    return parsePrintJobs(await this.run(GET_PRINT_JOBS_SCRIPT, name, `list the print jobs of Windows printer "${name}"`));
  }

  /** Every printer Windows lists (for discovery, and whether a printer exists). */
  async listPrinters(): Promise<WindowsPrinterListing[]> {
    return parsePrinterList(await this.run(LIST_PRINTERS_SCRIPT, '', 'list the Windows printers'));
  }

  private async run(script: string, printer: string, what: string): Promise<string> {
    const unavailable = (detail: string, cause?: unknown): PrintError =>
      new PrintError(PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE, `Cannot ${what} through PowerShell: ${detail}`, {
        cause,
        ...(printer ? { target: `windows:${printer}` } : {}),
      });
    let result;
    try {
      result = await this.exec(this.powershell, [...POWERSHELL_ARGS, script], {
        env: { ...this.env, [PRINTER_NAME_ENV]: printer },
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        throw unavailable(`${this.powershell} was not found (Windows PowerShell 5.1 ships with Windows 10 and 11)`, error);
      throw unavailable((error as Error).message, error);
    }
    if (result.code !== 0) {
      const said = (result.stderr.trim() || result.stdout.trim()).split(/\r?\n/)[0] || `exit code ${result.code}`;
      throw unavailable(said);
    }
    try {
      parseJson(result.stdout);
    } catch (error) {
      throw unavailable((error as Error).message, error);
    }
    return result.stdout;
  }
}
