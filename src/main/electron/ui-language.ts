/**
 * The tray's and notifications' language before the window says which it shows (it does at
 * start, registerUiLanguage in ipc.ts): the system's, as the renderer picks it when Settings
 * holds no choice, else English.
 */
import { uiLanguageOf, type UiLanguage } from '../../shared/tray-words';

/** The part of Electron's app this reads (app.getPreferredSystemLanguages, app.getLocale). */
export interface LocaleSource {
  getPreferredSystemLanguages?(): string[];
  getLocale(): string;
}

export function systemUiLanguage(app: LocaleSource): UiLanguage {
  const tags = [...(app.getPreferredSystemLanguages?.() ?? []), app.getLocale()];
  for (const tag of tags) {
    const language = uiLanguageOf(tag);
    if (language) return language;
  }
  return 'en';
}
