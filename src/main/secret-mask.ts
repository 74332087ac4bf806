/**
 * Masking a secret in text as a whole value, never character by character. A secret long
 * enough to be one (ANYWHERE_FROM characters) is masked wherever it appears: such a run of
 * characters is the secret, not a coincidence. A shorter one is masked only where it stands
 * alone, not inside a longer word: masking every "x" of a one-letter secret mangled
 * "Sandbox" into "Sandbo***" and, worse, told the reader what the secret was.
 */

/** From this length a secret is masked inside longer text too. */
export const ANYWHERE_FROM = 8;

const WORD = 'A-Za-z0-9';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `text` with each whole occurrence of `secret` replaced by `mask`. */
export function maskSecret(text: string, secret: string, mask = '***'): string {
  if (secret.length === 0 || !text.includes(secret)) return text;
  if (secret.length >= ANYWHERE_FROM) return text.split(secret).join(mask);
  const alone = new RegExp(`(?<![${WORD}])${escapeRegExp(secret)}(?![${WORD}])`, 'g');
  return text.replace(alone, () => mask);
}
