import { createTarget, type TargetDeps } from './create-target';
import type { PrinterTarget } from './target';

/**
 * One target per printer URI, made on first use and kept, so the jobs, the printer watch and
 * the printer lists share a printer's connection and state. A URI whose target cannot be made
 * (not a printer URI, a kind this platform cannot drive) is not kept: the next call throws again.
 * @throws PrintError INVALID_PRINTER_URI or PRINT_UNSUPPORTED
 */
export function printerTargets(deps: TargetDeps): (uri: string) => PrinterTarget {
  const targets = new Map<string, PrinterTarget>();
  return (uri) => {
    let target = targets.get(uri);
    if (!target) {
      target = createTarget(uri, deps);
      targets.set(uri, target);
    }
    return target;
  };
}
