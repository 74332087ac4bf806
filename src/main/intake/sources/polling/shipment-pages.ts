import { changeTime } from '../../booked-shipment';
import { errorText } from '../../error-text';
import type { IntakeLogger, ShipmentRecord, ShipmentSourcePort } from '../../ports';
import { toEpochNanos } from '../../timestamps';

/*
 * Reading GET /shipments for the poller. The spec says nothing about paging or order, so
 * this is where the poller copes with services that differ there (docs/OPERATIONS.md
 * "Poller"): limit/offset rejected with 400 (plain GET from then on), limit ignored (one
 * page holds everything), offset ignored (the same page again: stop), and an early stop at
 * the first page older than the mark only while the rows prove a newest-changed-first
 * order. Kept apart from the Poller, which decides when to poll and what a poll submits.
 */

export interface ShipmentPagesOptions {
  readonly shipments: ShipmentSourcePort;
  /** Page size asked for. */
  readonly pageSize: number;
  /**
   * Size of a poll's first page while the service lists newest-changed first: most polls
   * find nothing or a booking or two, so a few rows answer "anything new?" in one small
   * request; the next pages (only when the first holds nothing older than the mark) are
   * `pageSize`. A service that does not list in that order is read with `pageSize` from the start.
   */
  readonly firstPageSize?: number;
  /** Safety stop for a service that pages without end. */
  readonly maxPages: number;
  readonly logger: IntakeLogger;
}

export interface Listing {
  readonly read: Map<string, { shipment: ShipmentRecord; changed: bigint }>;
  readonly pagesRead: number;
  /** Every row carried updated_at and none was newer than the one before. */
  readonly ordered: boolean;
  readonly undated: number;
}

export class ShipmentPages {
  private pagingRejected = false;
  private warnedUnordered = false;
  private seenUnordered = false;

  constructor(private readonly options: ShipmentPagesOptions) {}

  /**
   * Reads GET /shipments. A service that answers limit/offset with 400 (the spec shows
   * neither) is read with a plain GET from then on, for this poller's lifetime.
   */
  async list(windowStart: bigint): Promise<Listing> {
    try {
      return await this.listPages(windowStart);
    } catch (error) {
      if (this.pagingRejected || !isBadRequest(error)) throw error;
      this.pagingRejected = true;
      this.options.logger.warn(
        `poller: the service rejects limit/offset on GET /shipments (${errorText(error)}); from now on each poll reads the whole list in one request`,
      );
      return this.listPages(windowStart);
    }
  }

  /** Says what a listing left out (undated rows) and, once, that this service's order makes every poll read everything. */
  warnAbout({ read, pagesRead, ordered, undated }: Listing): void {
    const logger = this.options.logger;
    if (undated > 0)
      logger.warn(
        `poller: ${undated} shipment(s) carry no timestamp the poller can follow (updated_at, tracking_status, booked_at, created_at); they are left to webhooks`,
      );
    if (!ordered && read.size > 0 && !this.warnedUnordered) {
      this.warnedUnordered = true;
      logger.warn(
        `poller: this service does not list shipments newest-changed first with updated_at, so every poll reads the whole list (${pagesRead} request(s) now); the cost of polling grows with the team's history. Turn on webhooks and poll rarely.`,
      );
    }
  }

  private async listPages(windowStart: bigint): Promise<Listing> {
    const first = this.seenUnordered
      ? this.options.pageSize
      : Math.min(this.options.pageSize, this.options.firstPageSize ?? this.options.pageSize);
    const read = new Map<string, { shipment: ShipmentRecord; changed: bigint }>();
    let pagesRead = 0;
    // The early stop is trusted only while the rows prove the order: each carries
    // updated_at and none is newer than the row before. The spec promises no order; a
    // list by creation time would hide a booking of an older shipment beyond page 1.
    // Once a service has listed rows out of order it is not trusted again: a first page
    // that happens to look ordered proves nothing about the next one.
    let ordered = !this.seenUnordered;
    let previous: bigint | null = null;
    let undated = 0;
    for (let offset = 0; ;) {
      const limit = offset === 0 ? first : this.options.pageSize;
      const page = await this.options.shipments.listShipments(this.pagingRejected ? {} : { limit, offset });
      pagesRead++;
      let fresh = 0;
      for (const shipment of page) {
        const updated = shipment.updated_at ? toEpochNanos(shipment.updated_at) : null;
        if (updated === null || (previous !== null && updated > previous)) ordered = false;
        if (updated !== null) previous = updated;
        if (read.has(shipment.id)) continue;
        fresh++;
        const text = changeTime(shipment);
        const changed = text === null ? null : toEpochNanos(text);
        if (changed === null) {
          undated++;
          continue;
        }
        read.set(shipment.id, { shipment, changed });
      }
      if (this.pagingRejected) break; // no paging parameters: that was everything
      if (page.length === 0 || page.length < limit) break; // the last page
      if (page.length > limit) break; // limit ignored: that was everything
      if (fresh === 0) break; // offset ignored: the same page again
      if (ordered && previous !== null && previous < windowStart) break; // reached what is known
      if (pagesRead >= this.options.maxPages) {
        this.options.logger.warn(
          `poller: stopped after ${pagesRead} pages (maxPages); the service may not honour limit/offset, and later pages were not read`,
        );
        break;
      }
      offset += page.length;
    }
    if (!ordered) this.seenUnordered = true;
    return { read, pagesRead, ordered, undated };
  }
}

/** A 400 from the service (ApiError's `status`, or its code). */
function isBadRequest(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  return ('status' in error && error.status === 400) || ('code' in error && error.code === 'SERVICE_BAD_REQUEST');
}
