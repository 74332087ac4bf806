/**
 * Numbers as a packer types them: `1,5` and `1.5` are the same weight (Swedish and German
 * keyboards type a comma), and the unit may come along (`1,5 kg`, `30 cm`). Anything else is
 * refused with the real reason (missing, not a number, not above 0, too large) before the
 * service sees it.
 */
import type { FieldProblemCode } from '../../shared/domain';

export type TypedNumber =
  | { readonly ok: true; readonly value: number }
  | {
      readonly ok: false;
      readonly message: string;
      readonly code: FieldProblemCode;
      readonly params?: Readonly<Record<string, string | number>>;
    };

const NUMBER = /^-?\d{1,6}(?:[.,]\d{1,3})?$/;
/** A unit typed after the number: the field already says which. */
const UNIT = /(?:kg|cm)$/i;

export function parseTypedNumber(input: number | string, options: { readonly max: number }): TypedNumber {
  const typed = typeof input === 'number' ? String(input) : input.trim().replace(/\s+/g, '');
  const text = typed.replace(UNIT, '');
  if (text === '') return { ok: false, message: 'is missing', code: 'missing' };
  if (!NUMBER.test(text)) {
    return { ok: false, message: `“${typed}” is not a number (write e.g. 1,5 or 1.5)`, code: 'notNumber', params: { text: typed } };
  }
  const value = Number(text.replace(',', '.'));
  if (!(value > 0)) return { ok: false, message: 'must be more than 0', code: 'notPositive' };
  if (value > options.max) return { ok: false, message: `must be at most ${options.max}`, code: 'tooLarge', params: { max: options.max } };
  return { ok: true, value };
}
