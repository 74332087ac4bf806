import { agentMessage, isWindowsNotReadyState } from '../../../shared/agent-messages';
import { PRINT_ERROR_CODES, PrintError } from '../errors';
import type { SpoolerJobState } from '../target';
import { JOB_STATUS, type WindowsPrinterInfo } from './windows-spooler';

/*
 * What the spooler's printer and job states mean for a packing station: whether to send a
 * label now, and when a job has ended. Kept apart from the target so the mapping is read
 * (and tested) in one place.
 */

/** Throws the PrintError that says why the printer cannot print now; returns when it can. */
export function assertPrinterReady(printer: WindowsPrinterInfo, uri: string): void {
  const name = printer.name;
  if (printer.workOffline) {
    throw new PrintError(PRINT_ERROR_CODES.PRINTER_DISABLED, agentMessage('printer.windowsWorkOffline', { printer: name }), {
      target: uri,
    });
  }
  // The states in which a label sent now would wait in the queue or be lost, and their advice: src/shared/agent-messages.ts.
  const state = printer.status;
  if (isWindowsNotReadyState(state)) {
    throw new PrintError(PRINT_ERROR_CODES.PRINTER_DISABLED, agentMessage('printer.windowsState', { printer: name, state }), {
      target: uri,
    });
  }
}

/**
 * A job's JobStatus flags as a spooler state. Printed or Complete ends it as printed (a
 * printed job may be Deleting as Windows removes it). Deleted or Deleting without Printed is
 * a job someone canceled. Error, Offline, Paper out and Blocked leave a job in the queue that
 * prints once the printer is fixed (like CUPS' processing-stopped), so they are not an end
 * in themselves: the target remembers them in case the job then disappears.
 */
export function jobStateOf(flags: number): SpoolerJobState {
  if (flags & (JOB_STATUS.Printed | JOB_STATUS.Complete)) return 'completed';
  if (flags & (JOB_STATUS.Deleted | JOB_STATUS.Deleting)) return 'canceled';
  if (flags & (JOB_STATUS.Printing | JOB_STATUS.Spooling)) return 'printing';
  if (flags & (JOB_STATUS.Error | JOB_STATUS.Offline | JOB_STATUS.PaperOut | JOB_STATUS.Blocked | JOB_STATUS.UserIntervention))
    return 'printing';
  return 'pending';
}

/** True when the job is held up by the printer (it will not print until someone acts). */
export function jobHasError(flags: number): boolean {
  return (flags & (JOB_STATUS.Error | JOB_STATUS.Blocked | JOB_STATUS.UserIntervention)) !== 0;
}
