/**
 * Making outside text safe for a one-line log: control characters are escaped (a reference
 * holding a newline cannot write a fake line) and long values are cut with their length noted
 * (a 200,000-character reference cannot flood the log).
 */

/** Longest single value (reference, reason, id) a log line carries. */
export const MAX_LOG_FIELD = 300;
/** Longest log line, after escaping. Several fields and the fixed text fit well within it. */
export const MAX_LOG_LINE = 2_000;

// C0 and C1 controls, DEL, and the Unicode line/paragraph separators and bidi overrides that
// can make a log viewer show one line as two or reorder its text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Replaces every control character with a visible escape (`\n`, `\u001b`). */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Removes every control character (a file name from a browser may hold NUL or ESC). */
export function stripControls(text: string): string {
  return text.replace(CONTROL, '');
}

/** Cuts `text` to `max` characters, noting how many were left out: `abc…(+199700 chars)`. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}…(+${text.length - max} chars)`;
}

/**
 * One outside value, escaped and capped, ready to put in a log line. Only the first `max`
 * characters are ever escaped, so a huge value is never copied whole; escapes can make the
 * shown part longer than `max` (at most 6x), which the line cap still bounds.
 */
export function logField(value: string, max = MAX_LOG_FIELD): string {
  if (value.length <= max) return escapeControls(value);
  return `${escapeControls(value.slice(0, max))}…(+${value.length - max} chars)`;
}
