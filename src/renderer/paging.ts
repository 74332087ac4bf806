/** One page of a list: which items show and what the pager says. */
export interface Page<T> {
  readonly items: readonly T[];
  /** Zero-based, clamped to the pages there are. */
  readonly index: number;
  readonly pages: number;
  readonly total: number;
  /** One-based position of the first and last item shown (0 and 0 when empty). */
  readonly from: number;
  readonly to: number;
}

export function pageOf<T>(all: readonly T[], index: number, size: number): Page<T> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`page size must be a positive integer, got ${size}`);
  const pages = Math.max(1, Math.ceil(all.length / size));
  const clamped = Math.min(Math.max(0, Math.trunc(index) || 0), pages - 1);
  const start = clamped * size;
  const items = all.slice(start, start + size);
  return { items, index: clamped, pages, total: all.length, from: items.length ? start + 1 : 0, to: start + items.length };
}

/** "Jobs 26–50 of 80" */
export function pageWords(page: Page<unknown>, noun: string): string {
  if (page.total === 0) return `No ${noun}`;
  return `${noun[0]!.toUpperCase()}${noun.slice(1)} ${page.from}–${page.to} of ${page.total}`;
}
