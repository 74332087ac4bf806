/**
 * The parcels at the packing table: a box from the team's favorite packages or typed
 * dimensions, the weight in kg (comma or point), the number of parcels. What is typed
 * stays in the fields when saving fails; errors appear next to their field.
 */
import type { BoxPreset, FieldProblem, PackageView } from '../../shared/domain';
import type { AgentInput } from '../../shared/agent-api';
import { h, option, replaceChildren } from '../dom';

type PackageEntry = AgentInput<'packUpdate'>['packages'][number];

interface Line {
  readonly element: HTMLElement;
  readonly box: HTMLSelectElement;
  readonly inputs: Readonly<Record<'widthCm' | 'heightCm' | 'depthCm' | 'weightKg' | 'quantity', HTMLInputElement>>;
  readonly errors: Readonly<Record<string, HTMLElement>>;
}

const FIELDS = [
  { key: 'widthCm', service: 'width_cm', label: 'Width (cm)' },
  { key: 'heightCm', service: 'height_cm', label: 'Height (cm)' },
  { key: 'depthCm', service: 'depth_cm', label: 'Length (cm)' },
  { key: 'weightKg', service: 'weight_kg', label: 'Weight (kg)' },
  { key: 'quantity', service: 'quantity', label: 'Parcels' },
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
    const add = h('button', { type: 'button', class: 'link' }, 'Add parcel line');
    add.addEventListener('click', () => this.addLine(null).box.focus());
    this.element = h(
      'form',
      { class: 'pack-parcels', 'aria-label': 'Parcels' },
      this.list,
      h('div', { class: 'pack-actions' }, h('button', { type: 'submit' }, 'Save parcels and get rates'), add),
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
      const chosen = line.box.value;
      replaceChildren(line.box, option('', 'Custom size'), ...presets.map((p) => option(p.id, presetWords(p), p.id === chosen)));
    }
  }

  focus(): void {
    const first = this.lines[0];
    if (!first) return;
    const empty = FIELDS.map((f) => first.inputs[f.key]).find((i) => i.value.trim() === '');
    (empty ?? first.inputs.weightKg).focus();
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
      line.errors[field.key]!.textContent = p.message;
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
      }
    }
  }

  private addLine(p: PackageView | null): Line {
    const n = this.lines.length + 1;
    const id = `parcel-${++uid}`;
    const box = h('select', { 'aria-label': `Box, parcel line ${n}` }, option('', 'Custom size'));
    for (const preset of this.presets) box.append(option(preset.id, presetWords(preset), preset.id === p?.favoritePackageId));
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
      const errorId = `${id}-${f.key}-error`;
      const input = h('input', {
        type: 'text',
        inputmode: f.key === 'quantity' ? 'numeric' : 'decimal',
        autocomplete: 'off',
        class: `num ${f.key}`,
        value: initial[f.key],
        'aria-label': `${f.label}, parcel line ${n}`,
        'aria-describedby': errorId,
      });
      inputs[f.key] = input;
      errors[f.key] = h('span', { class: 'field-error', id: errorId });
      return h('label', { class: `field field-${f.key}` }, h('span', {}, f.label), input, errors[f.key]);
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
    const element = h(
      'fieldset',
      { class: 'parcel-line' },
      h('legend', {}, `Parcel line ${n}`),
      h('label', { class: 'field field-box' }, h('span', {}, 'Box'), box),
      ...cells,
    );
    const line: Line = { element, box, inputs, errors };
    this.lines.push(line);
    this.list.append(element);
    return line;
  }
}

function presetWords(p: BoxPreset): string {
  const dims = [p.widthCm, p.heightCm, p.depthCm].every((x) => x !== null) ? ` (${p.widthCm}×${p.heightCm}×${p.depthCm} cm)` : '';
  return `${p.name}${dims}`;
}

const text = (n: number | null | undefined): string => (typeof n === 'number' ? String(n) : '');
