import type { ExecFileRunner } from '../../process/exec';

/** A `cups:` target's options (CupsTarget): the queue, its scheduler, and how jobs reach it. */
export interface CupsTargetOptions {
  /** The printer URI this target answers to. */
  readonly uri: string;
  /**
   * Queue name, or (since CUPS queue names cannot contain spaces) a printer's description
   * such as "Zebra 1", which is resolved to its queue (`Zebra_1` on macOS).
   */
  readonly queue: string;
  /** `HOST:PORT` of another scheduler; null = the local one (CUPS_SERVER honoured). */
  readonly server?: string | null;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default runExecFile (execFile, never a shell) */
  readonly exec?: ExecFileRunner;
  /**
   * Check that the queue is enabled and accepting before each job, so a paused printer
   * fails the job visibly instead of hoarding labels that come out hours later. The check
   * is one IPP Get-Printer-Attributes request to the scheduler (about 1 ms), not a process.
   * @default true
   */
  readonly checkReadiness?: boolean;
  /**
   * CUPS media name for 4x6 labels. @default 'Custom.4x6in' for lp, and the PWG keyword
   * 'oe_4x6-label_4x6in' for IPP Print-Job (cupsd takes either; both print 288 x 432 pt)
   */
  readonly labelMedia?: string;
  /**
   * How a job reaches the scheduler. `ipp`: an IPP Print-Job from this process on the
   * scheduler's keep-alive connection (about 1 ms on loopback); a scheduler that refuses it
   * (HTTP 401/403, an IPP auth or policy status, an unsupported attribute) gets the job
   * through `lp` instead, which can authenticate, for ippRetryMs. `lp`: always the lp
   * command (12–20 ms a job for the process). @default 'ipp'
   */
  readonly spool?: 'ipp' | 'lp';
  /** Where the one line saying why IPP printing fell back to lp goes (the agent's logger). @default process.stderr */
  readonly log?: (line: string) => void;
  /** @default 'lp' */
  readonly lpPath?: string;
  /** @default 'lpstat' */
  readonly lpstatPath?: string;
  /** The CUPS `cancel` command, which withdraws a job still held (cancelJob). @default 'cancel' */
  readonly cancelPath?: string;
  /**
   * After the scheduler refused the IPP readiness query (a policy, an HTTP error), lpstat
   * answers for this long, then IPP is asked again: the refusal may have been passing
   * (a restarting cupsd, a proxy). @default 60000
   */
  readonly ippRetryMs?: number;
  /** @default Date.now */
  readonly nowMs?: () => number;
}
