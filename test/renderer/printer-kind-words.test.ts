import { describe, expect, it } from 'vitest';
import { describeTarget, targetKind } from '../../src/renderer/format';
import { describeJob } from '../../src/renderer/job-words';
import { PRINTER_KIND_WORDS } from '../../src/renderer/words';
import { PRINTER_KINDS, PRINTER_KIND_WORDS_TABLE, PRINTER_URI_HINT } from '../../src/shared/printer-kinds';
import { job } from '../support/fake-agent-client';

describe('printer-kind words', () => {
  it.each(PRINTER_KINDS)('shows %s printers with the words of the shared registry', (kind) => {
    const words = PRINTER_KIND_WORDS_TABLE[kind];
    expect(PRINTER_KIND_WORDS[kind]).toBe(words.label);
    expect(targetKind(`${kind}:x`)).toBe(kind);
    expect(describeTarget(`${kind}:x`)).toBe(`${words.label} x`);
    // An ipp:// address is shown whole: its scheme says whether it is TLS (ipps://).
    expect(describeTarget(`${kind}://x`)).toBe(kind === 'ipp' ? `${words.label} ipp://x` : `${words.label} x`);
    expect(describeJob(job({ target: `${kind}:x`, state: 'completed' }))).toBe(`Label → ${words.label} x: ${words.completed}`);
  });

  it('has a word for exactly the kinds there are', () => {
    expect(Object.keys(PRINTER_KIND_WORDS).sort()).toEqual([...PRINTER_KINDS].sort());
    expect(Object.keys(PRINTER_KIND_WORDS_TABLE).sort()).toEqual([...PRINTER_KINDS].sort());
  });

  it('hints at the URI forms of every kind in one line', () => {
    expect(PRINTER_URI_HINT).toBe(
      'zpl://HOST, ipp://HOST/ipp/print, ipps://…, cups:QUEUE, cups:QUEUE@HOST, zpl-cups:QUEUE, windows:NAME, zpl-windows:NAME, folder:DIR or service:ID',
    );
  });
});
