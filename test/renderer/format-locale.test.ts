// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeJob } from '../../src/renderer/job-words';
import { refreshLanguage, setLanguage } from '../../src/renderer/i18n';
import { describeTarget, localDateTime, localNumber, localTime, localWeight } from '../../src/renderer/format';
import { DOCUMENT_WORDS, documentWords, readiness, trackingStatusWords } from '../../src/renderer/words';
import { job } from '../support/fake-agent-client';
import { sayLanguages } from '../support/languages';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
  refreshLanguage();
});

const spaces = (text: string) => text.replaceAll(/[\u00a0\u202f]/g, ' ');
// Local time, so the expected strings do not depend on the machine's time zone.
const noon = new Date(2026, 10, 24, 12, 5, 9).toISOString();

describe('Intl formatting in the UI language', () => {
  it('writes weights and numbers the Swedish way', () => {
    sayLanguages('sv-SE');
    // ICU puts a plain or a no-break space here depending on its version: the digits are what matter.
    expect(spaces(localWeight(1.5))).toBe('1,5 kg');
    expect(spaces(localNumber(1234.5))).toBe('1 234,5');
    expect(localWeight(null)).toBe('—');
  });

  it('writes weights the English way in English', () => {
    sayLanguages('en-US');
    expect(localWeight(1.5)).toBe('1.5 kg');
  });

  it('writes dates and times per language', () => {
    sayLanguages('sv-SE');
    expect(localDateTime(noon)).toBe('24 nov. 2026 12:05');
    expect(localTime(noon)).toBe('12:05:09');
    setLanguage('fi');
    expect(localDateTime(noon)).toBe('24.11.2026 klo 12.05');
    setLanguage('en');
    sayLanguages('en-GB');
    expect(localDateTime(noon)).toBe('24 Nov 2026, 12:05');
  });

  it('names documents, statuses and printer kinds in words a packer understands', () => {
    sayLanguages('sv-SE');
    expect(DOCUMENT_WORDS.customsinvoice).toBe('Tullfaktura');
    expect(documentWords('adr_dangerousgoods')).toBe('Intyg för farligt gods (ADR)');
    expect(trackingStatusWords('OUT_FOR_DELIVERY')).toBe('Ute för leverans');
    expect(trackingStatusWords('SOME_NEW_STATUS')).toBe('Some new status');
    expect(readiness({ ready: false, detail: 'paper out' }).words).toBe('inte redo: paper out');
    expect(describeTarget('folder:/srv/prints')).toBe('Mapp /srv/prints');
    expect(describeJob(job({ target: 'folder:/srv/prints', state: 'completed' }))).toBe('Etikett → Mapp /srv/prints: sparad');
    setLanguage('da');
    expect(trackingStatusWords('OUT_FOR_DELIVERY')).toBe('Ude til levering');
    setLanguage('en');
    expect(trackingStatusWords('out_for_delivery')).toBe('Out for delivery');
    expect(DOCUMENT_WORDS.customsinvoice).toBe('Customs invoice');
  });
});
