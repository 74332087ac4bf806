// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CATALOGS,
  LANGUAGES,
  LANGUAGE_STORAGE_KEY,
  language,
  languageOf,
  locale,
  onLanguageChange,
  refreshLanguage,
  setLanguage,
  t,
} from '../../src/renderer/i18n';
import { en } from '../../src/renderer/i18n/en';
import { PRINTER_KINDS, PRINTER_KIND_WORDS_TABLE } from '../../src/shared/printer-kinds';
import { messageParams, pluralBlocks } from '../../src/shared/plural';
import { sayLanguages } from '../support/languages';

/** Every {parameter} of a message, those choosing a plural form and those inside the forms too. */
const placeholders = messageParams;

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
  refreshLanguage();
});

describe('catalogs', () => {
  const keys = Object.keys(en).sort();

  it.each(LANGUAGES)('%s has every key, no extra key and no empty message', (lang) => {
    const catalog = CATALOGS[lang];
    expect(Object.keys(catalog).sort()).toEqual(keys);
    for (const key of keys) expect(catalog[key as keyof typeof en].trim(), `${lang} ${key}`).not.toBe('');
  });

  it.each(LANGUAGES)('%s uses the same {parameters} as English in every message', (lang) => {
    for (const key of keys) {
      expect(placeholders(CATALOGS[lang][key as keyof typeof en]), `${lang} ${key}`).toEqual(placeholders(en[key as keyof typeof en]));
    }
  });

  it.each(LANGUAGES)('%s words each plural with a "one" and an "other" form, both saying the same {parameters}', (lang) => {
    let plurals = 0;
    for (const key of keys) {
      for (const block of pluralBlocks(CATALOGS[lang][key as keyof typeof en])) {
        plurals++;
        const { one, other } = block.forms;
        expect([one?.trim(), other?.trim()], `${lang} ${key}`).not.toContain(undefined);
        expect([one!.trim(), other!.trim()], `${lang} ${key}`).not.toContain('');
        expect(placeholders(one!), `${lang} ${key}`).toEqual(placeholders(other!));
        expect(one!.includes('#'), `${lang} ${key}: # in one form only`).toBe(other!.includes('#'));
      }
    }
    expect(plurals, `${lang} has plural messages`).toBeGreaterThan(10);
  });

  it.each(LANGUAGES)('%s words a count for the number, never "label(s)" or "regel/regler"', (lang) => {
    const hedged = /\p{L}\((?:s|e|r|er|ter|ta|ä|a)\)|\bregel\/regler\b/u;
    const found = keys.filter((key) => hedged.test(CATALOGS[lang][key as keyof typeof en]));
    expect(found, lang).toEqual([]);
  });

  it('keeps the English printer kind words equal to the shared registry', () => {
    for (const kind of PRINTER_KINDS) {
      expect(en[`printerKind.${kind}`]).toBe(PRINTER_KIND_WORDS_TABLE[kind].label);
      expect(en[`printerKind.${kind}.completed`]).toBe(PRINTER_KIND_WORDS_TABLE[kind].completed);
    }
  });

  it('translates the words a packer reads (not copies of the English)', () => {
    const keys = Object.keys(en) as (keyof typeof en)[];
    const values = new Set(Object.values(en));
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const allowed = new Set([...SAME_EVERYWHERE, ...SAME_IN[lang]]);
      for (const word of allowed) expect(values.has(word), `${lang}: "${word}" is no English message any more`).toBe(true);
      const same = keys.filter((key) => CATALOGS[lang][key] === en[key] && hasWords(en[key]) && !allowed.has(en[key]));
      // A few new messages may wait for a translator; a block copied from English may not.
      expect(same.length, `${lang} copies English: ${same.join(', ')}`).toBeLessThanOrEqual(Math.floor(keys.length * 0.05));
    }
  });

  it('keeps the allow-list honest: each word allowed for a language is what that language says', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const used = new Set(Object.values(CATALOGS[lang]));
      for (const word of SAME_IN[lang]) expect(used.has(word), `${lang}: "${word}" is not used`).toBe(true);
    }
  });
});

