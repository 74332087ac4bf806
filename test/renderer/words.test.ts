import { describe, expect, it } from 'vitest';
import { DOCUMENT_TYPES, JOB_TRIGGERS, LABEL_LAYOUTS } from '../../src/shared/domain';
import { DOCUMENT_WORDS, LAYOUT_WORDS, TRIGGER_WORDS, documentWords, readiness } from '../../src/renderer/words';

describe('document words', () => {
  it('has words for every document type the spec names, never the API name', () => {
    for (const type of DOCUMENT_TYPES) {
      const word = documentWords(type);
      expect(word).toBe(DOCUMENT_WORDS[type]);
      expect(word).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
    }
    expect(documentWords('customsinvoice')).toBe('Customs invoice');
    expect(documentWords('proofofdelivery')).toBe('Proof of delivery');
    expect(documentWords('abd')).toBe('Export accompanying document');
    expect(documentWords('salesinvoice')).toBe('Sales invoice');
    expect(documentWords('adr_dangerousgoods')).toBe('Dangerous goods certificate (ADR)');
  });

  it('shows a type the service added later readably', () => {
    expect(documentWords('commercial_invoice')).toBe('Commercial invoice');
    expect(documentWords('')).toBe('');
  });

  it('has words for every layout and trigger', () => {
    for (const layout of LABEL_LAYOUTS) expect(LAYOUT_WORDS[layout]).toMatch(/\w/);
    for (const trigger of JOB_TRIGGERS) expect(TRIGGER_WORDS[trigger]).toMatch(/\w/);
  });
});

describe('readiness', () => {
  it('is green only when ready, red when not, grey when unknown', () => {
    expect(readiness({ ready: true, detail: null })).toEqual({ tone: 'ok', words: 'ready' });
    expect(readiness({ ready: false, detail: 'paper out' })).toEqual({ tone: 'bad', words: 'not ready: paper out' });
    expect(readiness({ ready: false, detail: null })).toEqual({ tone: 'bad', words: 'not ready' });
    expect(readiness({ ready: null, detail: null })).toEqual({ tone: 'unknown', words: 'readiness unknown' });
  });
});
