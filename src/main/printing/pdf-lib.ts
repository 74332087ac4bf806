/**
 * pdf-lib, loaded once, on first use: an agent that never checks or makes a PDF (an idle
 * station) never holds it. Used by the PDF limits (every fetched PDF) and the test page.
 */
type PdfLib = typeof import('pdf-lib');

let pdfLib: Promise<PdfLib> | null = null;

export function loadPdfLib(): Promise<PdfLib> {
  // A CommonJS package: Node hands over its exports by name, the bundled agent's split chunk
  // (scripts/bundle-agent.ts) only as `default`.
  pdfLib ??= import('pdf-lib').then((loaded) => (loaded.PDFDocument ? loaded : (loaded as unknown as { default: PdfLib }).default));
  return pdfLib;
}
