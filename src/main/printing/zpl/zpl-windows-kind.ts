/** The `zpl-windows:PRINTER NAME[?dpi=]` kind: raw ZPL through the Windows spooler. */
import { PRINTER_KIND_FIELDS } from '../../../shared/printer-kinds';
import { printerKindEntryOf, unsupported } from '../printer-kind-entry';
import { WINDOWS_READINESS_MIN_INTERVAL_MS } from '../windows/windows-kind';
import { WindowsSpooler } from '../windows/windows-spooler';
import { ZplWindowsTarget } from './zpl-windows-target';
import { splitDpi, type ZplAddress } from './zpl-uri';

export const zplWindowsKind = printerKindEntryOf({
  forms: ['zpl-windows:PRINTER NAME[?dpi=203|300|600]'],
  parse(rest, { fail }): { readonly name: string; readonly dpi: ZplAddress['dpi'] } {
    const { name, dpi } = splitDpi(rest, fail);
    if (name.trim() === '') fail('no printer name');
    return { name, dpi };
  },
  format: ({ name, dpi }) => (dpi === null ? name : `${name}?dpi=${dpi}`),
  create({ name, dpi }, { uri, deps, platform }) {
    if (platform !== 'win32') throw unsupported(uri, `${uri}: Windows printers print only on Windows; on ${platform} use zpl-cups:QUEUE.`);
    const spooler = deps.windowsSpooler ?? new WindowsSpooler({ env: deps.env, exec: deps.exec });
    return new ZplWindowsTarget({ uri, name, dpi: dpi ?? undefined, spooler, env: deps.env, exec: deps.exec });
  },
  // Labels handed over are followed, but not looked up by name after a crash.
  reconcilable: false,
  batches: true,
  readinessMinIntervalMs: WINDOWS_READINESS_MIN_INTERVAL_MS,
  checkedAtStart: true,
  fields: PRINTER_KIND_FIELDS['zpl-windows'],
});
