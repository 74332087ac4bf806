import type { ServiceClient } from './client';

/**
 * Page size of the one list call that checks a batch (GET /shipments?status=CANCELED). In the
 * sandbox the list is newest change first (a cancel moves a shipment to the front), and the
 * members were known booked at `since` (their PDF was rendered, which the service refuses for
 * a canceled shipment): a member canceled after that is among the cancels changed since.
 */
const CANCELED_PAGE = 100;

/**
 * Which of these shipments the service lists as CANCELED now (PdfFetcher.canceledAmong):
 * GET /shipments/{id} for one; one GET /shipments?status=CANCELED for several, whatever their
 * number. The page is trusted when it holds every cancel, or when it is newest change first
 * and reaches back past `since`; otherwise (a service whose order is not shown, more than a
 * page canceled while the batch waited) the members not on it are asked about one by one.
 */
export async function canceledAmong(
  client: Pick<ServiceClient, 'getShipment' | 'listShipmentsPage'>,
  shipmentIds: readonly string[],
  since: Date,
): Promise<{ canceled: string[]; requestId: string | null }> {
  const isCanceled = (status: string | null | undefined): boolean => (status ?? '').toUpperCase() === 'CANCELED';
  if (shipmentIds.length === 1) {
    const shipment = await client.getShipment(shipmentIds[0]!);
    return { canceled: isCanceled(shipment.status) ? [shipment.id] : [], requestId: null };
  }
  const page = await client.listShipmentsPage({ status: 'CANCELED', limit: CANCELED_PAGE });
  const wanted = new Set(shipmentIds.map((id) => id.toLowerCase()));
  const canceled = page.shipments.filter((s) => isCanceled(s.status) && wanted.has(s.id.toLowerCase())).map((s) => s.id);
  const complete = page.total === null ? page.shipments.length < CANCELED_PAGE : page.total <= page.shipments.length;
  if (complete || reachesBack(page.shipments, since.getTime())) return { canceled, requestId: page.requestId };
  const found = new Set(canceled.map((id) => id.toLowerCase()));
  for (const id of shipmentIds) {
    if (found.has(id.toLowerCase())) continue;
    if (isCanceled((await client.getShipment(id)).status)) canceled.push(id);
  }
  return { canceled, requestId: page.requestId };
}

/** Every row carries updated_at, in non-increasing order, and the last one changed before `sinceMs`. */
function reachesBack(rows: readonly { updated_at?: string | null }[], sinceMs: number): boolean {
  let previous = Infinity;
  for (const row of rows) {
    const t = Date.parse(row.updated_at ?? '');
    if (!Number.isFinite(t) || t > previous) return false;
    previous = t;
  }
  return previous < sinceMs;
}
