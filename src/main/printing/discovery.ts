/**
 * The printers this machine can offer in the printer picker: each kind that can list its
 * printers here (PrinterKindEntry.discover: CUPS on macOS and Linux, Windows printers on
 * win32, then the service's connected printers), in the registry's order.
 */
import type { PrinterInfo } from '../../shared/domain';
import type { DiscoveryDeps } from './printer-kind-entry';
import { printerKindFacts, printerKindNames } from './printer-kinds';

export type { DiscoveryDeps, ServicePrintersPort } from './printer-kind-entry';
export { guessMedia } from './media-guess';

/**
 * Every kind's printers. A kind whose list fails is reported through onError and left out,
 * so one dead source never hides the others.
 */
export async function discoverPrinters(deps: DiscoveryDeps = {}): Promise<PrinterInfo[]> {
  const platform = deps.platform ?? process.platform;
  const sources: Array<[string, Promise<PrinterInfo[]>]> = [];
  for (const kind of printerKindNames()) {
    const listing = printerKindFacts(kind)?.discover?.(deps, platform);
    if (listing) sources.push([kind, listing]);
  }
  const results: PrinterInfo[] = [];
  for (const [source, promise] of sources) {
    try {
      results.push(...(await promise));
    } catch (error) {
      deps.onError?.(source, error);
    }
  }
  return results;
}
