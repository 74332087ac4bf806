/**
 * How large a PDF from the service may be before it goes to any printer. The service is
 * outside the process: a PDF of thousands of pages, with a page metres long, or of hundreds
 * of megabytes is not a label or a shipping document, and a spooler or printer handed one
 * prints paper by the metre or stalls for everyone behind it. So every PDF is measured
 * before it is spooled (pdf-limits-fetcher.ts, where the job engine fetches it), in this
 * order: its size in bytes (nothing else is read when it is too large), then its page tree
 * (counted without rendering, stopping at the first page over the limit), then each page's
 * size. A refusal is the job's failure: not retried, the reason on the job, nothing printed.
 *
 * The raw ZPL kinds check again, tighter, before they render (label-pdf-limits.ts).
 */
import type { LabelLayout } from '../../shared/domain';
import { LABEL_PDF_LIMITS } from './label-pdf-limits';
import { agentMessage, type AgentMessage } from '../../shared/agent-messages';
import { PRINT_ERROR_CODES, PrintError } from './errors';
import { loadPdfLib } from './pdf-lib';

export interface PdfLimits {
  /** The largest PDF accepted, in bytes. */
  readonly maxBytes: number;
  /** Pages in one print request (a job, or a batch of up to 25 shipments). */
  readonly maxPages: number;
  /** The largest page, in inches, either way round. */
  readonly maxPageWidthIn: number;
  readonly maxPageHeightIn: number;
}

/** 32 MiB: a batch of 25 carrier labels is a few MB; the service client's own cap is 64 MiB. */
const MAX_PDF_BYTES = 32 * 1024 * 1024;

/**
 * A thousand pages: a batch of 25 shipments of 40 parcels each, or 25 customs invoices of
 * 40 pages. The service renders one label per parcel, so a label PDF is not bounded by the
 * shipment count alone.
 */
const MAX_PDF_PAGES = 1000;

/**
 * Limits per label layout. `printer` is a label page (the label limit: a 4x6 label is well
 * inside, and so are the A4 and Letter pages of documents routed to a label printer); the
 * sheet layouts are A4 or Letter pages, so their limit admits Legal (8.5 x 14 in) as well.
 */
export const PDF_LIMITS: Readonly<Record<LabelLayout, PdfLimits>> = {
  printer: {
    maxBytes: MAX_PDF_BYTES,
    maxPages: MAX_PDF_PAGES,
    maxPageWidthIn: LABEL_PDF_LIMITS.maxPageWidthIn,
    maxPageHeightIn: LABEL_PDF_LIMITS.maxPageHeightIn,
  },
  a4: sheetLimits(),
  '1x2': sheetLimits(),
  '3x1': sheetLimits(),
  '2x2': sheetLimits(),
};

function sheetLimits(): PdfLimits {
  return { maxBytes: MAX_PDF_BYTES, maxPages: MAX_PDF_PAGES, maxPageWidthIn: 10, maxPageHeightIn: 14 };
}

/** A PDF that passed: its size and page count. */
export interface PdfMeasure {
  readonly bytes: number;
  readonly pages: number;
}

const POINTS_PER_INCH = 72;
/** PDFs larger than this are parsed in slices, yielding between them. */
const YIELD_ABOVE_BYTES = 256 * 1024;
const MIB = 1024 * 1024;

/** What a PDF is checked as. */
export interface PdfCheckContext {
  readonly layout: LabelLayout;
  /** The service's request id of the PDF, kept on the job. @default null */
  readonly requestId?: string | null;
}

/**
 * Refuses a PDF over its layout's limits with a PrintError (PRINT_UNSUPPORTED: not retried)
 * that says what, the limit, and what to do. Reads the page tree with pdf-lib (no page is
 * rendered); a PDF whose pages cannot be read is refused as well, since nothing says what
 * it would print.
 */
export async function checkPdfLimits(pdf: Uint8Array, context: PdfCheckContext): Promise<PdfMeasure> {
  const limits = limitsOf(context.layout);
  const refuse = (message: AgentMessage) => refusal(message, context);
  if (pdf.byteLength > limits.maxBytes) {
    throw refuse(agentMessage('printer.pdfTooLarge', { mb: megabytes(pdf.byteLength), limitMb: limits.maxBytes / MIB }));
  }
  let pages: PageBox[];
  try {
    pages = await readPageBoxes(pdf, limits.maxPages);
  } catch (error) {
    throw refuse(agentMessage('printer.pdfUnreadable', { detail: error instanceof Error ? error.message : String(error) }));
  }
  if (pages.length > limits.maxPages) throw refuse(agentMessage('printer.pdfTooManyPages', { limit: limits.maxPages }));
  const { maxPageWidthIn: maxW, maxPageHeightIn: maxH } = limits;
  for (const [index, page] of pages.entries()) {
    const width = page.widthPt / POINTS_PER_INCH;
    const height = page.heightPt / POINTS_PER_INCH;
    const fits = (width <= maxW && height <= maxH) || (width <= maxH && height <= maxW);
    if (!fits || !Number.isFinite(width) || !Number.isFinite(height)) {
      throw refuse(
        agentMessage('printer.pdfPageTooLarge', {
          page: index + 1,
          width: width.toFixed(1),
          height: height.toFixed(1),
          maxWidth: maxW,
          maxHeight: maxH,
        }),
      );
    }
  }
  return { bytes: pdf.byteLength, pages: pages.length };
}

