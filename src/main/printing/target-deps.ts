// What building a target may be handed (createTarget's second argument). In a file of its own so
// the kinds' registry entries can name it without importing createTarget, which imports them.
import type { ExecFileRunner } from '../process/exec';
import type { FolderFs } from './folder/folder-target';
import type { ServicePrintPort } from './service/service-target';
import type { WindowsSpooler } from './windows/windows-spooler';
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
