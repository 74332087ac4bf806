import { RE2JS } from 're2js';

/**
 * Compiles one station-rule pattern. References come from outside (the shop,
 * the web application), so a pattern must never backtrack: `/(a+)+$/` against 27 `a`s and a
 * `!` froze the whole agent for 12 s with JavaScript's RegExp. Regular expressions therefore
 * run on RE2 (re2js, linear in the input), and a pattern RE2 cannot run (lookaround,
 * backreferences) or whose program is large enough to cost milliseconds on a long reference
 * is refused; `parseStationRules` does that when rules are saved.
 */

export type PatternMatcher = (value: string) => boolean;
export type CompiledPattern = { readonly ok: true; readonly test: PatternMatcher } | { readonly ok: false; readonly error: string };

/** Longer patterns are refused: a rule is a prefix or a short expression, never a program. */
export const MAX_PATTERN_LENGTH = 200;
/**
 * RE2 program size (instructions) above which a pattern is refused. Matching costs about
 * input length x program size; at 100, a 10,000-character reference takes a few ms at worst.
 */
export const MAX_PROGRAM_SIZE = 100;

const REGEX_LITERAL = /^\/(.+)\/([a-z]*)$/s;
const FLAG_BITS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
// `g` and `y` make a JS test() stateful and `u`/`d` change nothing for a yes/no match: accepted and ignored.
const IGNORED_FLAGS = new Set(['g', 'y', 'u', 'd']);

const cache = new Map<string, CompiledPattern>();

export function compilePattern(pattern: string): CompiledPattern {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const result = compile(pattern);
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, result);
  return result;
}

function compile(pattern: string): CompiledPattern {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return { ok: false, error: `it is ${pattern.length} characters long, more than ${MAX_PATTERN_LENGTH}` };
  }
  const literal = REGEX_LITERAL.exec(pattern);
  if (!literal) return { ok: true, test: (v) => v.startsWith(pattern) };
  const source = literal[1] as string;
  let flags = 0;
  for (const flag of literal[2] as string) {
    if (IGNORED_FLAGS.has(flag)) continue;
    const bit = FLAG_BITS[flag];
    if (bit === undefined) return { ok: false, error: `flag ${flag} is not supported (use i, m or s)` };
    flags |= bit;
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, flags);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: `${message} (the RE2 syntax is accepted: no lookahead, lookbehind or backreferences)`,
    };
  }
  const size = re.programSize();
  if (size > MAX_PROGRAM_SIZE) {
    const error = `it is too complex (RE2 program of ${size} instructions, at most ${MAX_PROGRAM_SIZE}); use smaller repeat counts`;
    return { ok: false, error };
  }
  return { ok: true, test: (v) => re.test(v) };
}
