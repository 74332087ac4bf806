/**
 * What a raw ZPL printer is sent for one spool request, the same for every raw kind (`zpl://`,
 * `zpl-cups:`, `zpl-windows:`): each PDF page as a label, or for the test page the ZPL test
 * label with the ruler and the printer's identity.
 */
import { labelPdfPrintError } from '../label-pdf-limits';
import type { SpoolRequest } from '../target';
import type { ZplDpi } from './zpl-raster';
import { pdfToZplOffThread } from './zpl-raster-pool';
import type { ZplIdentity } from './zpl-status';
import { zplTestLabel } from './zpl-test-label';

/** The ledger's document type of test pages (src/main/agent/test-page.ts, TEST_PAGE_TYPE). */
const TEST_PAGE_TYPE = 'testpage';

export interface ZplLabelContext {
  readonly dpi: ZplDpi;
  readonly uri: string;
  readonly identity: ZplIdentity | null;
  /** @default new Date() */
  readonly at?: Date;
}

export async function labelsFor(request: SpoolRequest, context: ZplLabelContext): Promise<Buffer> {
  if (request.documentType === TEST_PAGE_TYPE) {
    const label = zplTestLabel({ uri: context.uri, dpi: context.dpi, identity: context.identity, at: context.at ?? new Date() });
    return Buffer.from(label.repeat(Math.max(1, request.copies)), 'utf8');
  }
  if (!request.pdf) throw new Error('a raw ZPL printer needs the PDF');
  // A PDF over the label limits (label-pdf-limits.ts) fails the job with its reason, before rendering.
  const labels = await pdfToZplOffThread(request.pdf, { dpi: context.dpi, copies: request.copies }).catch((error: unknown) => {
    throw labelPdfPrintError(error, context.uri);
  });
  return Buffer.from(labels.map((label) => label.zpl).join(''), 'latin1');
}
