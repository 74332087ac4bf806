/**
 * An IPP printer's state in words (RFC 8011 §5.4.12 printer-state-reasons, PWG 5100.9 for
 * the newer keywords): which reasons stop it printing, what each means to the person at
 * the station, and whether the printer behind a CUPS queue can be reached at all. Shared by
 * CUPS queues and IPP Everywhere printers (ipp-target.ts): both are IPP printers.
 */
import type { IppPrinter } from './ipp';

/** What each reason (without its -error/-warning/-report suffix) means, in words that name the condition. */
const REASON_WORDS: Readonly<Record<string, string>> = {
  'media-empty': 'out of paper (media empty): load labels',
  'media-needed': 'needs paper (media): load labels',
  'media-jam': 'paper (media) jam: clear the jam',
  'media-low': 'paper (media) is low',
  'input-tray-missing': 'the paper (media) tray is missing',
  'door-open': 'a door or the print head is open: close it',
  'cover-open': 'the cover or print head is open: close it',
  'interlock-open': 'an interlock or the print head is open: close it',
  offline: 'offline: switch the printer on or connect it',
  paused: 'paused: resume the printer',
  'moving-to-paused': 'pausing: resume the printer',
  shutdown: 'shut down: switch the printer on',
  'timed-out': 'not answering (timed out): check that it is on and connected',
  'connecting-to-device': 'cannot be reached (still connecting): check that it is on and connected',
  'marker-supply-empty': 'out of ribbon or ink (marker supply empty): replace it',
  'marker-supply-low': 'ribbon or ink is low (marker supply low)',
  'marker-waste-full': 'the waste container is full: empty it',
  'marker-waste-almost-full': 'the waste container is almost full',
  'toner-empty': 'out of toner: replace it',
  'toner-low': 'toner is low',
  'spool-area-full': 'its job memory is full: wait, or cancel jobs on it',
  'output-area-full': 'the output tray is full: take the labels out',
  'fuser-over-temp': 'the print head is too hot: let it cool down',
  other: 'reports an error: check its display',
};

/** Reasons that say the printer cannot be reached, whatever their suffix. */
const UNREACHABLE = new Set(['connecting-to-device', 'offline', 'timed-out', 'shutdown']);

/**
 * Conditions in which no label comes out, also when reported with `-report` (ippeveprinter,
 * the IPP Everywhere reference printer, reports them so). Only `-warning` (another tray still
 * has media, say) leaves the printer ready.
 */
const STOPPING = new Set([
  ...UNREACHABLE,
  'media-empty',
  'media-needed',
  'media-jam',
  'door-open',
  'cover-open',
  'interlock-open',
  'input-tray-missing',
  'marker-supply-empty',
  'marker-waste-full',
  'toner-empty',
  'paused',
  'moving-to-paused',
  'fuser-over-temp',
]);

// cupsd's and its backends' words for a device that does not answer ("The printer may not
// exist or is unavailable at this time.", "Unable to connect to printer; will retry in 30
// seconds", "The printer is not responding.", "Waiting for printer to become available.").
const UNREACHABLE_WORDS =
  /may not exist|unavailable|unable to (connect|locate)|not responding|become available|offline|connection refused/i;

/** A reason keyword without its severity suffix, and whether it stops printing (RFC 8011: no suffix is an error). */
export function splitReason(reason: string): { readonly base: string; readonly blocking: boolean } {
  const m = /^(.*)-(error|warning|report)$/.exec(reason);
  if (!m) return { base: reason, blocking: true };
  return { base: m[1]!, blocking: m[2] === 'error' || (m[2] === 'report' && STOPPING.has(m[1]!)) };
}

/** A reason in words; unknown ones as the keyword itself (still a word a technician can look up). */
export function reasonWords(reason: string): string {
  const { base } = splitReason(reason);
  return REASON_WORDS[base] ?? base.replace(/^cups-/, '').replace(/-/g, ' ');
}

// CUPS's own bookkeeping reasons: never a printer problem in themselves.
const CUPS_INTERNAL = /^(cups-|com\.apple\.|none$)/;

/** The reasons that stop the printer printing now, most telling first. */
export function blockingReasons(printer: Pick<IppPrinter, 'stateReasons'>): string[] {
  return printer.stateReasons.filter((r) => !CUPS_INTERNAL.test(r) && splitReason(r).blocking);
}

/**
 * Whether the device cannot be reached: a reason saying so, or (CUPS, whose ipp backend
 * keeps an unreachable printer `processing` with no reason at all) the state message.
 */
export function deviceUnreachable(printer: Pick<IppPrinter, 'state' | 'stateReasons' | 'stateMessage'>): boolean {
  if (printer.stateReasons.some((r) => UNREACHABLE.has(splitReason(r).base))) return true;
  return printer.state !== 'idle' && UNREACHABLE_WORDS.test(printer.stateMessage);
}

/**
 * Why the printer cannot print now, in words: its reasons in words, then its own message
 * when it adds something ("Idle." and "Printing." do not). Null when nothing stops it.
 */
export function printerProblem(printer: Pick<IppPrinter, 'state' | 'stateReasons' | 'stateMessage'>): string | null {
  const reasons = blockingReasons(printer);
  const unreachable = deviceUnreachable(printer);
  if (reasons.length === 0 && !unreachable && printer.state !== 'stopped') return null;
  const words = [...new Set(reasons.map(reasonWords))];
  if (unreachable && !reasons.some((r) => UNREACHABLE.has(splitReason(r).base))) {
    words.unshift('cannot be reached: check that it is on and connected');
  }
  const own = printer.stateMessage.trim();
  const says = own && !/^(idle|printing|processing|ready)\.?$/i.test(own) ? ` (the printer says: "${own}")` : '';
  if (words.length === 0) words.push(printer.state === 'stopped' ? 'stopped' : 'not ready');
  return `${words.join('; ')}${says}`;
}

/**
 * The printer's remarks that do not stop it (marker-supply-low-warning, media-low-report…),
 * in words, or null.
 */
export function printerWarnings(printer: Pick<IppPrinter, 'stateReasons'>): string | null {
  const warnings = printer.stateReasons.filter(
    (r) => !CUPS_INTERNAL.test(r) && !splitReason(r).blocking && REASON_WORDS[splitReason(r).base],
  );
  return warnings.length > 0 ? [...new Set(warnings.map(reasonWords))].join('; ') : null;
}
