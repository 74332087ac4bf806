/**
 * The start-up check's answer for one printer (startup-check.ts asks each kind's entry), and
 * the check every kind without its own gets: its readiness, which only ever warns.
 */
import type { PrinterMedia } from '../../shared/domain';
import type { PrinterTarget } from './target';

export interface PrinterCheck {
  /** The agent cannot print to this URI as configured: stop the start with this line. */
  readonly fatal: string | null;
  /** The printer is not ready now but may become so: say it, keep running. */
  readonly warning: string | null;
}

export const CHECK_OK: PrinterCheck = { fatal: null, warning: null };

/**
 * Windows and service printers, and any kind without a check of its own: their readiness can
 * change with the machine or the account; a start is never refused on their word.
 */
export async function readinessCheck(target: PrinterTarget): Promise<PrinterCheck> {
  try {
    const readiness = await target.readiness();
    return readiness.ready
      ? CHECK_OK
      : { fatal: null, warning: `printer ${target.uri} is not ready: ${readiness.detail ?? 'reason unknown'}` };
  } catch (error) {
    return { fatal: null, warning: `printer ${target.uri} could not be checked: ${(error as Error).message}` };
  }
}

/**
 * A printer that can say which media it takes (an IPP printer, or the one behind a CUPS
 * queue) and lacks the one it is configured for: a warning naming what it offers (its
 * labels would be refused), never a refused start (the stock may be loaded later).
 */
export async function mediaCheck(target: PrinterTarget, media: PrinterMedia): Promise<PrinterCheck> {
  const readiness = await target.readiness(media).catch(() => null);
  return readiness && !readiness.ready && readiness.detail
    ? { fatal: null, warning: `printer ${target.uri}: ${readiness.detail}` }
    : CHECK_OK;
}
