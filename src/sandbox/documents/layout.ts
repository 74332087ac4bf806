import { PageSizes } from 'pdf-lib';
import type { LabelLayout } from './types';
import { DocumentRenderError } from './errors';

/** The natural size of a label: 4 x 6 in, portrait. */
export const LABEL_WIDTH = 288;
export const LABEL_HEIGHT = 432;

export interface LabelSlot {
  /** Lower-left corner of the label on the page, in points. */
  readonly x: number;
  readonly y: number;
  /** Uniform scale applied to the 288 x 432 label so it fits its cell. */
  readonly scale: number;
}

export interface SheetGeometry {
  readonly pageSize: readonly [number, number];
  /** Slots in reading order: left to right, then top to bottom. */
  readonly slots: readonly LabelSlot[];
}

/**
 * `CxR` reads as columns x rows: `1x2` stacks two labels (top and bottom halves of A4),
 * `3x1` puts three side by side, `2x2` uses the quarters. The spec only names the count a
 * page; the order is the sandbox's choice (src/sandbox/README.md).
 */
const GRIDS: Readonly<Record<LabelLayout, { readonly page: readonly [number, number]; readonly columns: number; readonly rows: number }>> =
  {
    printer: { page: [LABEL_WIDTH, LABEL_HEIGHT], columns: 1, rows: 1 },
    a4: { page: PageSizes.A4, columns: 1, rows: 1 },
    '1x2': { page: PageSizes.A4, columns: 1, rows: 2 },
    '3x1': { page: PageSizes.A4, columns: 3, rows: 1 },
    '2x2': { page: PageSizes.A4, columns: 2, rows: 2 },
  };

const cache = new Map<LabelLayout, SheetGeometry>();

export function sheetGeometry(layout: LabelLayout): SheetGeometry {
  const cached = cache.get(layout);
  if (cached) return cached;
  const grid = GRIDS[layout];
  if (!grid) {
    throw new DocumentRenderError('SANDBOX_DOCUMENT_LAYOUT', `Unknown label_layout "${String(layout)}": use printer, a4, 1x2, 3x1 or 2x2.`);
  }
  const [pageWidth, pageHeight] = grid.page;
  const cellWidth = pageWidth / grid.columns;
  const cellHeight = pageHeight / grid.rows;
  // Never enlarge: on A4 a label keeps its true 4x6 size when it fits, so it scans the same.
  const scale = Math.min(1, cellWidth / LABEL_WIDTH, cellHeight / LABEL_HEIGHT);
  const slots: LabelSlot[] = [];
  for (let row = 0; row < grid.rows; row += 1) {
    for (let column = 0; column < grid.columns; column += 1) {
      const cellX = column * cellWidth;
      const cellTop = pageHeight - row * cellHeight;
      slots.push({
        x: cellX + (cellWidth - LABEL_WIDTH * scale) / 2,
        y: cellTop - cellHeight + (cellHeight - LABEL_HEIGHT * scale) / 2,
        scale,
      });
    }
  }
  const geometry: SheetGeometry = { pageSize: [pageWidth, pageHeight], slots };
  cache.set(layout, geometry);
  return geometry;
}
