/**
 * The printers form's rows as elements: one group per printer, one per routing rule, one
 * select per document type's default. Builders only: every control carries `data-field`
 * (a FieldName of printers-form-model.ts) or `data-action`, and the editor
 * (printers-editor.ts) listens once on the whole form. Every control has a visible label,
 * and an error line (`data-error-for`) its aria-describedby points at.
 */
import type { CarrierChoice } from '../../shared/agent-api';
import { DOCUMENT_TYPES, PRINTER_MEDIA, isSheetMedia, type PrinterInfo } from '../../shared/domain';
import { h, option, type Child } from '../dom';
import { describeTarget, printerName, printerUriHint } from '../format';
import { t, type MessageKey } from '../i18n';
import { PRINTER_KIND_WORDS, documentWords, readiness } from '../words';
import { SHEET_LAYOUTS, type PrintersForm, type PrinterRow, type RuleRow } from './printers-form-model';

export interface RowsContext {
  readonly form: PrintersForm;
  /** Discovered printers (listPrinters). */
  readonly found: readonly PrinterInfo[];
  /** The service's carriers (listCarriers); empty when not known. */
  readonly carriers: readonly CarrierChoice[];
}

/** `printers.0.name` → `pf-printers-0-name`: the control's id; its error line is `…-error`. */
export const controlId = (field: string): string => `pf-${field.replace(/[^A-Za-z0-9_-]/g, '-')}`;

type Choice = readonly [value: string, label: string];

function fieldOf(field: string, label: string, control: HTMLElement, ...extra: Child[]): HTMLElement {
  const id = controlId(field);
  control.id = id;
  control.setAttribute('data-field', field);
  control.setAttribute('aria-describedby', `${id}-error`);
  return h(
    'div',
    { class: 'pf-field' },
    h('label', { for: id }, label),
    h('div', { class: 'pf-control' }, control, ...extra),
    h('p', { class: 'field-error', id: `${id}-error`, 'data-error-for': field }),
  );
}

function selectOf(choices: readonly Choice[], value: string): HTMLSelectElement {
  const select = h('select', {}, ...choices.map(([v, label]) => option(v, label, v === value)));
  select.value = value;
  return select;
}

/** A list value as one option: `[]` any, `["dhl"]` one; a list of several keeps its own option. */
const listValue = (values: readonly string[]): string => JSON.stringify(values);

const mediaWords = (media: string): string => t(`pf.media.${media}` as MessageKey);

/** Printers a rule, default or fallback can name: the listed ones by name, and what is set if it is not one of them. */
function printerChoices(ctx: RowsContext, current: string, except = -1): Choice[] {
  const choices: Choice[] = ctx.form.printers
    .map((p, i) => [i, p.name.trim(), p] as const)
    .filter(([i, name]) => i !== except && name !== '')
    .map(([, name, p]) => [name, `${name} (${mediaWords(p.media)})`] as const);
  if (current !== '' && !choices.some(([v]) => v === current)) {
    const named = current.includes(':') ? describeTarget(current) : current;
    choices.push([current, t('pf.option.missing', { name: named })]);
  }
  return choices;
}

function printerRow(ctx: RowsContext, p: PrinterRow, i: number): HTMLElement {
  const n = i + 1;
  const base = `printers.${i}`;
  const name = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false', value: p.name });
  name.value = p.name;

  const uri = p.uri.trim();
  const found = ctx.found.find((f) => f.uri === uri);
  const devices: Choice[] = ctx.found.map((f) => [
    f.uri,
    `${printerName(f.name, f.uri)} (${PRINTER_KIND_WORDS[f.kind]}, ${readiness(f).words})`,
  ]);
  if (uri !== '' && !found) devices.unshift([uri, `${describeTarget(uri)} (${t('picker.typed')})`]);
  if (uri === '') devices.unshift(['', t('pf.chooseDevice')]);
  const state = uri === '' ? null : found ? readiness(found) : ({ tone: 'unknown', words: t('picker.notFound') } as const);
  const badge = state ? h('span', { class: `readiness ${state.tone}` }, state.words) : null;

  const uriInput = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false', list: 'printer-uris' });
  uriInput.value = p.uri;
  const media = selectOf(
    PRINTER_MEDIA.map((m) => [m, mediaWords(m)]),
    p.media,
  );
  // The layout shows on sheets, and on label stock only when the JSON set one (the row then says what is wrong).
  const layout =
    isSheetMedia(p.media) || p.layout !== null
      ? fieldOf(
          `${base}.layout`,
          t('pf.layout'),
          selectOf(
            SHEET_LAYOUTS.map((l) => [l, t(`pf.layout.${l}` as MessageKey)]),
            p.layout ?? 'a4',
          ),
        )
      : null;
  const fallbackChoices: Choice[] = [['', t('pf.fallback.none')], ...printerChoices(ctx, p.fallback, i)];
  const auto = h('input', { type: 'checkbox', id: controlId(`${base}.fallbackAuto`), 'data-field': `${base}.fallbackAuto` });
  auto.checked = p.fallbackAuto;
  const legend = p.name.trim() ? t('pf.printerNamed', { n, name: p.name.trim() }) : t('pf.printerN', { n });

  return h(
    'li',
    {},
    h(
      'fieldset',
      { class: 'pf-printer' },
      h('legend', {}, legend),
      fieldOf(`${base}.name`, t('pf.name'), name),
      fieldOf(`${base}.device`, t('pf.device'), selectOf(devices, uri), badge),
      h(
        'details',
        { class: 'pf-advanced', 'data-details-for': `${base}.uri` },
        h('summary', { id: `${controlId(`${base}.uri`)}-summary` }, t('pf.advanced')),
        fieldOf(`${base}.uri`, t('pf.uri'), uriInput),
        h('p', { class: 'hint' }, printerUriHint()),
      ),
      fieldOf(`${base}.media`, t('pf.media'), media),
      layout,
      fieldOf(`${base}.fallback`, t('pf.fallback'), selectOf(fallbackChoices, p.fallback)),
      p.fallback ? h('div', { class: 'pf-check' }, h('label', { for: auto.id }, auto, t('pf.fallbackAuto'))) : null,
      h(
        'div',
        { class: 'pf-actions' },
        h(
          'button',
          { type: 'button', id: controlId(`${base}.remove`), 'data-action': 'remove-printer', 'data-index': i },
          t('pf.removePrinter', { n }),
        ),
      ),
    ),
  );
}

