/** The `zpl://HOST[:PORT][?dpi=]` kind: raw ZPL to a networked label printer (port 9100). */
import { PRINTER_KIND_FIELDS } from '../../../shared/printer-kinds';
import { printerKindEntryOf } from '../printer-kind-entry';
import { ZplTarget } from './zpl-target';
import { parseZplAddress, type ZplAddress } from './zpl-uri';

export const zplKind = printerKindEntryOf({
  forms: ['zpl://HOST[:PORT][?dpi=203|300|600]'],
  parse: (rest, { fail }): ZplAddress => parseZplAddress(rest, fail),
  format: ({ host, port, dpi }) =>
    `//${host.includes(':') ? `[${host}]` : host}${port === 9100 ? '' : `:${port}`}${dpi === null ? '' : `?dpi=${dpi}`}`,
  create: ({ host, port, dpi }, { uri }) => new ZplTarget({ uri, host, port, dpi }),
  // Labels sent to the printer cannot be listed from it after a restart.
  reconcilable: false,
  // A batch is one connection carrying every label.
  batches: true,
  readinessMinIntervalMs: 0,
  checkedAtStart: true,
  fields: PRINTER_KIND_FIELDS.zpl,
});
