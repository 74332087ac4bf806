/**
 * Choosing a printer for one role (labels, documents): the discovered printers as radio
 * buttons with their readiness, and the printer URI itself as a text field the settings
 * panel puts under "Advanced". The URI field is the value: a radio only fills it in.
 */
import type { PrinterInfo } from '../../shared/domain';
import { h, replaceChildren } from '../dom';
import { describeTarget, listWords, printerName, printerUriHint } from '../format';
import { t } from '../i18n';
import { MEDIA_WORDS, PRINTER_KIND_WORDS, readiness } from '../words';
import { zplAddressFields } from './zpl-address';

export interface PrinterPickerOptions {
  /** Short id used in element ids (`label`, `document`). */
  readonly role: string;
  /** Group name, e.g. "Label printer". */
  readonly legend: string;
  /** Accessible name of the URI field, e.g. "Label printer URI". */
  readonly uriLabel: string;
}

/** What the printer gets: a printer for labels and documents gets both media (the demo's one folder). */
function mediaWords(p: PrinterInfo): string {
  const both = p.roles?.includes('label') && p.roles.includes('document') && p.media !== 'a4';
  return both ? listWords([MEDIA_WORDS[p.media], MEDIA_WORDS.a4]) : MEDIA_WORDS[p.media];
}

export class PrinterPicker {
  readonly element: HTMLFieldSetElement;
  readonly uriInput: HTMLInputElement;
  /** The URI field with its label, for the "Advanced" disclosure. */
  readonly uriField: HTMLElement;
  private readonly list: HTMLElement;
  private printers: readonly PrinterInfo[] = [];
  private searched = false;

  constructor(private readonly options: PrinterPickerOptions) {
    const id = `set-${options.role}-printer`;
    this.uriInput = h('input', { id, name: `${options.role}Printer`, list: 'printer-uris', autocomplete: 'off', spellcheck: 'false' });
    this.uriField = h(
      'div',
      { class: 'field' },
      h('label', { for: id }, options.uriLabel),
      this.uriInput,
      h('span', { class: 'hint' }, printerUriHint()),
      // A raw ZPL printer is not discovered: its fields put its URI together.
      zplAddressFields(options.role, (uri) => {
        this.value = uri;
      }),
    );
    this.list = h('div', { class: 'printer-choices' });
    this.element = h('fieldset', { class: 'printer-picker', id: `${id}-choices` }, h('legend', {}, options.legend), this.list);
    this.list.addEventListener('change', (event) => {
      const radio = event.target;
      if (radio instanceof HTMLInputElement && radio.type === 'radio' && radio.checked) this.uriInput.value = radio.value;
    });
    this.uriInput.addEventListener('input', () => this.render());
    this.render();
  }

  get value(): string {
    return this.uriInput.value.trim();
  }

  set value(uri: string) {
    this.uriInput.value = uri;
    this.render();
  }

  setPrinters(printers: readonly PrinterInfo[]): void {
    this.printers = printers;
    this.searched = true;
    this.render();
  }

  private render(): void {
    const current = this.value;
    const choices = this.printers.map((p) =>
      this.choice(p.uri, printerName(p.name, p.uri), `${PRINTER_KIND_WORDS[p.kind]} · ${mediaWords(p)}`, readiness(p), p.uri === current),
    );
    // A printer set by URI that discovery does not list (another host, a service printer)
    // stays visible and chosen, so saving does not silently change it.
    if (current && !this.printers.some((p) => p.uri === current)) {
      const unknown = { tone: 'unknown', words: t('picker.notFound') } as const;
      choices.unshift(this.choice(current, describeTarget(current), t('picker.typed'), unknown, true));
    }
    if (choices.length === 0) {
      const text = this.searched ? t('picker.none') : t('picker.looking');
      replaceChildren(this.list, h('p', { class: 'muted' }, text));
      return;
    }
    replaceChildren(this.list, ...choices);
  }

  private choice(uri: string, name: string, detail: string, state: ReturnType<typeof readiness>, checked: boolean): HTMLElement {
    const radio = h('input', { type: 'radio', name: `printer-${this.options.role}`, value: uri });
    radio.checked = checked;
    return h(
      'label',
      { class: `printer-choice${checked ? ' chosen' : ''}`, title: describeTarget(uri) },
      radio,
      h('span', { class: 'printer-name', 'data-verbatim': '' }, name),
      h('span', { class: 'printer-detail' }, detail),
      h('span', { class: `readiness ${state.tone}` }, state.words),
    );
  }
}
