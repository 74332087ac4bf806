import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SCAN_VALUE_LENGTH, normalizeScan, type NormalizedScan } from '../../../src/main/scan/normalize-scan';

function ok(raw: string): NormalizedScan {
  const result = normalizeScan(raw);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(raw)} to normalise, got ${result.message}`);
  return result;
}

describe('normalizeScan', () => {
  it('removes scanner noise: whitespace, CR, TAB, GS and zero-width characters', () => {
    expect(ok('  ord-1001\r\n').value).toBe('ORD-1001');
    expect(ok('\tORD 1001\u001d\u200b').value).toBe('ORD-1001'.replace('-', ''));
  });

  it('upper-cases text but keeps the typed case as a later candidate for references', () => {
    const r = ok('order-abc');
    expect(r.kind).toBe('text');
    expect(r.candidates).toEqual(['ORDER-ABC', 'order-abc']);
  });

  it('recognises UUIDs and does not upper-case them', () => {
    const r = ok(' 3F2504E0-4F89-11D3-9A0C-0305E82C3301\r');
    expect(r.kind).toBe('uuid');
    expect(r.value).toBe('3f2504e0-4f89-11d3-9a0c-0305e82c3301');
    expect(r.candidates).toContain('3F2504E0-4F89-11D3-9A0C-0305E82C3301');
  });

  it('upper-cases UPS 1Z numbers', () => {
    expect(ok('1z999aa10123456784').value).toBe('1Z999AA10123456784');
  });

  it('extracts the SSCC from a GS1-128 scan with symbology identifier and AI 00', () => {
    const r = ok(']C100340123450000000019\r');
    expect(r.kind).toBe('sscc');
    expect(r.value).toBe('340123450000000019');
    expect(r.candidates).toEqual(expect.arrayContaining(['40123450000000019', '00340123450000000019']));
  });

  it('extracts the SSCC from the human-readable (00) form and from a bare 20-digit 00 form', () => {
    expect(ok('(00) 3401 2345 0000 0000 19').value).toBe('340123450000000019');
    const bare = ok('00340123450000000019');
    expect(bare.kind).toBe('sscc');
    expect(bare.value).toBe('340123450000000019');
    expect(bare.candidates).toContain('00340123450000000019');
  });

  it('strips the ]d2 and ]Q3 symbology identifiers', () => {
    expect(ok(']d2REF-77').value).toBe('REF-77');
    expect(ok(']Q3ref-78').candidates).toEqual(['REF-78', 'ref-78']);
  });

  it('reads GINC (401) and ignores the ship-to postal code (420) in a GS-separated element string', () => {
    const r = ok(']C142012345\u001d401ab-77');
    expect(r.value).toBe('AB-77');
  });

  it('takes the parenthesised (401) consignment number', () => {
    expect(ok('(420)12345(401)CONS-9').value).toBe('CONS-9');
  });

  it('removes the USPS 420+ZIP prefix, with and without GS', () => {
    const tracking = '9400111899223100001234';
    expect(ok(`42012345${tracking}`).value).toBe(tracking);
    expect(ok(`420123456789${tracking}`).value).toBe(tracking);
    expect(ok(`]C142012345\u001d${tracking}`).value).toBe(tracking);
  });

  it('rejects empty and whitespace-only scans with a message saying what to do', () => {
    for (const raw of ['', '   ', '\r\n', '\u001d', ']C1']) {
      const r = normalizeScan(raw);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.code).toBe('SCAN_EMPTY');
        expect(r.message).toMatch(/scan/i);
      }
    }
  });

  it('rejects values that are too long', () => {
    const r = normalizeScan('A'.repeat(MAX_SCAN_VALUE_LENGTH + 1));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe('SCAN_TOO_LONG');
    expect(normalizeScan('A'.repeat(100_000)).ok).toBe(false);
  });

  it('never throws and keeps its invariants on any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          // eslint-disable-next-line no-control-regex -- \u001d is GS1's group separator, part of the scans generated here
          fc.stringMatching(/^(\]C1)?(\(\d{2,3}\)[0-9A-Za-z\u001d]{0,22}){0,3}$/),
        ),
        (raw) => {
          const r = normalizeScan(raw);
          if (!r.ok) return true;
          expect(r.value.length).toBeGreaterThan(0);
          expect(r.candidates[0]).toBe(r.value);
          expect(new Set(r.candidates).size).toBe(r.candidates.length);
          for (const c of r.candidates) {
            expect(c).not.toMatch(/[\s\p{Cc}]/u);
            expect(c.length).toBeLessThanOrEqual(MAX_SCAN_VALUE_LENGTH + 2);
          }
          return true;
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads an identifier split by noise as the identifier (its output scans the same again)', () => {
    expect(normalizeScan('] A0')).toEqual(normalizeScan(']A0'));
    expect(normalizeScan(']A0]A0')).toEqual(normalizeScan(']A0'));
    expect(normalizeScan(']\tC1 00340123450000000007').ok).toBe(true);
  });

  it('is idempotent on its own output for text values', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (raw) => {
        const r = normalizeScan(raw);
        if (!r.ok || r.kind !== 'text') return true;
        const again = normalizeScan(r.value);
        return again.ok && again.value === r.value;
      }),
      { numRuns: 300 },
    );
  });
});
