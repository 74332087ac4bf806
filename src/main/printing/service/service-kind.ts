/** The `service:PRINTER_ID` kind: a printer connected to the Shipment Booking Service, printed through it. */
import type { PrinterInfo } from '../../../shared/domain';
import { PRINTER_KIND_FIELDS } from '../../../shared/printer-kinds';
import { guessMedia } from '../media-guess';
import { printerKindEntryOf, unsupported, type ServicePrintersPort } from '../printer-kind-entry';
import { ServiceTarget } from './service-target';

async function servicePrinters(service: ServicePrintersPort): Promise<PrinterInfo[]> {
  const { printers } = await service.printers();
  return printers.map((p) => ({
    uri: `service:${p.id}`,
    name: p.name || p.id,
    kind: 'service' as const,
    media: guessMedia(p.name, p.description),
    ready: null,
    detail: p.description || null,
  }));
}

export const serviceKind = printerKindEntryOf({
  forms: ['service:PRINTER_ID'],
  parse(rest, { fail }): { readonly printerId: string } {
    if (rest.trim() === '' || /\s/.test(rest)) fail('the service printer id is one word');
    return { printerId: rest };
  },
  format: (address) => address.printerId,
  create({ printerId }, { uri, deps }) {
    if (!deps.service) throw unsupported(uri, `${uri}: service printing needs a connection to the service; set the API URL and key first.`);
    return new ServiceTarget({ uri, printerId, service: deps.service });
  },
  // The service offers no way to list what it printed.
  reconcilable: false,
  // One service call per shipment and document.
  batches: false,
  readinessMinIntervalMs: 0,
  checkedAtStart: false,
  discover: (deps) => (deps.service ? servicePrinters(deps.service) : null),
  fields: PRINTER_KIND_FIELDS.service,
});
