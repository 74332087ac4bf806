/** The `zpl-cups:QUEUE[?dpi=]` kind: raw ZPL through a raw CUPS queue (a USB label printer on macOS or Linux). */
import { PRINTER_KIND_FIELDS } from '../../../shared/printer-kinds';
import { checkCupsQueue } from '../cups/cups-startup-check';
import { printerKindEntryOf, unsupported } from '../printer-kind-entry';
import { readinessCheck } from '../printer-check';
import { ZplCupsTarget } from './zpl-cups-target';
import { splitDpi, type ZplAddress } from './zpl-uri';

export const zplCupsKind = printerKindEntryOf({
  forms: ['zpl-cups:QUEUE[?dpi=203|300|600]'],
  parse(rest, { fail }): { readonly queue: string; readonly dpi: ZplAddress['dpi'] } {
    const { name: queue, dpi } = splitDpi(rest, fail);
    if (queue.trim() === '') fail('no queue name');
    if (/[/#\\?'"\t@]/.test(queue)) fail('CUPS queue names cannot contain / # \\ ? @ quotes or tabs');
    return { queue, dpi };
  },
  format: ({ queue, dpi }) => (dpi === null ? queue : `${queue}?dpi=${dpi}`),
  create({ queue, dpi }, { uri, deps, platform }) {
    if (platform === 'win32')
      throw unsupported(uri, `${uri}: CUPS printing needs macOS or Linux; on Windows use zpl-windows:PRINTER NAME.`);
    return new ZplCupsTarget({ uri, queue, dpi: dpi ?? undefined, env: deps.env, exec: deps.exec, log: deps.log });
  },
  reconcilable: true,
  batches: true,
  readinessMinIntervalMs: 0,
  checkedAtStart: true,
  // A raw ZPL queue is a CUPS queue: a missing one stops the start the same way.
  checkAtStart: async (target) =>
    target instanceof ZplCupsTarget ? checkCupsQueue(target.queue, await target.queue.check()) : readinessCheck(target),
  fields: PRINTER_KIND_FIELDS['zpl-cups'],
});
