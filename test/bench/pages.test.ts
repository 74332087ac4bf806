/** Pages used, counted with pdf-lib in the files a sink queue received (bench/pages.ts). */
import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { fewestSheets, labelsPerSheet, pagesOf, pdfPages } from '../../bench/pages';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pdfWith(pages: number, name: string): Promise<string> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`page ${i + 1}`, { x: 20, y: 800 });
  const file = path.join(dir, name);
  await fs.writeFile(file, await doc.save());
  return file;
}

describe('page counting', () => {
  it('counts the pages of each job and sums them', async () => {
    const files = [await pdfWith(1, 'a.pdf'), await pdfWith(7, 'b.pdf'), await pdfWith(3, 'c.pdf')];
    expect(await pdfPages(files[1]!)).toBe(7);
    expect(await pagesOf(files)).toBe(11);
    expect(await pagesOf([])).toBe(0);
  });

  it('fails on a file that is not a PDF rather than counting it as nothing', async () => {
    const bad = path.join(dir, 'bad.pdf');
    await fs.writeFile(bad, 'not a pdf');
    await expect(pagesOf([bad])).rejects.toThrow();
  });
});

describe('sheet layouts', () => {
  it('holds the labels a sheet the service spec names: 2x2 four, 3x1 three, 1x2 two', () => {
    expect([labelsPerSheet('2x2'), labelsPerSheet('3x1'), labelsPerSheet('1x2')]).toEqual([4, 3, 2]);
  });

  it('needs every sheet full but the last at best', () => {
    expect(fewestSheets('2x2', 40)).toBe(10);
    expect(fewestSheets('2x2', 41)).toBe(11);
    expect(fewestSheets('3x1', 40)).toBe(14);
    expect(fewestSheets('1x2', 40)).toBe(20);
  });
});
