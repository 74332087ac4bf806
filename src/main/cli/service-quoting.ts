/**
 * Quoting for the service definitions install-service prints: each value (a path, an account
 * name) lands in a systemd unit, a plist, a WinSW XML, and in the copy-paste command lines in
 * their comments, and each of those reads it by its own rules. A value is quoted for the place
 * it goes, so it stays one value whatever it holds. Control characters (a line break that
 * would add a unit line) are refused before any of this (install-service.ts).
 */

// Words every shell and systemd read as themselves: left bare so the usual paths stay readable.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One POSIX sh word: bare when plain, else in single quotes (a `'` as `'\''`). */
export function shWord(value: string): string {
  if (value !== '' && PLAIN_WORD.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * One PowerShell argument: in double quotes, with the characters PowerShell reads inside them
 * escaped by a backtick (`$`, the backtick, `"` and the typographic quotes it treats as `"`).
 * A `-` before another `-` is written `` -` `` (the same `-` to PowerShell), so the line can
 * sit in an XML comment, where `--` is not allowed.
 */
export function powershellWord(value: string): string {
  return `"${value.replace(/[`$"\u201c\u201d\u201e]/g, '`$&').replace(/-(?=-)/g, '-`')}"`;
}

/** systemd expands `%` specifiers in every unit setting: `%%` is a literal `%`. */
export function systemdValue(value: string): string {
  return value.replaceAll('%', '%%');
}

/**
 * One word of a systemd ExecStart= line: `%` as `%%` and `$` as `$$` (ExecStart also expands
 * environment variables); a word with anything but plain characters in double quotes, `\` and
 * `"` escaped, so spaces, quotes and a lone `;` stay inside the word.
 */
export function systemdExecWord(word: string): string {
  const literal = systemdValue(word).replaceAll('$', '$$$$');
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(literal) ? literal : `"${literal.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Text for XML content or an attribute value: the five characters XML gives meaning escaped. */
export function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/**
 * A sh word for a line inside an XML comment, where `--` is not allowed and entities are not
 * read: quoted as shWord does, and every `--` written `-''-`, which sh reads back as `--`
 * (an empty quoted string between the two). Bare words never hold `--` (they are quoted then).
 */
export function shWordInComment(value: string): string {
  const word = value.includes('--') ? `'${value.replaceAll("'", `'\\''`)}'` : shWord(value);
  return word.replace(/-(?=-)/g, "-''");
}

/** True when an XML comment can carry `text` as it is: no `--`, not ending in `-`. */
export function commentSafe(text: string): boolean {
  return !text.includes('--') && !text.endsWith('-');
}
