/**
 * The parcels at the packing table: a box from the team's favorite packages or typed
 * dimensions, the weight in kg (comma or point), the number of parcels. What is typed
 * stays in the fields when saving fails; errors appear next to their field.
 */
import type { BoxPreset, FieldProblem, PackageView } from '../../shared/domain';
import type { AgentInput } from '../../shared/agent-api';
import { h, option, replaceChildren } from '../dom';
import { fieldProblemWords } from '../field-problem-words';
import { locale, t } from '../i18n';

type PackageEntry = AgentInput<'packUpdate'>['packages'][number];

interface Line {
  readonly element: HTMLElement;
  readonly box: HTMLSelectElement;
  readonly inputs: Readonly<Record<'widthCm' | 'heightCm' | 'depthCm' | 'weightKg' | 'quantity', HTMLInputElement>>;
  readonly errors: Readonly<Record<string, HTMLElement>>;
}

const FIELDS = [
  { key: 'widthCm', service: 'width_cm', label: 'parcels.width' },
  { key: 'heightCm', service: 'height_cm', label: 'parcels.height' },
  { key: 'depthCm', service: 'depth_cm', label: 'parcels.length' },
  { key: 'weightKg', service: 'weight_kg', label: 'parcels.weight' },
  { key: 'quantity', service: 'quantity', label: 'parcels.quantity' },
] as const;

let uid = 0;

export class ParcelsForm {
  readonly element: HTMLFormElement;
  private readonly lines: Line[] = [];
  private readonly list = h('div', { class: 'parcel-lines' });
  private presets: readonly BoxPreset[] = [];

  constructor(
    packages: readonly PackageView[],
    private readonly onSubmit: () => void,
  ) {
    const add = h('button', { type: 'button', class: 'link' }, t('parcels.add'));
    add.addEventListener('click', () => this.addLine(null).box.focus());
    this.element = h(
      'form',
      { class: 'pack-parcels', 'aria-label': t('parcels.form') },
      this.list,
      h('div', { class: 'pack-actions' }, h('button', { type: 'submit' }, t('parcels.save')), add),
    );
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      this.onSubmit();
    });
    for (const p of packages.length > 0 ? packages : [null]) this.addLine(p);
  }

  setPresets(presets: readonly BoxPreset[]): void {
    this.presets = presets;
    for (const line of this.lines) {
      const chosen = line.box.value || (matchingPreset(presets, line.inputs)?.id ?? '');
      replaceChildren(
        line.box,
        option('', t('parcels.customSize')),
        ...presets.map((p) => h('option', { value: p.id, 'data-verbatim': '' }, presetWords(p))),
      );
      line.box.value = chosen;
    }
  }

  focus(): void {
    const first = this.lines[0];
    if (!first) return;
    const empty = FIELDS.map((f) => first.inputs[f.key]).find((i) => i.value.trim() === '');
    (empty ?? first.inputs.weightKg).focus();
  }

  /** How many parcel lines the form has. */
  get count(): number {
    return this.lines.length;
  }

  /** The scale's stable weight into a parcel's weight box, in the UI's digits (Swedish `1,5`). */
  setWeight(index: number, kg: number): void {
    const line = this.lines[index];
    if (!line) return;
    line.inputs.weightKg.value = numberWords(kg);
    line.inputs.weightKg.removeAttribute('aria-invalid');
  }

  values(): PackageEntry[] {
    return this.lines.map((l) => ({
      ...(l.box.value ? { presetId: l.box.value } : {}),
      widthCm: l.inputs.widthCm.value,
      heightCm: l.inputs.heightCm.value,
      depthCm: l.inputs.depthCm.value,
      weightKg: l.inputs.weightKg.value,
      quantity: Math.max(1, Math.min(99, Number.parseInt(l.inputs.quantity.value, 10) || 1)),
    }));
  }

  /** Puts each problem next to its field; returns the ones that belong to no field here. */
  showProblems(problems: readonly FieldProblem[]): FieldProblem[] {
    this.clearProblems();
    const elsewhere: FieldProblem[] = [];
    let first: HTMLInputElement | null = null;
    for (const p of problems) {
      const m = /^packages\[(\d+)\]\.(\w+)$/.exec(p.field);
      const line = m ? this.lines[Number(m[1])] : undefined;
      const field = FIELDS.find((f) => f.service === m?.[2]);
      if (!line || !field) {
        elsewhere.push(p);
        continue;
      }
      const input = line.inputs[field.key];
      input.setAttribute('aria-invalid', 'true');
      const words = fieldProblemWords(p).message;
      line.errors[field.key]!.textContent = words;
      line.errors[field.key]!.title = words;
      first ??= input;
    }
    first?.focus();
    return elsewhere;
  }

  clearProblems(): void {
    for (const line of this.lines) {
      for (const f of FIELDS) {
        line.inputs[f.key].removeAttribute('aria-invalid');
        line.errors[f.key]!.textContent = '';
        line.errors[f.key]!.removeAttribute('title');
      }
    }
  }

  private addLine(p: PackageView | null): Line {
    const n = this.lines.length + 1;
    const id = `parcel-${++uid}`;
    const box = h('select', { 'aria-label': t('parcels.boxOfLine', { n }) }, option('', t('parcels.customSize')));
    for (const preset of this.presets) box.append(h('option', { value: preset.id, 'data-verbatim': '' }, presetWords(preset)));
    const initial: Record<string, string> = {
      widthCm: text(p?.widthCm),
      heightCm: text(p?.heightCm),
      depthCm: text(p?.depthCm),
      weightKg: text(p?.weightKg),
      quantity: String(p?.quantity ?? 1),
    };
    const inputs = {} as Record<(typeof FIELDS)[number]['key'], HTMLInputElement>;
    const errors: Record<string, HTMLElement> = {};
    const cells = FIELDS.map((f) => {
      const label = t(f.label);
      const errorId = `${id}-${f.key}-error`;
      const input = h('input', {
        type: 'text',
        inputmode: f.key === 'quantity' ? 'numeric' : 'decimal',
        autocomplete: 'off',
        class: `num ${f.key}`,
        value: initial[f.key],
        'aria-label': t('parcels.fieldOfLine', { field: label, n }),
        'aria-describedby': errorId,
      });
      inputs[f.key] = input;
      errors[f.key] = h('span', { class: 'field-error', id: errorId });
      return h('label', { class: `field field-${f.key}` }, h('span', {}, label), input, errors[f.key]);
    });
    box.addEventListener('change', () => {
      const preset = this.presets.find((x) => x.id === box.value);
      if (!preset) return;
      inputs.widthCm.value = text(preset.widthCm);
      inputs.heightCm.value = text(preset.heightCm);
      inputs.depthCm.value = text(preset.depthCm);
      // The preset's weight is the empty box's: only a starting point for the scale.
      if (inputs.weightKg.value.trim() === '') inputs.weightKg.value = text(preset.weightKg);
    });
    if (p?.favoritePackageId) box.value = p.favoritePackageId;
    else box.value = matchingPreset(this.presets, inputs)?.id ?? '';
    // Dimensions typed to a favorite's size choose that favorite; other sizes are a custom size.
    for (const key of ['widthCm', 'heightCm', 'depthCm'] as const) {
      inputs[key].addEventListener('input', () => {
        box.value = matchingPreset(this.presets, inputs)?.id ?? '';
      });
    }
    const element = h(
      'fieldset',
      { class: 'parcel-line' },
      h('legend', {}, t('parcels.line', { n })),
      h('label', { class: 'field field-box' }, h('span', {}, t('parcels.box')), box),
      ...cells,
    );
    const line: Line = { element, box, inputs, errors };
    this.lines.push(line);
    this.list.append(element);
    return line;
  }
}

