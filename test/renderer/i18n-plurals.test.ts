// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshLanguage, setLanguage, t, type Language } from '../../src/renderer/i18n';
import { sayLanguages } from '../support/languages';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
  refreshLanguage();
});

const inLanguage = (lang: Language, say: () => string): string => {
  setLanguage(lang);
  return say().replaceAll(/[\u00a0\u202f]/g, ' ');
};

describe('t with plural forms (Intl.PluralRules of the UI locale)', () => {
  it.each<[Language, string, string, string]>([
    ['en', '1 label sent to print', '6 labels sent to print', '0 labels sent to print'],
    ['sv', '1 etikett skickad till utskrift', '6 etiketter skickade till utskrift', '0 etiketter skickade till utskrift'],
    ['da', '1 etiket sendt til udskrivning', '6 etiketter sendt til udskrivning', '0 etiketter sendt til udskrivning'],
    ['nb', '1 etikett sendt til utskrift', '6 etiketter sendt til utskrift', '0 etiketter sendt til utskrift'],
    ['fi', '1 tarra lähetetty tulostukseen', '6 tarraa lähetetty tulostukseen', '0 tarraa lähetetty tulostukseen'],
  ])('%s: one label, several labels, no label', (lang, one, six, none) => {
    expect(inLanguage(lang, () => t('eod.labelsSent', { count: 1 }))).toBe(one);
    expect(inLanguage(lang, () => t('eod.labelsSent', { count: 6 }))).toBe(six);
    expect(inLanguage(lang, () => t('eod.labelsSent', { count: 0 }))).toBe(none);
  });

  it.each<[Language, string, string]>([
    ['en', 'printed|canceled|booked', 'printed|canceled|booked'],
    ['sv', 'utskriven|avbokad|bokad', 'utskrivna|avbokade|bokade'],
    ['da', 'udskrevet|annulleret|booket', 'udskrevne|annullerede|bookede'],
    ['nb', 'skrevet ut|kansellert|booket', 'skrevet ut|kansellerte|bookede'],
    ['fi', 'tulostettu|peruttu|varattu', 'tulostettua|peruttua|varattua'],
  ])('%s: the End of day count words follow the number', (lang, one, other) => {
    const words = (count: number) =>
      inLanguage(lang, () => (['printed', 'canceled', 'booked'] as const).map((w) => t(`eod.count.${w}`, { count })).join('|'));
    expect(words(1)).toBe(one);
    expect(words(6)).toBe(other);
    expect(words(0)).toBe(other);
  });

  it('keeps the row state word for one booking while the tile says the plural ("utskriven" / "6 utskrivna")', () => {
    setLanguage('sv');
    expect(t('eod.state.printed')).toBe('utskriven');
    expect(t('eod.count.printed', { count: 6 })).toBe('utskrivna');
    expect(t('eod.count.not_printed', { count: 1 })).toBe('inte utskriven');
  });

  it('chooses each of two counts in one message on its own, numbers in the locale', () => {
    sayLanguages('en-US');
    expect(t('pf.saved', { printers: 1, rules: 1200 })).toBe('Saved: 1 printer, 1,200 rules.');
    expect(t('pf.saved', { printers: 2, rules: 1 })).toBe('Saved: 2 printers, 1 rule.');
    expect(inLanguage('fi', () => t('pf.saved', { printers: 1, rules: 3 }))).toBe('Tallennettu: 1 tulostin, 3 sääntöä.');
    expect(inLanguage('sv', () => t('fallback.moved', { count: 1200, printer: 'A', to: 'B' }))).toBe(
      '1 200 väntande etiketter flyttade från A till B',
    );
  });

  it('words the packing counts (days, excluded products, documents sent) by the rules, not by "=== 1" in the views', () => {
    expect(inLanguage('sv', () => [1, 3].map((days) => t('rate.days', { days })).join('|'))).toBe('1 dag|3 dagar');
    expect(inLanguage('fi', () => [1, 2].map((count) => t('packRates.excluded', { count })).join('|'))).toBe(
      '1 tuote poissuljettu|2 tuotetta poissuljettu',
    );
    expect(inLanguage('da', () => [1, 0].map((count) => t('packPanel.sent', { count })).join('|'))).toBe(
      '1 dokument sendt til printeren|0 dokumenter sendt til printeren',
    );
  });

  it('fills the other parameters of a plural message and keeps a missing count visible in the "other" form', () => {
    setLanguage('en');
    expect(t('docs.sent', { count: 1, already: ', 2 already printing or printed' })).toBe(
      '1 document sent to print, 2 already printing or printed.',
    );
    expect(t('eod.labelsSent')).toBe('{count} labels sent to print');
  });
});
