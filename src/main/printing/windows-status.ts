import { PRINT_ERROR_CODES, PrintError } from './errors';
import type { SpoolerJobState } from './target';
import { JOB_STATUS, type PrinterStatusName, type WindowsPrinterInfo } from './windows-spooler';

/*
 * What the spooler's printer and job states mean for a packing station: whether to send a
 * label now, and when a job has ended. Kept apart from the target so the mapping is read
 * (and tested) in one place.
 */

/** Printer states in which a label sent now would wait in the queue or be lost. */
const NOT_READY: Partial<Record<PrinterStatusName, string>> = {
  Paused:
    'is paused: resume it in Windows (Settings > Printers & scanners > the printer > Open print queue > Printer > untick Pause Printing)',
  Error: 'reports an error: check the printer (display, lights) and its print queue in Windows',
  PendingDeletion: 'is being removed from Windows: choose another printer in settings',
  PaperJam: 'has a paper jam: clear it, then printing continues',
  PaperOut: 'is out of paper (labels): load the label roll',
  ManualFeed: 'waits for paper in the manual feed: load it or change the paper source',
  PaperProblem: 'has a paper problem: check the label roll and the guides',
  Offline: 'is offline: switch it on and check its cable or network',
  OutputBinFull: 'has a full output bin: empty it',
  NotAvailable: 'is not available: check that it is switched on and connected',
  NoToner: 'is out of toner or ribbon: replace it',
  PagePunt: 'cannot print the current page: check the print queue in Windows',
  UserIntervention: 'needs attention at the printer: check its display',
  OutOfMemory: 'has run out of memory: switch it off and on again',
  DoorOpen: 'has its door (cover) open: close it',
  ServerUnknown: 'is in an unknown state on its print server: check the print server',
};

/** Throws the PrintError that says why the printer cannot print now; returns when it can. */
export function assertPrinterReady(printer: WindowsPrinterInfo, uri: string): void {
  const name = printer.name;
  if (printer.workOffline) {
    throw new PrintError(
      PRINT_ERROR_CODES.PRINTER_DISABLED,
      `Windows printer "${name}" is set to "Use Printer Offline": untick it in the printer's queue window (Printer menu).`,
      { target: uri },
    );
  }
  const why = NOT_READY[printer.status];
  if (why) throw new PrintError(PRINT_ERROR_CODES.PRINTER_DISABLED, `Windows printer "${name}" ${why}.`, { target: uri });
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
