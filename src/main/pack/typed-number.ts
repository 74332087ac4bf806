/**
 * Numbers as a packer types them: `1,5` and `1.5` are the same weight (Swedish and German
 * keyboards type a comma). Anything else is refused with the field named, before the
 * service sees it.
 */
export type TypedNumber = { readonly ok: true; readonly value: number } | { readonly ok: false; readonly message: string };

const NUMBER = /^\d{1,6}(?:[.,]\d{1,3})?$/;

export function parseTypedNumber(input: number | string, options: { readonly max: number }): TypedNumber {
  const text = typeof input === 'number' ? String(input) : input.trim().replace(/\s+/g, '');
  if (text === '') return { ok: false, message: 'is missing' };
  if (!NUMBER.test(text)) return { ok: false, message: `“${text}” is not a number (write e.g. 1,5 or 1.5)` };
  const value = Number(text.replace(',', '.'));
  if (!(value > 0)) return { ok: false, message: 'must be more than 0' };
  if (value > options.max) return { ok: false, message: `must be at most ${options.max}` };
  return { ok: true, value };
}
