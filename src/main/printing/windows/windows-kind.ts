/** The `windows:PRINTER NAME` kind: a PDF to a Windows printer through its spooler. */
import { PRINTER_KIND_FIELDS } from '../../../shared/printer-kinds';
import { LABEL_HINTS, guessMedia } from '../media-guess';
import { printerKindEntryOf, unsupported, type DiscoveryDeps } from '../printer-kind-entry';
import type { PrinterInfo } from '../../../shared/domain';
import { WindowsSpooler } from './windows-spooler';
import { WindowsTarget } from './windows-target';

/** Asking Windows is a PowerShell run: every 15 s is enough there. */
export const WINDOWS_READINESS_MIN_INTERVAL_MS = 15_000;

async function windowsPrinters(deps: DiscoveryDeps): Promise<PrinterInfo[]> {
  if (!deps.pdfToPrinter) throw new Error('pdf-to-printer is not loaded');
  const printers = await deps.pdfToPrinter.getPrinters();
  return printers.map((p) => ({
    uri: `windows:${p.name}`,
    name: p.name,
    kind: 'windows' as const,
    media: guessMedia(
      p.name,
      ...(p.paperSizes?.length && p.paperSizes.every((s) => LABEL_HINTS.test(s) || /\b4(\.0+)?\s*x\s*6/i.test(s)) ? ['4x6'] : []),
    ),
    // pdf-to-printer lists printers but not whether they are paused or offline.
    ready: true,
    detail: null,
  }));
}

export const windowsKind = printerKindEntryOf({
  forms: ['windows:PRINTER NAME'],
  parse(rest, { fail }): { readonly name: string } {
    // The exact Windows printer name: spaces and punctuation are part of it.
    if (rest.trim() === '') fail('no printer name');
    return { name: rest };
  },
  format: (address) => address.name,
  create({ name }, { uri, deps, platform }) {
    if (platform !== 'win32') throw unsupported(uri, `${uri}: Windows printers print only on Windows; on ${platform} use cups:QUEUE.`);
    if (!deps.pdfToPrinter) throw unsupported(uri, `${uri}: the pdf-to-printer module is not loaded.`);
    return new WindowsTarget({
      uri,
      name,
      pdfToPrinter: deps.pdfToPrinter,
      sumatraPdfPath: deps.sumatraPdfPath,
      spooler: deps.windowsSpooler ?? new WindowsSpooler({ env: deps.env, exec: deps.exec }),
    });
  },
  // Through PowerShell's Get-PrintJob, which create() always wires.
  reconcilable: true,
  batches: true,
  readinessMinIntervalMs: WINDOWS_READINESS_MIN_INTERVAL_MS,
  checkedAtStart: true,
  discover: (deps, platform) => (platform === 'win32' ? windowsPrinters(deps) : null),
  fields: PRINTER_KIND_FIELDS.windows,
});
