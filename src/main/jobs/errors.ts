import { CodedError } from '../errors';

export const JOB_ERROR_CODES = {
  NOT_FOUND: 'JOB_NOT_FOUND',
  /** The job is being handed to the spooler right now: it can no longer be canceled here. */
  BUSY: 'JOB_BUSY',
  /** The requested change does not apply to the job's state (e.g. retrying a completed job). */
  INVALID_STATE: 'JOB_INVALID_STATE',
  /** The pipeline was stopped; start a new one. */
  STOPPED: 'PIPELINE_STOPPED',
  /** The ledger file cannot be opened or migrated. */
  LEDGER: 'LEDGER_UNAVAILABLE',
} as const;
export type JobErrorCode = (typeof JOB_ERROR_CODES)[keyof typeof JOB_ERROR_CODES];

export class JobError extends CodedError {
  override readonly code: JobErrorCode;
  readonly jobId: string | null;

  constructor(code: JobErrorCode, message: string, options?: { jobId?: string | null; cause?: unknown }) {
    super(code, message, { cause: options?.cause });
    this.code = code;
    this.jobId = options?.jobId ?? null;
  }
}
