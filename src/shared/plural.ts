/**
 * Plural forms in a message, a small subset of ICU's syntax:
 * `{count, plural, one {# label sent} other {# labels sent}}`. `#` is the number, formatted as
 * the locale writes it; a form may hold other `{parameters}`; the form is chosen by
 * Intl.PluralRules of the language (en, sv, da, nb and fi all say `one` and `other`, and `other`
 * is the fallback every message must have). Plain `{name}` parameters are filled after the forms.
 *
 * Shared by the UI's `t()` and the report words of the command line (no renderer, no DOM).
 */

/** One `{param, plural, …}` block of a message: its parameter and its forms by category. */
export interface PluralBlock {
  readonly param: string;
  readonly forms: Readonly<Record<string, string>>;
  /** Where the block is in the message: [start, end). */
  readonly start: number;
  readonly end: number;
}

export interface MessageFormatting {
  /** The number as the locale writes it (default: String). */
  readonly number?: (value: number) => string;
  /** The plural category of a number (Intl.PluralRules#select). */
  readonly plural: (value: number) => string;
}

const OPENING = /\{(\w+)\s*,\s*plural\s*,/y;
const FORM = /\s*(=\d+|zero|one|two|few|many|other)\s*\{/y;

/** The plural blocks of a message; throws on one it cannot read (a catalog mistake, found by the catalog test). */
export function pluralBlocks(message: string): PluralBlock[] {
  const blocks: PluralBlock[] = [];
  for (let i = message.indexOf('{'); i >= 0; i = message.indexOf('{', i + 1)) {
    OPENING.lastIndex = i;
    const opening = OPENING.exec(message);
    if (!opening) continue;
    const forms: Record<string, string> = {};
    let at = OPENING.lastIndex;
    for (;;) {
      const close = /\s*\}/y;
      close.lastIndex = at;
      if (close.exec(message)) {
        at = close.lastIndex;
        break;
      }
      FORM.lastIndex = at;
      const form = FORM.exec(message);
      if (!form) throw new Error(`plural of {${opening[1]}} unreadable at ${at}: "${message}"`);
      const bodyEnd = matchingBrace(message, FORM.lastIndex);
      forms[form[1]!] = message.slice(FORM.lastIndex, bodyEnd);
      at = bodyEnd + 1;
    }
    if (forms.other === undefined) throw new Error(`plural of {${opening[1]}} has no "other" form: "${message}"`);
    blocks.push({ param: opening[1]!, forms, start: i, end: at });
    i = at - 1;
  }
  return blocks;
}

/** Every parameter a message uses, in plural blocks (their own and their forms') and outside them, sorted. */
export function messageParams(message: string): string[] {
  const names = new Set<string>();
  let rest = '';
  let from = 0;
  for (const block of pluralBlocks(message)) {
    names.add(block.param);
    rest += `${message.slice(from, block.start)} ${Object.values(block.forms).join(' ')} `;
    from = block.end;
  }
  rest += message.slice(from);
  for (const m of rest.matchAll(/\{(\w+)\}/g)) names.add(m[1]!);
  return [...names].sort();
}

/**
 * The message with its plural forms chosen and `{name}` replaced by params[name]. A missing
 * parameter stays visible as `{name}` (a plural then shows its `other` form).
 */
export function formatMessage(message: string, params: Readonly<Record<string, string | number>>, formatting: MessageFormatting): string {
  let chosen = '';
  let from = 0;
  for (const block of pluralBlocks(message)) {
    const value = params[block.param];
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    const form = Number.isNaN(n) ? block.forms.other! : (block.forms[`=${n}`] ?? block.forms[formatting.plural(n)] ?? block.forms.other!);
    chosen += message.slice(from, block.start) + form.replaceAll('#', `{${block.param}}`);
    from = block.end;
  }
  chosen += message.slice(from);
  const number = formatting.number ?? String;
  return chosen.replaceAll(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? number(value) : value;
  });
}

/** The index of the `}` closing a body that starts at `from` (bodies may hold `{name}`). */
function matchingBrace(message: string, from: number): number {
  let depth = 0;
  for (let i = from; i < message.length; i++) {
    if (message[i] === '{') depth++;
    else if (message[i] === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  throw new Error(`plural form not closed: "${message}"`);
}
