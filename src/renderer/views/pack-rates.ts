/**
 * The rates as a radio group (arrow keys move the choice, Enter books) and what the chosen
 * rate still needs: a service point, documents to upload (PDF only, size shown).
 */
import { MAX_UPLOAD_BYTES } from '../../shared/agent-api';
import type { RateView, RatesView, ServicePointView } from '../../shared/domain';
import { h, option, replaceChildren } from '../dom';
import { t } from '../i18n';
import { documentWords, rateWords } from '../words';

export class RateList {
  readonly element: HTMLElement;
  private readonly group = h('ul', { role: 'radiogroup', 'aria-label': t('packRates.rates'), class: 'rates' });
  private readonly warnings = h('div', { class: 'rate-warnings' });
  private items: Array<{ rate: RateView; li: HTMLLIElement }> = [];
  private selectedToken: string | null = null;

  constructor(
    private readonly onSelect: (rate: RateView) => void,
    private readonly onEnter: () => void,
  ) {
    this.element = h('section', { class: 'pack-rates', 'aria-label': t('packRates.rates') }, this.group, this.warnings);
    this.group.addEventListener('keydown', (event) => {
      const index = this.items.findIndex((i) => i.rate.token === this.selectedToken);
      const last = this.items.length - 1;
      const next = { ArrowDown: index + 1, ArrowRight: index + 1, ArrowUp: index - 1, ArrowLeft: index - 1, Home: 0, End: last }[event.key];
      if (next !== undefined) {
        event.preventDefault();
        const item = this.items[(next + this.items.length) % this.items.length];
        if (item) this.select(item.rate.token, true);
      } else if (event.key === 'Enter') {
        event.preventDefault();
        this.onEnter();
      } else if (event.key === ' ') {
        event.preventDefault();
      }
    });
  }

  get selected(): RateView | null {
    return this.items.find((i) => i.rate.token === this.selectedToken)?.rate ?? null;
  }

  show(view: RatesView): void {
    this.items = view.rates.map((rate) => {
      const w = rateWords(rate);
      const li = h(
        'li',
        {
          role: 'radio',
          'aria-checked': 'false',
          tabindex: -1,
          class: rate.bookable ? 'rate' : 'rate unbookable',
          'aria-disabled': rate.bookable ? null : 'true',
        },
        h('span', { class: 'rate-title', 'data-verbatim': '' }, w.title),
        h('span', { class: 'rate-price' }, w.price),
        h('span', { class: 'rate-details' }, w.details),
      );
      li.addEventListener('click', () => this.select(rate.token, true));
      return { rate, li };
    });
    replaceChildren(this.group, ...this.items.map((i) => i.li));
    if (this.items.length === 0) this.group.append(h('li', { class: 'muted' }, t('packRates.none')));
    const excluded = view.warnings.length;
    replaceChildren(
      this.warnings,
      excluded > 0
        ? h(
            'details',
            {},
            h('summary', {}, t('packRates.excluded', { count: excluded })),
            h('ul', {}, ...view.warnings.map((w) => h('li', {}, `${w.carrierName} ${w.product}: ${w.messages.join('; ')}`))),
          )
        : null,
      view.appliedRules.length > 0
        ? h('p', { class: 'muted small' }, t('packRates.rulesApplied', { rules: view.appliedRules.join(', ') }))
        : null,
    );
    const first = view.selected ?? this.items[0]?.rate.token ?? null;
    if (first) this.select(first, false);
  }

  focus(): void {
    this.items.find((i) => i.rate.token === this.selectedToken)?.li.focus();
  }

  private select(token: string, focus: boolean): void {
    this.selectedToken = token;
    for (const { rate, li } of this.items) {
      const on = rate.token === token;
      li.setAttribute('aria-checked', String(on));
      li.tabIndex = on ? 0 : -1;
      if (on && focus) li.focus();
    }
    const rate = this.selected;
    if (rate) this.onSelect(rate);
  }
}

export function servicePointSelect(points: readonly ServicePointView[]): HTMLSelectElement {
  return h(
    'select',
    { 'aria-label': t('packRates.servicePoint'), class: 'service-point' },
    ...points.map((p, i) =>
      option(
        p.token,
        `${p.name}, ${[p.addressLine, p.postalCode, p.city].filter(Boolean).join(' ')}${p.distanceM !== null ? ` (${distance(p.distanceM)})` : ''}`,
        i === 0,
      ),
    ),
  );
}

const distance = (m: number): string => (m >= 1000 ? `${(m / 1000).toFixed(1)} km` : `${Math.round(m)} m`);

export interface PickedFile {
  readonly name: string;
  readonly bytes: number;
  readonly base64: string;
}

/** A PDF picker that also takes a dropped file. Refuses anything else, saying why. */
export function documentPicker(
  documentType: string,
  onFile: (file: PickedFile) => void,
  onRefused: (message: string) => void,
): HTMLElement {
  const words = documentWords(documentType);
  const input = h('input', { type: 'file', accept: 'application/pdf,.pdf', 'aria-label': `${words} (PDF)` });
  const info = h('span', { class: 'file-info muted' }, t('packRates.drop'));
  const take = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    if (!(file.type === 'application/pdf' || /\.pdf$/i.test(file.name))) return onRefused(t('packRates.notPdf', { name: file.name }));
    if (file.size > MAX_UPLOAD_BYTES)
      return onRefused(t('packRates.tooBig', { name: file.name, size: size(file.size), max: size(MAX_UPLOAD_BYTES) }));
    info.textContent = `${file.name}, ${size(file.size)}`;
    onFile({ name: file.name, bytes: file.size, base64: toBase64(new Uint8Array(await file.arrayBuffer())) });
  };
  input.addEventListener('change', () => void take(input.files?.[0]));
  const zone = h(
    'label',
    { class: 'drop-zone' },
    h('span', { class: 'drop-title' }, t('packRates.upload', { document: words.toLowerCase() })),
    input,
    info,
  );
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    void take(event.dataTransfer?.files[0]);
  });
  return zone;
}

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
