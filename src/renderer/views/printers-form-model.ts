/**
 * The printers form's model (Settings → Printers and routing): the station's printers, its
 * routing rules and its per-document defaults as rows, to and from the `routing` JSON the
 * agent stores, and checked in packer words before saving. The agent checks again when saving
 * (src/main/settings/settings-store.ts) and names the field it refuses; refusedField maps that
 * name back to a row here. No DOM: test/renderer/printers-form-model.test.ts covers it alone.
 */
import { z } from 'zod';
import { LABEL_LAYOUTS, PRINTER_MEDIA, isSheetMedia, printerEntrySchema, routingRuleSchema, type PrinterMedia } from '../../shared/domain';
import { printerKindOf } from '../../shared/printer-kinds';
import type { MessageKey } from '../i18n';

export const SHEET_LAYOUTS = LABEL_LAYOUTS.filter((l) => l !== 'printer');
export type SheetLayout = (typeof SHEET_LAYOUTS)[number];

export interface PrinterRow {
  name: string;
  uri: string;
  media: PrinterMedia;
  /** Only on sheet media; null = the default (`a4`, one label a sheet). */
  layout: SheetLayout | null;
  /** A printer's name (or URI); '' = none. */
  fallback: string;
  fallbackAuto: boolean;
}

export interface RuleRow {
  /** Empty = any document. */
  documentTypes: string[];
  /** Empty = any carrier. */
  carriers: string[];
  /** A printer's name or a printer URI. */
  printer: string;
}

export interface PrintersForm {
  printers: PrinterRow[];
  rules: RuleRow[];
  /** Document type → a printer's name or URI. */
  defaults: Record<string, string>;
}

/** What the agent stores (routing.printers, .rules, .defaults); the same checks as the agent's schemas. */
export const editedSchema = z
  .object({
    printers: z.array(printerEntrySchema).default([]),
    rules: z.array(routingRuleSchema).default([]),
    defaults: z.record(z.string(), z.string().min(1)).default({}),
  })
  .strict();
export type EditedRouting = z.input<typeof editedSchema>;

/**
 * Reading JSON into the form: as strict about shapes as the agent, but an empty name or a
 * layout on label stock comes into the form, where the row says what to correct.
 */
const importSchema = z
  .object({
    printers: z
      .array(
        z.object({
          name: z.string().default(''),
          uri: z.string().default(''),
          media: z.preprocess((v) => (v === '4x6in' ? 'label' : v), z.enum(PRINTER_MEDIA)),
          layout: z.enum(SHEET_LAYOUTS).optional(),
          fallback: z.object({ printer: z.string(), auto: z.boolean().default(false) }).optional(),
        }),
      )
      .default([]),
    rules: z.array(routingRuleSchema.extend({ printer: z.string() })).default([]),
    defaults: z.record(z.string(), z.string()).default({}),
  })
  .strict();

export function toForm(value: unknown): PrintersForm {
  const parsed = importSchema.parse(value);
  return {
    printers: parsed.printers.map((p) => ({
      name: p.name,
      uri: p.uri,
      media: p.media,
      layout: p.layout ?? null,
      fallback: p.fallback?.printer ?? '',
      fallbackAuto: p.fallback?.auto ?? false,
    })),
    rules: parsed.rules.map((r) => ({ documentTypes: [...r.documentTypes], carriers: [...r.carriers], printer: r.printer })),
    defaults: { ...parsed.defaults },
  };
}

/** The form as the agent stores it; names and URIs trimmed, unset defaults and fallbacks left out. */
export function toEdited(form: PrintersForm): Required<EditedRouting> {
  return {
    printers: form.printers.map((p) => ({
      name: p.name.trim(),
      uri: p.uri.trim(),
      media: p.media,
      ...(p.layout !== null ? { layout: p.layout } : {}),
      ...(p.fallback ? { fallback: { printer: p.fallback, auto: p.fallbackAuto } } : {}),
    })),
    rules: form.rules.map((r) => ({ documentTypes: [...r.documentTypes], carriers: [...r.carriers], printer: r.printer })),
    defaults: Object.fromEntries(Object.entries(form.defaults).filter(([, printer]) => printer !== '')),
  };
}

export const toJson = (form: PrintersForm): string => JSON.stringify(toEdited(form), null, 2);

export type JsonRead =
  { readonly ok: true; readonly form: PrintersForm } | { readonly ok: false; readonly path: string | null; readonly detail: string };

/** The JSON box's text as a form, or why not (`path` null: not JSON at all). */
export function readJson(text: string): JsonRead {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, path: null, detail: (error as Error).message };
  }
  const parsed = importSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, path: issue.path.join('.'), detail: issue.message };
  }
  return { ok: true, form: toForm(parsed.data) };
}

export function emptyPrinter(): PrinterRow {
  return { name: '', uri: '', media: 'label', layout: null, fallback: '', fallbackAuto: false };
}

export function emptyRule(): RuleRow {
  return { documentTypes: [], carriers: [], printer: '' };
}

