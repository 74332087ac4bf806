/**
 * Settings → Printers and routing: the station's printers (name, printer, paper, sheet layout,
 * fallback), the routing rules (first match wins) and the per-document defaults, as a form
 * (docs/OPERATIONS.md, "Several printers"). The same data stays editable as JSON under
 * "Advanced: edit as JSON", in sync with the form. Checked here in packer words before saving;
 * the agent checks again and names the field it refuses, which is then shown beside that field.
 */
import type { CarrierChoice } from '../../shared/agent-api';
import { PRINTER_MEDIA, type PrinterInfo, type PrinterMedia, type SettingsView } from '../../shared/domain';
import { describeError, toPayload } from '../bridge/agent-call-error';
import type { UiContext } from '../context';
import { h, replaceChildren } from '../dom';
import { t } from '../i18n';
import {
  editedSchema,
  emptyPrinter,
  emptyRule,
  moveRule,
  readJson,
  refusedField,
  renamePrinter,
  setMedia,
  toEdited,
  toForm,
  toJson,
  validate,
  type EditedRouting,
  type FieldName,
  type PrintersForm,
  type SheetLayout,
} from './printers-form-model';
import { graftKeeping } from './printers-form-graft';
import { controlId, defaultRows, printerRows, readList, ruleRows, type RowsContext } from './printers-form-rows';

