import type { PrintError } from '../errors';
import type { ExecResult } from '../../process/exec';

/**
 * What a CUPS target lends the drivers that hand its jobs to the scheduler (cups-ipp-driver.ts,
 * cups-lp-driver.ts): its URI, its commands and the errors it words the same way whichever
 * driver met them.
 */
export interface CupsDriverHost {
  /** The printer URI the jobs are for. */
  readonly uri: string;
  /** Runs a CUPS command (never a shell) against this target's scheduler. */
  run(file: string, args: string[], input?: Uint8Array): Promise<ExecResult>;
  /** The scheduler's `HOST:PORT` (or socket) for IPP requests. */
  scheduler(): Promise<string>;
  /** The "start CUPS" error for a scheduler that cannot be reached. */
  unreachable(cause?: unknown): PrintError;
  /** The error for a queue that is not accepting jobs. */
  rejecting(queue: string, reason: string | null): PrintError;
  /** A missing queue told apart from an unreachable scheduler (lp reports both as "does not exist"). */
  notFound(queue: string): Promise<PrintError>;
}