/**
 * Renames printer `index`; rules, defaults and fallbacks naming it follow, unless another
 * printer still carries the old name.
 */
export function renamePrinter(form: PrintersForm, index: number, name: string): void {
  const printer = form.printers[index];
  if (!printer) return;
  const old = printer.name.trim();
  printer.name = name;
  const next = name.trim();
  if (old === '' || old === next || form.printers.some((p, i) => i !== index && p.name.trim() === old)) return;
  for (const rule of form.rules) if (rule.printer === old) rule.printer = next;
  for (const [type, target] of Object.entries(form.defaults)) if (target === old) form.defaults[type] = next;
  for (const p of form.printers) if (p.fallback === old) p.fallback = next;
}

/** Label stock has no sheet layout: switching to it drops the layout. */
export function setMedia(row: PrinterRow, media: PrinterMedia): void {
  row.media = media;
  if (!isSheetMedia(media)) row.layout = null;
}

/** Moves a rule one place up (-1) or down (+1); returns its new index. */
export function moveRule(form: PrintersForm, index: number, by: -1 | 1): number {
  const to = index + by;
  if (index < 0 || index >= form.rules.length || to < 0 || to >= form.rules.length) return index;
  const [rule] = form.rules.splice(index, 1);
  form.rules.splice(to, 0, rule!);
  return to;
}

/**
 * A field of the form: `printers.N.name|device|uri|layout|fallback`, `rules.N.printer`,
 * `defaults.TYPE`, or `printers` (the list as a whole).
 */
export type FieldName = string;

export interface Problem {
  readonly field: FieldName;
  readonly key: MessageKey;
  readonly params?: Readonly<Record<string, string | number>>;
}

const isPrinterUri = (value: string): boolean => printerKindOf(value) !== null;

/** What to correct before saving, in the form's order. */
export function validate(form: PrintersForm): Problem[] {
  const problems: Problem[] = [];
  const names = form.printers.map((p) => p.name.trim());
  const byName = new Map(form.printers.map((p) => [p.name.trim(), p]));
  form.printers.forEach((p, i) => {
    const name = names[i]!;
    if (name === '') problems.push({ field: `printers.${i}.name`, key: 'pf.err.nameEmpty' });
    else if (names.indexOf(name) !== i) problems.push({ field: `printers.${i}.name`, key: 'pf.err.nameTaken', params: { name } });
    if (p.uri.trim() === '') problems.push({ field: `printers.${i}.device`, key: 'pf.err.noDevice' });
    if (p.layout !== null && !isSheetMedia(p.media)) problems.push({ field: `printers.${i}.layout`, key: 'pf.err.layoutOnLabels' });
    if (p.fallback !== '') {
      const target = byName.get(p.fallback) ?? form.printers.find((q) => q.uri.trim() === p.fallback);
      if (!target && !isPrinterUri(p.fallback)) {
        problems.push({ field: `printers.${i}.fallback`, key: 'pf.err.fallbackGone', params: { name: p.fallback } });
      } else if (target && !isSheetMedia(target.media)) {
        problems.push({ field: `printers.${i}.fallback`, key: 'pf.err.fallbackLabels', params: { name: target.name.trim() } });
      }
    }
  });
  const known = (target: string): boolean => byName.has(target) || isPrinterUri(target);
  form.rules.forEach((r, i) => {
    if (r.printer === '') problems.push({ field: `rules.${i}.printer`, key: 'pf.err.ruleNoPrinter' });
    else if (!known(r.printer)) problems.push({ field: `rules.${i}.printer`, key: 'pf.err.ruleGone', params: { name: r.printer } });
  });
  for (const [type, target] of Object.entries(form.defaults)) {
    if (target !== '' && !known(target)) problems.push({ field: `defaults.${type}`, key: 'pf.err.defaultGone', params: { name: target } });
  }
  return problems;
}

/**
 * The form field an agent refusal names: `Setting "routing.rules.0.printer" is invalid: …`
 * (settings store) or `field "routing.printers.1.name": …` (the bridge's input check).
 * Null when the message names no field of this form.
 */
export function refusedField(message: string): FieldName | null {
  const match = /(?:Setting|field) "routing\.([^"]+)"/.exec(message);
  if (!match) return null;
  const parts = match[1]!.split('.');
  const [list, index, field] = parts;
  if (list === 'printers' && index === undefined) return 'printers';
  if (list === 'printers' && /^\d+$/.test(index!)) {
    const known = ['name', 'uri', 'media', 'layout', 'fallback'];
    return `printers.${index}.${known.includes(field ?? '') ? field : 'name'}`;
  }
  if (list === 'rules' && /^\d+$/.test(index ?? '')) {
    return `rules.${index}.${field === 'documentTypes' || field === 'carriers' ? field : 'printer'}`;
  }
  if (list === 'defaults' && index !== undefined) return `defaults.${parts.slice(1).join('.')}`;
  return null;
}
