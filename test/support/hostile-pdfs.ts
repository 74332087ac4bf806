/**
 * PDFs a hostile or broken service could answer a print with: thousands of pages, a page
 * metres long, more bytes than a print may be, a page tree that loops. Each is a valid PDF
 * (pdf-lib reads it) unless its name says otherwise.
 */
import { PDFArray, PDFDocument, PDFName } from 'pdf-lib';

/** `pages` 4x6 in pages, each with a line of text, so it is a real document. */
export async function manyPagesPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([288, 432]).drawText(`page ${i + 1}`, { x: 20, y: 400, size: 12 });
  return doc.save();
}

/** One page `heightIn` inches long and 4 in wide. */
export async function longPagePdf(heightIn: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([288, heightIn * 72]).drawText('a very long page', { x: 20, y: 40, size: 12 });
  return doc.save();
}

/** A one-page 4x6 PDF padded after its end to `bytes` bytes (readers ignore what follows %%EOF). */
export async function paddedPdf(bytes: number): Promise<Uint8Array> {
  const small = await manyPagesPdf(1);
  const padded = new Uint8Array(bytes).fill(0x20);
  padded.set(small, 0);
  return padded;
}

/** A one-page PDF whose page tree lists itself among its kids. */
export async function loopingPagesPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([288, 432]);
  const pagesRef = doc.catalog.get(PDFName.of('Pages'));
  const kids = doc.catalog.Pages().get(PDFName.of('Kids')) as PDFArray;
  kids.push(pagesRef!);
  return doc.save();
}