export function printerRows(ctx: RowsContext): HTMLElement {
  if (ctx.form.printers.length === 0) return h('p', { class: 'muted' }, t('pf.noPrinters'));
  return h('ol', { class: 'pf-list' }, ...ctx.form.printers.map((p, i) => printerRow(ctx, p, i)));
}

function documentChoices(current: readonly string[]): Choice[] {
  const choices: Choice[] = [
    [listValue([]), t('pf.anyDocument')],
    ...DOCUMENT_TYPES.map((d) => [listValue([d]), documentWords(d)] as const),
  ];
  if (!choices.some(([v]) => v === listValue(current))) choices.push([listValue(current), current.map(documentWords).join(', ')]);
  return choices;
}

/** The service's carriers by name; a rule's carrier written as a code or a name picks the same one. */
function carrierChoices(ctx: RowsContext, current: readonly string[]): { choices: Choice[]; value: string } {
  const choices: Choice[] = [
    [listValue([]), t('pf.anyCarrier')],
    ...ctx.carriers.map((c) => [listValue([c.code]), c.name ?? c.code] as const),
  ];
  const word = current.length === 1 ? current[0]!.trim().toLowerCase() : null;
  const known = word === null ? undefined : ctx.carriers.find((c) => c.code === word || c.name?.trim().toLowerCase() === word);
  if (known) return { choices, value: listValue([known.code]) };
  if (!choices.some(([v]) => v === listValue(current))) choices.push([listValue(current), current.join(', ')]);
  return { choices, value: listValue(current) };
}

function ruleRow(ctx: RowsContext, r: RuleRow, i: number, count: number): HTMLElement {
  const n = i + 1;
  const base = `rules.${i}`;
  const carriers = carrierChoices(ctx, r.carriers);
  const printers: Choice[] = [...(r.printer === '' ? [['', t('pf.choosePrinter')] as const] : []), ...printerChoices(ctx, r.printer)];
  const button = (action: string, key: MessageKey, disabled: boolean) =>
    h('button', { type: 'button', id: controlId(`${base}.${action}`), 'data-action': action, 'data-index': i, disabled }, t(key, { n }));
  return h(
    'li',
    {},
    h(
      'fieldset',
      { class: 'pf-rule' },
      h('legend', {}, t('pf.ruleN', { n })),
      h(
        'div',
        { class: 'pf-rule-fields' },
        fieldOf(`${base}.documentTypes`, t('pf.documents'), selectOf(documentChoices(r.documentTypes), listValue(r.documentTypes))),
        fieldOf(`${base}.carriers`, t('pf.carrier'), selectOf(carriers.choices, carriers.value)),
        fieldOf(`${base}.printer`, t('pf.printOn'), selectOf(printers, r.printer)),
      ),
      h(
        'div',
        { class: 'pf-actions' },
        button('up', 'pf.moveUp', i === 0),
        button('down', 'pf.moveDown', i === count - 1),
        button('remove-rule', 'pf.removeRule', false),
      ),
    ),
  );
}

export function ruleRows(ctx: RowsContext): HTMLElement {
  const { rules } = ctx.form;
  if (rules.length === 0) return h('p', { class: 'muted' }, t('pf.noRules'));
  return h('ol', { class: 'pf-list' }, ...rules.map((r, i) => ruleRow(ctx, r, i, rules.length)));
}

/** One select per document type (and per type the JSON names that the UI does not know). */
export function defaultRows(ctx: RowsContext): HTMLElement {
  const types = [...DOCUMENT_TYPES, ...Object.keys(ctx.form.defaults).filter((d) => !(DOCUMENT_TYPES as readonly string[]).includes(d))];
  return h(
    'div',
    { class: 'pf-defaults' },
    ...types.map((type) => {
      const current = ctx.form.defaults[type] ?? '';
      return fieldOf(
        `defaults.${type}`,
        documentWords(type),
        selectOf([['', t('pf.default.none')], ...printerChoices(ctx, current)], current),
      );
    }),
  );
}

/** Decodes a list select's value (`[]`, `["dhl"]`). */
export function readList(value: string): string[] {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
