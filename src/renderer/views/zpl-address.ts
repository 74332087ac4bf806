/**
 * The fields of the raw ZPL printer kinds, under a printer picker's URI field: how the
 * printer is connected (network, a raw CUPS queue, the Windows spooler), its address and
 * its resolution, put together into the printer URI (docs/INTERFACES.md, Printer URIs).
 */
import { PRINTER_KINDS, PRINTER_KIND_FIELDS, printerUriOf, type PrinterKind } from '../../shared/printer-kinds';
import { h } from '../dom';
import { t, type MessageKey } from '../i18n';
import { PRINTER_KIND_WORDS } from '../words';

/** The kinds whose Settings fields are the raw ZPL printer's (PRINTER_KIND_FIELDS.rawZpl), in the kinds' order. */
export const ZPL_KINDS: readonly PrinterKind[] = PRINTER_KINDS.filter((kind) => PRINTER_KIND_FIELDS[kind].rawZpl);
export type ZplKind = PrinterKind;
export const ZPL_DPIS = ['', '203', '300', '600'] as const;

/** The printer URI for these fields; null while the address is empty. */
export function zplUri(kind: ZplKind, address: string, dpi: string): string | null {
  return printerUriOf(kind, address, dpi);
}

export function zplAddressFields(role: string, use: (uri: string) => void): HTMLElement {
  const id = (name: string): string => `set-${role}-zpl-${name}`;
  const kind = h('select', { id: id('kind') }, ...ZPL_KINDS.map((k) => h('option', { value: k }, PRINTER_KIND_WORDS[k])));
  const addressLabel = h('label', { for: id('address') });
  const address = h('input', { id: id('address'), autocomplete: 'off', spellcheck: 'false' });
  const dpi = h('select', { id: id('dpi') }, ...ZPL_DPIS.map((d) => h('option', { value: d }, d ? `${d} dpi` : t('zpl.dpiAuto'))));
  const button = h('button', { type: 'button', class: 'zpl-use' }, t('zpl.use'));
  const relabel = (): void => {
    addressLabel.textContent = t(`zpl.address.${kind.value}` as MessageKey);
  };
  kind.addEventListener('change', relabel);
  relabel();
  button.addEventListener('click', () => {
    const uri = zplUri(kind.value as ZplKind, address.value, dpi.value);
    if (uri) use(uri);
  });
  return h(
    'fieldset',
    { class: 'zpl-address' },
    h('legend', {}, t('zpl.title')),
    h('div', { class: 'field' }, h('label', { for: kind.id }, t('zpl.kind')), kind),
    h('div', { class: 'field' }, addressLabel, address),
    h('div', { class: 'field' }, h('label', { for: dpi.id }, t('zpl.dpi')), dpi),
    button,
  );
}
