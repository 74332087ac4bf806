import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTestPage } from '../../../src/main/agent/test-page';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-test-page-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The page's text as poppler reads it (what a person sees printed). */
async function textOf(pdf: Uint8Array): Promise<string> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('test page', () => {
  it('names the media and layout of a label printer and carries a millimetre ruler across the label', async () => {
    const text = await textOf(await renderTestPage('printer', 'cups:Zebra', new Date('2026-11-24T09:14:00Z')));
    expect(text).toContain('Media: 4x6 in label (101.6 x 152.4 mm)');
    expect(text).toContain('Layout: printer');
    expect(text).toContain('Printer: cups:Zebra');
    expect(text).toContain('every tick 1 mm');
    // 4x6 in is 101.6 mm wide: inside the border the ruler reaches 80 mm, not 90.
    const numbers = text.match(/(?<![\d.])\d{1,3}(?![\d.])/g) ?? [];
    for (const mark of ['0', '10', '20', '50', '80']) expect(numbers).toContain(mark);
    expect(numbers).not.toContain('90');
  });

  it('names A4 and reaches 190 mm across an A4 page', async () => {
    const text = await textOf(await renderTestPage('a4', 'cups:Office', new Date('2026-11-24T09:14:00Z')));
    expect(text).toContain('Media: A4 sheet (210 x 297 mm)');
    expect(text).toContain('Layout: a4');
    const numbers = text.match(/(?<![\d.])\d{1,3}(?![\d.])/g) ?? [];
    expect(numbers).toContain('190');
    expect(numbers).not.toContain('200');
  });
});