export class PrintersEditor {
  readonly element: HTMLElement;
  private form: PrintersForm = { printers: [], rules: [], defaults: {} };
  /** The JSON as last loaded or saved: the form differs from it = unsaved changes. */
  private savedJson = toJson(this.form);
  /** The JSON box's text as the form last wrote it: different = edited there, not yet read. */
  private writtenJson = '';
  private found: readonly PrinterInfo[] = [];
  private carriers: readonly CarrierChoice[] = [];
  /** The agent's refusal of the last save, shown beside the field it names until the next edit. */
  private refusal: { readonly field: FieldName; readonly text: string } | null = null;
  /**
   * Rows added here and not yet worked through (`printers.2.`, `rules.0.`): their fields are
   * checked once left (blur), changed or saved, never red before anything was typed.
   */
  private readonly freshRows = new Set<string>();
  private readonly touched = new Set<string>();
  private saveTried = false;
  private readonly printersSlot = h('div', {});
  private readonly rulesSlot = h('div', {});
  private readonly defaultsSlot = h('div', {});
  private readonly defaults = h('details', { class: 'pf-defaults-more' }, h('summary', {}, t('pf.defaultsShow')), this.defaultsSlot);
  private readonly text: HTMLTextAreaElement;
  private readonly json: HTMLDetailsElement;
  private readonly result = h('p', { class: 'inline-result', role: 'status' });
  private readonly unsaved = h('p', { class: 'pf-unsaved', 'aria-live': 'polite' });
  private readonly announcer = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });

  constructor(private readonly ctx: UiContext) {
    this.text = h('textarea', {
      id: 'printers-json',
      rows: '12',
      spellcheck: 'false',
      'aria-label': t('pf.jsonLabel'),
      'aria-describedby': 'printers-json-hint printers-json-error',
    });
    this.json = h(
      'details',
      { class: 'pf-json' },
      h('summary', {}, t('pf.json')),
      h('p', { class: 'hint', id: 'printers-json-hint' }, t('pf.jsonHint')),
      this.text,
      h('p', { class: 'field-error', id: 'printers-json-error', 'data-error-for': 'json' }),
    );
    const add = (action: string, words: string) => h('button', { type: 'button', id: `pf-${action}`, 'data-action': action }, words);
    this.element = h(
      'section',
      { class: 'printers-editor', 'aria-labelledby': 'pf-title' },
      h('h3', { id: 'pf-title' }, t('pf.title')),
      h(
        'fieldset',
        { class: 'pf-group' },
        h('legend', {}, t('pf.printers')),
        h('p', { class: 'hint' }, t('pf.printersHint')),
        h('p', { class: 'field-error', id: 'pf-printers-error', 'data-error-for': 'printers' }),
        this.printersSlot,
        add('add-printer', t('pf.addPrinter')),
      ),
      h(
        'fieldset',
        { class: 'pf-group' },
        h('legend', {}, t('pf.rules')),
        h('p', { class: 'hint' }, t('pf.rulesHint')),
        this.rulesSlot,
        add('add-rule', t('pf.addRule')),
      ),
      h(
        'fieldset',
        { class: 'pf-group' },
        h('legend', {}, t('pf.defaults')),
        h('p', { class: 'hint' }, t('pf.defaultsHint')),
        // Folded: most stations route by rules; opened when a default is set or must be corrected.
        this.defaults,
      ),
      this.json,
      h('div', { class: 'row' }, this.result, this.unsaved),
      this.announcer,
    );
    this.element.addEventListener('input', (event) => this.onInput(event.target));
    this.element.addEventListener('change', (event) => {
      this.touch(event.target);
      this.onChange(event.target);
    });
    // Leaving a field checks it: a new row turns red only for what was left wrong.
    this.element.addEventListener('focusout', (event) => {
      // Left for a button of this form ("Add a rule"): its click redraws and shows the problems.
      // Shown now, they would move that button away between press and release, losing the click.
      const toButton = event.relatedTarget instanceof HTMLButtonElement && this.element.contains(event.relatedTarget);
      if (this.touch(event.target) && !toButton) this.showProblems();
    });
    this.element.addEventListener('click', (event) => this.onClick(event.target));
    // Enter in a text box would submit the Settings form around this one (Save is one button, pressed on purpose).
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type === 'text') event.preventDefault();
    });
    this.render();
  }

  /** Marks a control's field as worked through; true when it was not before. */
  private touch(target: EventTarget | null): boolean {
    const field = target instanceof Element ? target.getAttribute('data-field') : null;
    if (!field || this.touched.has(field)) return false;
    this.touched.add(field);
    return true;
  }

  /** Reads the settings (and the printers and carriers to choose from) and fills the form. */
  async refresh(): Promise<void> {
    const lists = Promise.all([this.ctx.printers(), this.ctx.api.listCarriers({}).catch(() => [])]).then(([found, carriers]) => {
      this.found = found;
      this.carriers = carriers;
    });
    try {
      const { routing } = await this.ctx.api.getSettings({});
      this.load({ printers: routing.printers ?? [], rules: routing.rules ?? [], defaults: routing.defaults ?? {} });
    } catch (error) {
      this.say('fail', t('pf.loadFailed', { error: describeError(error) }));
    }
    await lists;
    this.render();
  }

  /** Printers discovered again (Settings → "Find printers again"). */
  setPrinters(found: readonly PrinterInfo[]): void {
    this.found = found;
    this.render();
  }

  private load(value: unknown): void {
    // What is loaded is what is saved: every row is the admin's, checked as it stands.
    this.freshRows.clear();
    this.touched.clear();
    this.saveTried = false;
    this.form = toForm(value);
    this.savedJson = toJson(this.form);
    if (Object.values(this.form.defaults).some(Boolean)) this.defaults.open = true;
    this.refusal = null;
    this.render();
  }

  private get rows(): RowsContext {
    return { form: this.form, found: this.found, carriers: this.carriers };
  }

  /** Redraws the rows and keeps the caret where it was (the same control stays), or puts it on `focus`. */
  private render(focus?: string): void {
    const active = document.activeElement;
    const kept = focus === undefined && active instanceof HTMLElement && this.element.contains(active) ? active : null;
    const open = new Set(
      Array.from(this.element.querySelectorAll('details[data-details-for][open]')).map((d) => d.getAttribute('data-details-for')),
    );
    const draw = (slot: HTMLElement, content: HTMLElement) => {
      if (kept && slot.contains(kept)) graftKeeping(slot, h('div', {}, content), kept);
      else replaceChildren(slot, content);
    };
    draw(this.printersSlot, printerRows(this.rows));
    draw(this.rulesSlot, ruleRows(this.rows));
    draw(this.defaultsSlot, defaultRows(this.rows));
    for (const details of Array.from(this.element.querySelectorAll<HTMLDetailsElement>('details[data-details-for]'))) {
      if (open.has(details.getAttribute('data-details-for'))) details.open = true;
    }
    this.changed();
    if (focus) this.byId(focus)?.focus();
  }

  private byId(id: string): HTMLElement | null {
    return this.element.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
  }

  /** After any edit: the JSON box follows the form, the problems and the unsaved mark are shown again. */
  private changed(): void {
    // Never rewritten under the caret: the box is re-read as typed, and follows the form after.
    if ((this.text.value === this.writtenJson || this.writtenJson === '') && document.activeElement !== this.text) {
      this.writtenJson = toJson(this.form);
      this.text.value = this.writtenJson;
    }
    this.showProblems();
    this.unsaved.textContent = toJson(this.form) === this.savedJson ? '' : t('pf.unsaved');
  }

  private showProblems(): Map<FieldName, string> {
    const shown = new Map<FieldName, string>();
    for (const problem of validate(this.form)) {
      if (shown.has(problem.field) || this.quiet(problem.field)) continue;
      shown.set(problem.field, t(problem.key, problem.params));
    }
    if (this.refusal && !shown.has(this.refusal.field)) shown.set(this.refusal.field, this.refusal.text);
    if ([...shown.keys()].some((field) => field.startsWith('defaults.'))) this.defaults.open = true;
    for (const line of Array.from(this.element.querySelectorAll<HTMLElement>('[data-error-for]'))) {
      const field = line.getAttribute('data-error-for')!;
      if (field === 'json') continue;
      line.textContent = shown.get(field) ?? '';
      const control = this.byId(controlId(field));
      if (control) control.setAttribute('aria-invalid', String(shown.has(field)));
    }
    if (this.refusal) {
      const details = this.element.querySelector<HTMLDetailsElement>(`details[data-details-for="${this.refusal.field}"]`);
      if (details) details.open = true;
    }
    return shown;
  }

  private edited(): void {
    this.refusal = null;
  }

  /** A field of a row just added, not left, changed or saved yet: its problems wait. */
  private quiet(field: string): boolean {
    if (this.saveTried || this.touched.has(field)) return false;
    return [...this.freshRows].some((row) => field.startsWith(row));
  }

  private onInput(target: EventTarget | null): void {
    if (target === this.text) return void this.readJsonBox();
    if (!(target instanceof HTMLInputElement) || target.type !== 'text') return;
    const match = /^printers\.(\d+)\.(name|uri)$/.exec(target.getAttribute('data-field') ?? '');
    if (!match) return;
    const index = Number(match[1]);
    this.edited();
    if (match[2] === 'name') renamePrinter(this.form, index, target.value);
    else this.form.printers[index]!.uri = target.value;
    this.render();
  }

  private onChange(target: EventTarget | null): void {
    if (target === this.text) {
      // Left the box: what it read is written back in the form's own layout.
      if (readJson(this.text.value).ok) this.writtenJson = this.text.value = toJson(this.form);
      return;
    }
    if (!(target instanceof HTMLSelectElement || target instanceof HTMLInputElement)) return;
    const field = target.getAttribute('data-field') ?? '';
    const [list, at, part] = field.split('.');
    const index = Number(at);
    const printer = list === 'printers' ? this.form.printers[index] : undefined;
    const rule = list === 'rules' ? this.form.rules[index] : undefined;
    this.edited();
    // A typed name or URI is in the model already: redraw (choices, readiness) once the caret has left,
    // so a Tab lands on the next control, not on a replaced one.
    if (printer && (part === 'name' || part === 'uri')) return void setTimeout(() => this.render(), 0);
    if (printer && part === 'device') {
      printer.uri = target.value;
      const found = this.found.find((f) => f.uri === target.value);
      if (found && printer.name.trim() === '') renamePrinter(this.form, index, found.name);
    } else if (printer && part === 'media' && (PRINTER_MEDIA as readonly string[]).includes(target.value)) {
      setMedia(printer, target.value as PrinterMedia);
    } else if (printer && part === 'layout') {
      printer.layout = target.value as SheetLayout;
    } else if (printer && part === 'fallback') {
      printer.fallback = target.value;
    } else if (printer && part === 'fallbackAuto' && target instanceof HTMLInputElement) {
      printer.fallbackAuto = target.checked;
    } else if (rule && part === 'documentTypes') {
      rule.documentTypes = readList(target.value);
    } else if (rule && part === 'carriers') {
      rule.carriers = readList(target.value);
    } else if (rule && part === 'printer') {
      rule.printer = target.value;
    } else if (list === 'defaults' && at !== undefined) {
      this.form.defaults[field.slice('defaults.'.length)] = target.value;
    } else {
      return;
    }
    this.render();
  }

  private onClick(target: EventTarget | null): void {
    const button = target instanceof Element ? target.closest<HTMLButtonElement>('button[data-action]') : null;
    if (!button || !this.element.contains(button)) return;
    const index = Number(button.getAttribute('data-index'));
    const action = button.getAttribute('data-action');
    this.edited();
    if (action === 'add-printer') {
      this.form.printers.push(emptyPrinter());
      const n = this.form.printers.length;
      this.freshRows.add(`printers.${n - 1}.`);
      this.render(controlId(`printers.${n - 1}.name`));
      this.announce(t('pf.added', { what: t('pf.printerN', { n }) }));
    } else if (action === 'remove-printer') {
      this.form.printers.splice(index, 1);
      // Rows move up: which are fresh is no longer known, so none is.
      this.freshRows.clear();
      const next = Math.min(index, this.form.printers.length - 1);
      this.render(next >= 0 ? controlId(`printers.${next}.remove`) : 'pf-add-printer');
      this.announce(t('pf.removed', { what: t('pf.printerN', { n: index + 1 }) }));
    } else if (action === 'add-rule') {
      this.form.rules.push(emptyRule());
      const n = this.form.rules.length;
      this.freshRows.add(`rules.${n - 1}.`);
      this.render(controlId(`rules.${n - 1}.documentTypes`));
      this.announce(t('pf.added', { what: t('pf.ruleN', { n }) }));
    } else if (action === 'remove-rule') {
      this.form.rules.splice(index, 1);
      this.freshRows.clear();
      const next = Math.min(index, this.form.rules.length - 1);
      this.render(next >= 0 ? controlId(`rules.${next}.remove-rule`) : 'pf-add-rule');
      this.announce(t('pf.removed', { what: t('pf.ruleN', { n: index + 1 }) }));
    } else if (action === 'up' || action === 'down') {
      const to = moveRule(this.form, index, action === 'up' ? -1 : 1);
      // The caret stays on the moved rule; at the top or bottom its other move button.
      const edge = (action === 'up' && to === 0) || (action === 'down' && to === this.form.rules.length - 1);
      this.render(controlId(`rules.${to}.${edge ? (action === 'up' ? 'down' : 'up') : action}`));
      this.announce(t('pf.moved', { n: to + 1 }));
    }
  }

  /** The JSON box edited: the form follows when it reads; otherwise the box says what is wrong. */
  private readJsonBox(): boolean {
    const error = this.json.querySelector<HTMLElement>('[data-error-for="json"]')!;
    const read = readJson(this.text.value);
    this.text.setAttribute('aria-invalid', String(!read.ok));
    if (!read.ok) {
      error.textContent =
        read.path === null
          ? t('pf.jsonInvalid', { detail: read.detail })
          : t('pf.jsonField', { path: read.path || '(top)', detail: read.detail });
      return false;
    }
    error.textContent = '';
    this.form = read.form;
    this.writtenJson = this.text.value;
    this.edited();
    this.render();
    return true;
  }

  /**
   * Settings' one Save asks first: the printers, rules and defaults to save with the other
   * settings (`routing`, or none when nothing here changed), or `false` when a field here must
   * be corrected first (the caret is put on it and the problems are shown).
   */
  prepareSave(): { readonly routing: EditedRouting | null } | false {
    // Typed into the JSON box (or set there by a script) and not read yet: read it first.
    if (this.text.value !== this.writtenJson && !this.readJsonBox()) {
      this.json.open = true;
      this.text.focus();
      this.say('fail', t('pf.notSaved', { error: this.json.querySelector('[data-error-for="json"]')!.textContent ?? '' }));
      return false;
    }
    if (toJson(this.form) === this.savedJson) return { routing: null };
    const problems = validate(this.form);
    const edited = editedSchema.safeParse(toEdited(this.form));
    this.saveTried = true;
    if (problems.length > 0 || !edited.success) {
      this.showProblems();
      const first = problems[0];
      if (first) this.focusField(first.field);
      this.say('fail', t('pf.toCorrect', { count: Math.max(problems.length, 1) }));
      return false;
    }
    return { routing: edited.data };
  }

  /** The settings were saved with `routing` from prepareSave: the form now shows what was saved. */
  saved(settings: SettingsView, routing: EditedRouting): void {
    const saved = settings.routing;
    this.load({ printers: saved.printers ?? [], rules: saved.rules ?? [], defaults: saved.defaults ?? {} });
    this.say('ok', t('pf.saved', { printers: routing.printers?.length ?? 0, rules: routing.rules?.length ?? 0 }));
  }

  /**
   * The agent refused the save: when it names a field of this form, that field says why and gets
   * the caret (true); otherwise false and Settings says it.
   */
  refused(error: unknown): boolean {
    const field = refusedField(toPayload(error).message);
    if (!field) return false;
    this.refusal = { field, text: describeError(error) };
    this.showProblems();
    this.focusField(field);
    this.say('fail', t('pf.refused'));
    return true;
  }

  /** Called before the caret is put on a field here: Settings opens the section this form is in. */
  onReveal: (() => void) | null = null;

  private focusField(field: FieldName): void {
    this.onReveal?.();
    const details = this.element.querySelector<HTMLDetailsElement>(`details[data-details-for="${field}"]`);
    if (details) details.open = true;
    (this.byId(controlId(field)) ?? this.byId(controlId('printers.0.name')))?.focus();
  }

  private say(tone: 'ok' | 'fail', text: string): void {
    this.result.className = `inline-result ${tone}`;
    this.result.textContent = text;
  }

  private announce(text: string): void {
    this.announcer.textContent = text;
  }
}

/** The editor, filled in from the settings; Settings mounts its element and passes it discovered printers. */
export function mountPrintersEditor(ctx: UiContext): PrintersEditor {
  const editor = new PrintersEditor(ctx);
  void editor.refresh();
  return editor;
}
