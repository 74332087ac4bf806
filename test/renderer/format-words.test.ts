// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshLanguage, setLanguage } from '../../src/renderer/i18n';
import { listWords, localCutoff, localDateTime, localPrice, printerName, printerUriHint, rateTitle } from '../../src/renderer/format';
import { sayLanguages } from '../support/languages';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
  refreshLanguage();
});

const spaces = (text: string) => text.replaceAll(/[\u00a0\u202f]/g, ' ');
const afternoon = new Date(2026, 10, 26, 15, 49).toISOString();

describe('every number and date in the UI language', () => {
  it('keeps a 24-hour clock in the Nordic languages even when the computer says en-US', () => {
    sayLanguages('en-US');
    expect(localDateTime(afternoon)).toMatch(/PM/);
    for (const language of ['sv', 'da', 'nb', 'fi'] as const) {
      setLanguage(language);
      expect(localDateTime(afternoon), language).toMatch(/15[.:]49/);
      expect(localDateTime(afternoon), language).not.toMatch(/PM/);
    }
  });

  it('writes prices as the locale writes money, with the decimal comma the weights use', () => {
    sayLanguages('sv-SE');
    expect(spaces(localPrice('1234.5', 'SEK'))).toBe('1 234,50 kr');
    setLanguage('fi');
    expect(spaces(localPrice('99.00', 'EUR'))).toBe('99,00 €');
    setLanguage(null);
    sayLanguages('en-GB');
    expect(localPrice('12.5', 'EUR')).toBe('€12.50');
    // What does not read as an amount is shown as the service sent it.
    expect(localPrice('about 12', 'SEK')).toBe('about 12 SEK');
  });

  it('writes the pickup cut-off like every other date, not as ISO', () => {
    sayLanguages('sv-SE');
    expect(localCutoff('2026-11-24 16:00')).toBe('24 nov. 2026 16:00');
    expect(localCutoff('soon')).toBe('soon');
  });

  it('joins words as the language does: no English "and" or "or"', () => {
    sayLanguages('sv-SE');
    expect(listWords(['etiketter', 'A4-ark'])).toBe('etiketter och A4-ark');
    expect(printerUriHint()).toMatch(/ eller service:ID$/);
    expect(printerUriHint()).toContain('cups:KÖ');
    setLanguage('fi');
    expect(listWords(['tarrat', 'A4-arkit'])).toBe('tarrat ja A4-arkit');
  });

  it('names a printer one way: a folder printer named by its URI reads as its kind and place', () => {
    sayLanguages('sv-SE');
    expect(printerName('folder:./demo-prints', 'folder:./demo-prints')).toBe('Mapp ./demo-prints');
    expect(printerName('Packing bench 1', 'service:abc')).toBe('Packing bench 1');
  });

  it('says a carrier and product without a word twice', () => {
    expect(rateTitle('DHL Express', 'Express Worldwide')).toBe('DHL Express Worldwide');
    expect(rateTitle('Bring', 'Bring Business Parcel')).toBe('Bring Business Parcel');
    expect(rateTitle('PostNord', 'MyPack Collect')).toBe('PostNord MyPack Collect');
    expect(rateTitle('DB Schenker', 'DB SCHENKERsystem')).toBe('DB SCHENKERsystem');
  });
});
