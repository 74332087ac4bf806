/** Pages used: counted with pdf-lib in the PDFs a sink queue received (one file a spooler job, byte-exact). */
import { promises as fs } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { LABELS_PER_SHEET } from '../src/shared/domain';

/** Sheet layouts of the service's print call (its spec: `1x2` two labels a page, `3x1` three, `2x2` four on A4). */
export const SHEET_LAYOUTS = ['2x2', '3x1', '1x2'] as const;
export type SheetLayout = (typeof SHEET_LAYOUTS)[number];

export function labelsPerSheet(layout: SheetLayout): number {
  return LABELS_PER_SHEET[layout];
}

/** The fewest sheets `labels` labels can take in `layout`: every sheet full but the last. */
export function fewestSheets(layout: SheetLayout, labels: number): number {
  return Math.ceil(labels / labelsPerSheet(layout));
}

/** Pages of one PDF file. */
export async function pdfPages(file: string): Promise<number> {
  return (await PDFDocument.load(await fs.readFile(file))).getPageCount();
}

/** Pages of every job a queue received, summed. */
export async function pagesOf(files: readonly string[]): Promise<number> {
  let pages = 0;
  for (const file of files) pages += await pdfPages(file);
  return pages;
}
