/** Rows of an end-of-day report for tests of its views, its CSV and its terminal lines. */
import type { EndOfDayRow } from '../../src/shared/domain';

/** A booking of ORDER-1 (shp_1, PostNord) this station has not printed; pass what differs. */
export const endOfDayRow = (over: Partial<EndOfDayRow> = {}): EndOfDayRow => ({
  shipmentId: 'shp_1',
  reference: 'ORDER-1',
  carrier: 'PostNord',
  trackingId: '0037',
  bookedAt: null,
  state: 'not_printed',
  detail: null,
  printedAt: null,
  printer: null,
  seenBy: 'both',
  manifest: false,
  ...over,
});
