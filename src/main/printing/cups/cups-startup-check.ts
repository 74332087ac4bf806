/** The start-up check of a CUPS queue (`cups:` and the raw `zpl-cups:` queues). */
import { PRINT_ERROR_CODES, type PrintError } from '../errors';
import { CHECK_OK, type PrinterCheck } from '../printer-check';
import type { CupsTarget } from './cups-target';

/** A missing queue stops the start, naming the queues that exist; a queue that may come back only warns. */
export async function checkCupsQueue(target: CupsTarget, problem: PrintError | null): Promise<PrinterCheck> {
  if (!problem) return CHECK_OK;
  if (problem.code === PRINT_ERROR_CODES.PRINTER_NOT_FOUND) {
    const queues = await target.knownQueues().catch(() => []);
    const known = queues.length > 0 ? `the queues that exist: ${queues.join(', ')}` : 'this scheduler has no queues';
    return { fatal: `printer ${target.uri}: ${problem.message.replace(/\.$/, '')} (${known})`, warning: null };
  }
  if (problem.printerDown) {
    return { fatal: null, warning: `printer ${target.uri}: ${problem.message.replace(/\.$/, '')}; labels wait until it can print` };
  }
  return { fatal: `printer ${target.uri}: ${problem.message}`, warning: null };
}