/** The favorite whose size the line's dimensions are (in any order of typing: width, height, length as listed). */
function matchingPreset(presets: readonly BoxPreset[], inputs: Line['inputs']): BoxPreset | undefined {
  const typed = (['widthCm', 'heightCm', 'depthCm'] as const).map((k) =>
    Number(
      inputs[k].value
        .trim()
        .replace(',', '.')
        .replace(/\s*cm$/i, ''),
    ),
  );
  if (typed.some((n) => !(n > 0))) return undefined;
  return presets.find((p) => p.widthCm === typed[0] && p.heightCm === typed[1] && p.depthCm === typed[2]);
}

function presetWords(p: BoxPreset): string {
  if (p.widthCm === null || p.heightCm === null || p.depthCm === null) return p.name;
  return `${p.name} (${dimensionsWords(p.widthCm, p.heightCm, p.depthCm)})`;
}

/** "20×20×30 cm" in the UI's digits (units are the same words in every language). */
export function dimensionsWords(width: number, height: number, depth: number): string {
  return `${[width, height, depth].map(numberWords).join('×')} cm`;
}

/** "1.5 kg" / "1,5 kg" in the UI's digits. */
export function weightWords(kg: number): string {
  return `${numberWords(kg)} kg`;
}

const numberWords = (n: number): string => new Intl.NumberFormat(locale(), { maximumFractionDigits: 3, useGrouping: false }).format(n);

/** A number in a box, in the UI's digits (`1,5` in Swedish, as the summary says `1,5 kg`); the agent reads both `1,5` and `1.5`. */
const text = (n: number | null | undefined): string => (typeof n === 'number' ? numberWords(n) : '');
