import { CodedError } from '../errors';

/** Stable codes for everything that can go wrong handing a document to a printer. */
export const PRINT_ERROR_CODES = {
  INVALID_PRINTER_URI: 'INVALID_PRINTER_URI',
  PRINTER_NOT_FOUND: 'PRINTER_NOT_FOUND',
  PRINTER_DISABLED: 'PRINTER_DISABLED',
  PRINTER_REJECTING: 'PRINTER_REJECTING',
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
  SPOOLER_UNAVAILABLE: true,
  SPOOL_FAILED: true,
  JOB_ABORTED: false,
  DISK_FULL: false,
  PERMISSION_DENIED: false,
  PRINT_UNSUPPORTED: false,
  PRINT_MAY_HAVE_PRINTED: false,
  PRINT_PARTIAL: false,
};

export class PrintError extends CodedError {
  override readonly code: PrintErrorCode;
  /** True when waiting and retrying is likely to help. */
  readonly retryable: boolean;
  /** The printer URI the error is about, when known. */
  readonly target: string | null;
  /** The service's X-Service-Request-ID when a service printer failed. */
  readonly requestId: string | null;

  constructor(
    code: PrintErrorCode,
    message: string,
    options?: { cause?: unknown; target?: string | null; retryable?: boolean; requestId?: string | null },
  ) {
    super(code, message, { cause: options?.cause });
    this.code = code;
    this.retryable = options?.retryable ?? RETRYABLE[code];
    this.target = options?.target ?? null;
    this.requestId = options?.requestId ?? null;
  }
}

/** Maps a Node file-system error on `path` to a PrintError that says what to do. */
export function fsPrintError(error: unknown, path: string, target: string | null): PrintError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new PrintError(PRINT_ERROR_CODES.DISK_FULL, `The disk holding ${path} is full: free some space or choose another folder.`, { cause: error, target });
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new PrintError(
      PRINT_ERROR_CODES.PERMISSION_DENIED,
      `Print Station may not write to ${path}: give this user write access to the folder or choose another one.`,
      { cause: error, target },
    );
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, `Could not write ${path}: ${detail}`, { cause: error, target });
}
