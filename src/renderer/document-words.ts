// Document types in words. A file of its own because both words.ts and agent-words.ts use it,
// and words.ts uses agent-words.ts: here it closes no import circle.
import { tMaybe } from './i18n';

/**
 * The service may add document types: an unknown one is shown readably, never as a blank.
 * Types named for uploads only (`adr_dangerousgoods`) have words too: they can appear in a list.
 */
export function documentWords(type: string): string {
  const known = tMaybe(`document.${type}`);
  if (known) return known;
  return readable(type);
}

/** `SOME_NEW_VALUE` → `Some new value`. */
export function readable(value: string): string {
  const spaced = value.replaceAll(/[_-]+/g, ' ').trim().toLowerCase();
  return spaced ? spaced[0]!.toUpperCase() + spaced.slice(1) : value;
}
