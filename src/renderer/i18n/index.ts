/**
 * The UI's language: one catalog per language, the choice (stored on this computer, else
 * the OS/browser languages), `t(key, params)` and a change signal so views redraw.
 * The agent's own messages (errors from the service) stay as the agent wrote them.
 */
import { formatMessage } from '../../shared/plural';
import type { Catalog, MessageKey } from './catalog';
import { da } from './da';
import { en } from './en';
import { fi } from './fi';
import { nb } from './nb';
import { sv } from './sv';

export type { Catalog, MessageKey } from './catalog';

export const LANGUAGES = ['en', 'sv', 'da', 'nb', 'fi'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CATALOGS: Readonly<Record<Language, Catalog>> = { en, sv, da, nb, fi };

/** Each language in its own words: a packer finds their language whatever the UI shows now. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  sv: 'Svenska',
  da: 'Dansk',
  nb: 'Norsk (bokmål)',
  fi: 'Suomi',
};

/** Where a chosen language is kept (this computer only; absent = as the OS says). */
export const LANGUAGE_STORAGE_KEY = 'print-station.language';

/** Region for Intl when the OS names none of the chosen language's. */
const DEFAULT_LOCALE: Readonly<Record<Language, string>> = { en: 'en-GB', sv: 'sv-SE', da: 'da-DK', nb: 'nb-NO', fi: 'fi-FI' };

let cached: { language: Language; locale: string } | null = null;
/** The choice when storage refuses it: it then lasts this session only. */
let session: Language | null = null;
const listeners = new Set<(language: Language) => void>();

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The language a BCP 47 tag asks for: `sv-SE` → sv; Norwegian (`no`, `nn`) reads bokmål. */
export function languageOf(tag: string): Language | null {
  const base = tag.toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === 'no' || base === 'nn' || base === 'nb') return 'nb';
  return isLanguage(base) ? base : null;
}

/** The first of the OS/browser languages (navigator.languages) we have; English otherwise. */
export function systemLanguage(): Language {
  for (const tag of systemTags()) {
    const language = languageOf(tag);
    if (language) return language;
  }
  return 'en';
}

/** The language chosen on this computer, or null when it follows the OS. */
export function storedLanguage(): Language | null {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

export function language(): Language {
  return resolved().language;
}

/** The locale for Intl: the OS's own tag when it is in the UI language (keeps its region). */
export function locale(): string {
  return resolved().locale;
}

/** Choose a language (null: follow the OS again), remember it and tell the views. */
export function setLanguage(choice: Language | null): void {
  try {
    if (choice) globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, choice);
    else globalThis.localStorage?.removeItem(LANGUAGE_STORAGE_KEY);
  } catch {
    session = choice;
  }
  refreshLanguage();
}

/** Read the choice and the OS languages again; notifies when the language changed. */
export function refreshLanguage(): void {
  const before = cached?.language;
  cached = null;
  const now = language();
  if (globalThis.document?.documentElement) document.documentElement.lang = locale();
  if (before !== undefined && before !== now) for (const listener of listeners) listener(now);
}

/** Returns the unsubscribe function. */
export function onLanguageChange(listener: (language: Language) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The message in the current language with its plural forms chosen for the numbers
 * (`{count, plural, one {…} other {…}}`, Intl.PluralRules of the UI locale: src/shared/plural.ts)
 * and `{name}` replaced by params[name]; numbers in the locale's digits. A missing parameter stays
 * visible as `{name}` rather than vanishing.
 */
export function t(key: MessageKey, params: Readonly<Record<string, string | number>> = {}): string {
  const template = CATALOGS[language()][key] ?? en[key] ?? key;
  const { numbers, plurals } = intl();
  return formatMessage(template, params, { number: (n) => numbers.format(n), plural: (n) => plurals.select(n) });
}

/** `t` for keys built from API values (`document.${type}`): null when the catalog has none. */
export function tMaybe(key: string, params?: Readonly<Record<string, string | number>>): string | null {
  return Object.hasOwn(en, key) ? t(key as MessageKey, params) : null;
}

function resolved(): { language: Language; locale: string } {
  if (cached) return cached;
  const chosen = storedLanguage() ?? session ?? systemLanguage();
  const own = systemTags().find((tag) => languageOf(tag) === chosen && /^[a-z]{2,3}-[A-Z]{2}$/i.test(tag));
  cached = { language: chosen, locale: own ?? DEFAULT_LOCALE[chosen] };
  return cached;
}

let formats: { locale: string; numbers: Intl.NumberFormat; plurals: Intl.PluralRules } | null = null;

/** The locale's number format and plural rules, made once per locale (t() runs for every row). */
function intl(): { numbers: Intl.NumberFormat; plurals: Intl.PluralRules } {
  const now = locale();
  if (formats?.locale !== now) formats = { locale: now, numbers: new Intl.NumberFormat(now), plurals: new Intl.PluralRules(now) };
  return formats;
}

function systemTags(): readonly string[] {
  const nav = globalThis.navigator as Navigator | undefined;
  if (!nav) return [];
  return nav.languages?.length ? nav.languages : nav.language ? [nav.language] : [];
}

// The OS language changed while running (Chromium fires this): follow it unless one is chosen.
globalThis.addEventListener?.('languagechange', () => refreshLanguage());
