import { vi } from 'vitest';
import { refreshLanguage } from '../../src/renderer/i18n';

/** Make the browser say these languages (navigator.languages) and re-read the UI language. */
export function sayLanguages(...tags: string[]): void {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(tags);
  refreshLanguage();
}
