import { agentMessage, type AgentMessage } from '../../shared/agent-messages';
import { CodedError } from '../errors';
import { MakeDirError } from '../fs/make-dir';

/** Stable codes for everything that can go wrong handing a document to a printer. */
export const PRINT_ERROR_CODES = {
  INVALID_PRINTER_URI: 'INVALID_PRINTER_URI',
  PRINTER_NOT_FOUND: 'PRINTER_NOT_FOUND',
  PRINTER_DISABLED: 'PRINTER_DISABLED',
  PRINTER_REJECTING: 'PRINTER_REJECTING',
  /**
   * The printer itself cannot print now, in its own words: it cannot be reached (behind
   * CUPS: the queue's device), or it says why (out of media, a door open, paused).
   */
  PRINTER_OFFLINE: 'PRINTER_OFFLINE',
  /** The scheduler (cupsd) or print system could not be reached. */
  SPOOLER_UNAVAILABLE: 'SPOOLER_UNAVAILABLE',
  SPOOL_FAILED: 'SPOOL_FAILED',
  JOB_ABORTED: 'JOB_ABORTED',
  DISK_FULL: 'DISK_FULL',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** The target cannot do what was asked (no PDF for a PDF printer, unsupported platform). */
  UNSUPPORTED: 'PRINT_UNSUPPORTED',
  /**
   * The hand-over broke off at a point where the document may have printed (a timeout, a
   * 5xx from a service printer): a person checks the printer, nothing is resent by itself.
   */
  MAY_HAVE_PRINTED: 'PRINT_MAY_HAVE_PRINTED',
  /** Some copies printed, then one failed: the printed ones are never sent again. */
  PARTIAL: 'PRINT_PARTIAL',
} as const;
export type PrintErrorCode = (typeof PRINT_ERROR_CODES)[keyof typeof PRINT_ERROR_CODES];

/**
 * Whether waiting and retrying is likely to help. A disabled or rejecting queue is usually
 * a printer that went offline or ran out of paper and gets re-enabled; a missing queue,
 * a full disk or a permission problem needs a person to change something first.
 */
const RETRYABLE: Readonly<Record<PrintErrorCode, boolean>> = {
  INVALID_PRINTER_URI: false,
  PRINTER_NOT_FOUND: false,
  PRINTER_DISABLED: true,
  PRINTER_REJECTING: true,
  PRINTER_OFFLINE: true,
  SPOOLER_UNAVAILABLE: true,
  SPOOL_FAILED: true,
  JOB_ABORTED: false,
  DISK_FULL: false,
  PERMISSION_DENIED: false,
  PRINT_UNSUPPORTED: false,
  PRINT_MAY_HAVE_PRINTED: false,
  PRINT_PARTIAL: false,
};

/**
 * Codes that say the printer as a whole cannot take a job now, before anything was handed
 * over: the print queue waits on the printer (one readiness probe) instead of spending
 * each job's attempts on it.
 */
const PRINTER_DOWN: ReadonlySet<PrintErrorCode> = new Set<PrintErrorCode>([
  'SPOOLER_UNAVAILABLE',
  'PRINTER_DISABLED',
  'PRINTER_REJECTING',
  'PRINTER_OFFLINE',
]);

export class PrintError extends CodedError {
  override readonly code: PrintErrorCode;
  /** True when waiting and retrying is likely to help. */
  readonly retryable: boolean;
  /**
   * The whole printer is unavailable (scheduler down, queue stopped or rejecting, folder
   * not writable), not just this job: every job to it would fail the same way.
   */
  readonly printerDown: boolean;
  /** The printer URI the error is about, when known. */
  readonly target: string | null;
  /** The service's X-Service-Request-ID when a service printer failed. */
  readonly requestId: string | null;

  constructor(
    code: PrintErrorCode,
    message: string | AgentMessage,
    options?: { cause?: unknown; target?: string | null; retryable?: boolean; requestId?: string | null; printerDown?: boolean },
  ) {
    super(code, message, { cause: options?.cause });
    this.code = code;
    this.retryable = options?.retryable ?? RETRYABLE[code];
    this.printerDown = options?.printerDown ?? PRINTER_DOWN.has(code);
    this.target = options?.target ?? null;
    this.requestId = options?.requestId ?? null;
  }
}

/** The folder's disk or share is gone or not answering: it says so, and what to do. */
const FOLDER_UNAVAILABLE: ReadonlySet<string> = new Set([
  'ENOENT',
  'EIO',
  'ESTALE',
  'ENODEV',
  'ENXIO',
  'EHOSTDOWN',
  'ENOTCONN',
  'ETIMEDOUT',
]);

/**
 * File-system errors that hold for every file in the folder, not one job's file: a full
 * disk, no access, a read-only remount, and the folder (or the share holding it) gone or
 * failing its I/O.
 */
const FOLDER_DOWN: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR', ...FOLDER_UNAVAILABLE]);

/**
 * Maps a Node file-system error on `path` to a PrintError that says what to do.
 * `folderDown`: the error is about the folder itself (it cannot be written at all), so
 * the printer counts as down until it can.
 */
const MAPPED = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST']);

export function fsPrintError(error: unknown, path: string, target: string | null, folderDown = false): PrintError {
  // A folder that could not be created says so itself; its system code picks the class.
  if (error instanceof MakeDirError && (error.sysCode === null || !MAPPED.has(error.sysCode))) {
    return new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, error.message, { cause: error, target, printerDown: true });
  }
  const code = error instanceof MakeDirError ? (error.sysCode ?? undefined) : (error as NodeJS.ErrnoException | null)?.code;
  const printerDown = folderDown || (code !== undefined && FOLDER_DOWN.has(code));
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new PrintError(PRINT_ERROR_CODES.DISK_FULL, agentMessage('printer.folderDiskFull', { path }), {
      cause: error,
      target,
      printerDown,
    });
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new PrintError(PRINT_ERROR_CODES.PERMISSION_DENIED, agentMessage('printer.folderNoAccess', { path }), {
      cause: error,
      target,
      printerDown,
    });
  }
  if (code !== undefined && FOLDER_UNAVAILABLE.has(code)) {
    return new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, agentMessage('printer.folderUnavailable', { path, code }), {
      cause: error,
      target,
      printerDown,
    });
  }
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    const message = agentMessage('printer.folderNotAFolder', { path });
    return new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, message, { cause: error, target, printerDown });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, `Could not write ${path}: ${detail}`, { cause: error, target, printerDown });
}