/** Text a packer reads: letters left once the {parameters} are taken out ("{line}. {reason}" has none). */
const hasWords = (text: string): boolean => /\p{L}{2}/u.test(text.replaceAll(/\{\w+\}/g, ''));

/** Names and units, the same in every language. */
const SAME_EVERYWHERE = ['Print Station', 'CUPS', 'Windows', 'OK', 'PDF', 'CSV', 'kg', 'cm', 'mm'].filter((w) =>
  Object.values(en).includes(w),
);

/**
 * Words a language really shares with English, checked by reading each in its place: Swedish says
 * "Team", "Support", "Manifest" and "Layout"; Danish scans ("Scan" is the imperative of scanne),
 * books ("Book", of booke), prints on a "Printer", and writes "reference", "Team", "Offline",
 * "Support" and "Manifest" as English does; Norwegian "Team", "Manifest" and "Book" (of booke).
 */
const SAME_IN: Readonly<Record<Exclude<(typeof LANGUAGES)[number], 'en'>, readonly string[]>> = {
  sv: ['Team', 'Support', 'Manifest', 'Layout'],
  da: ['Scan', 'reference', 'Team', 'Offline', 'Support', 'Printer', 'Manifest', 'Book'],
  nb: ['Team', 'Manifest', 'Book'],
  fi: [],
};

describe('choosing the language', () => {
  it('follows the OS/browser languages, first one we have', () => {
    sayLanguages('de-DE', 'sv-SE', 'en-US');
    expect(language()).toBe('sv');
    expect(locale()).toBe('sv-SE');
    expect(document.documentElement.lang).toBe('sv-SE');
    sayLanguages('fr-FR');
    expect(language()).toBe('en');
  });

  it('reads Norwegian (no, nn, nb) as bokmål, and Danish and Finnish by their tags', () => {
    expect(['no', 'nn-NO', 'nb-NO', 'da-DK', 'fi', 'en-GB', 'pt'].map(languageOf)).toEqual(['nb', 'nb', 'nb', 'da', 'fi', 'en', null]);
  });

  it('keeps a chosen language over the OS, on this computer, and tells the views', () => {
    sayLanguages('sv-SE');
    const seen: string[] = [];
    const off = onLanguageChange((l) => seen.push(l));
    setLanguage('fi');
    expect(language()).toBe('fi');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('fi');
    expect(locale()).toBe('fi-FI');
    setLanguage(null);
    expect(language()).toBe('sv');
    off();
    setLanguage('da');
    expect(seen).toEqual(['fi', 'sv']);
  });

  it('ignores a stored value that is no language of ours', () => {
    sayLanguages('da-DK');
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'klingon');
    refreshLanguage();
    expect(language()).toBe('da');
  });
});

describe('t', () => {
  it('fills {parameters}, numbers in the locale, and keeps a missing one visible', () => {
    sayLanguages('en-US');
    expect(t('queue.pager', { from: 1, to: 25, total: 1200, page: 1, pages: 48 })).toBe('Jobs 1–25 of 1,200 · page 1 of 48');
    expect(t('readiness.notReadyDetail')).toBe('not ready: {detail}');
    setLanguage('sv');
    expect(t('queue.pager', { from: 1, to: 25, total: 1200, page: 1, pages: 48 }).replaceAll(/[\u00a0\u202f]/g, ' ')).toBe(
      'Jobb 1–25 av 1 200 · sida 1 av 48',
    );
    expect(t('tab.scan')).toBe('Skanna');
  });
});

describe('docs/INTERFACES.md', () => {
  it('lists the accessible names in each language exactly as the catalogs have them', () => {
    const doc = readFileSync(join(__dirname, '../../docs/INTERFACES.md'), 'utf8');
    const rows = doc
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    const languageRows = rows.filter((cells) => cells.length === 1 + LANGUAGES.length && cells[0]!.replaceAll('`', '') in en);
    expect(languageRows.length).toBeGreaterThan(10);
    for (const [key, ...words] of languageRows) {
      const name = key!.replaceAll('`', '') as keyof typeof en;
      expect(
        LANGUAGES.map((lang) => CATALOGS[lang][name]),
        name,
      ).toEqual(words);
    }
  });
});