/** What is known of a PDF answer the service client stopped reading at its cap (api/errors.ts ResponseSize). */
export interface OversizedAnswer {
  /** Its Content-Length, when the service sent one. */
  readonly declaredBytes: number | null;
  /** The most the client reads of an answer; null when unknown. */
  readonly limitBytes: number | null;
}

/**
 * The refusal of a PDF too large for the service client to read whole (over its cap, 64 MiB
 * unless set smaller): the same refusal as a PDF over the byte limit, the limit being the
 * smaller of the two. Its size is the one the answer declared, or "more than" the cap where
 * it declared none (the client never read it all).
 */
export function oversizedPdfRefusal(answer: OversizedAnswer, context: PdfCheckContext): PrintError {
  const limitBytes = Math.min(limitsOf(context.layout).maxBytes, answer.limitBytes ?? Infinity);
  const { declaredBytes } = answer;
  const mb =
    declaredBytes !== null && declaredBytes > limitBytes ? megabytes(declaredBytes) : `>${megabytes(answer.limitBytes ?? limitBytes)}`;
  return refusal(agentMessage('printer.pdfTooLarge', { mb, limitMb: limitBytes / MIB }), context);
}

function limitsOf(layout: LabelLayout): PdfLimits {
  return PDF_LIMITS[layout] ?? PDF_LIMITS.a4;
}

/**
 * A PDF refused: not retried (PRINT_UNSUPPORTED), with its request id. In the station's words
 * (the UI shows them in its language); the English ends the same way for each.
 */
function refusal(message: AgentMessage, context: PdfCheckContext): PrintError {
  return new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, message, { requestId: context.requestId ?? null, retryable: false });
}

/** `40.0`: megabytes (MiB) to one decimal, as the refusal says them. */
function megabytes(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}

interface PageBox {
  readonly widthPt: number;
  readonly heightPt: number;
}

/** A page tree deeper than this is not a document's (a real one is a few levels deep). */
const MAX_TREE_DEPTH = 64;

/**
 * The pages' sizes (MediaBox, inherited down the tree, times UserUnit), in order, walking
 * the page tree without recursion and stopping after `maxPages + 1` pages: a hostile tree
 * (a cycle, a million kids) costs no more than the limit.
 */
async function readPageBoxes(pdf: Uint8Array, maxPages: number): Promise<PageBox[]> {
  const lib = await loadPdfLib();
  const { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef } = lib;
  const document = await lib.PDFDocument.load(pdf, {
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: false,
    // A large PDF yields to the event loop between object batches (webhooks are answered
    // meanwhile); a label's few KB parse in a millisecond or two at once: a yield per job held
    // its fetch slot for an event-loop turn and cost a burst a third of its speed.
    parseSpeed: pdf.byteLength > YIELD_ABOVE_BYTES ? 500 : Infinity,
  });
  const context = document.context;
  const lookup = (value: unknown): unknown => (value instanceof PDFRef ? context.lookup(value) : value);
  const number = (value: unknown): number | null => {
    const resolved = lookup(value);
    return resolved instanceof PDFNumber ? resolved.asNumber() : null;
  };
  const mediaBoxOf = (value: unknown): PageBox | null => {
    const box = lookup(value);
    if (!(box instanceof PDFArray) || box.size() !== 4) return null;
    const corners = [0, 1, 2, 3].map((i) => number(box.get(i)));
    if (corners.some((c) => c === null)) return null;
    const [x0, y0, x1, y1] = corners as [number, number, number, number];
    return { widthPt: Math.abs(x1 - x0), heightPt: Math.abs(y1 - y0) };
  };

  const root = lookup(document.catalog.get(PDFName.of('Pages')));
  if (!(root instanceof PDFDict)) throw new Error('it has no page tree');
  const pages: PageBox[] = [];
  const seen = new Set<unknown>();
  type Frame = { node: import('pdf-lib').PDFDict; box: PageBox | null; unit: number; depth: number };
  const stack: Frame[] = [{ node: root, box: null, unit: 1, depth: 0 }];
  while (stack.length > 0 && pages.length <= maxPages) {
    const { node, box: inherited, unit: inheritedUnit, depth } = stack.pop()!;
    if (seen.has(node)) throw new Error('its page tree loops');
    seen.add(node);
    const box = mediaBoxOf(node.get(PDFName.of('MediaBox'))) ?? inherited;
    const unit = number(node.get(PDFName.of('UserUnit'))) ?? inheritedUnit;
    const kids = lookup(node.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) {
      if (depth >= MAX_TREE_DEPTH) throw new Error('its page tree is too deep');
      // Pushed last to first, so pages come off the stack in document order.
      for (let i = kids.size() - 1; i >= 0; i--) {
        const kid = lookup(kids.get(i));
        if (kid instanceof PDFDict) stack.push({ node: kid, box, unit, depth: depth + 1 });
      }
      continue;
    }
    if (!box) throw new Error(`page ${pages.length + 1} has no size`);
    pages.push({ widthPt: box.widthPt * unit, heightPt: box.heightPt * unit });
  }
  return pages;
}
