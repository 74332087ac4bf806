/**
 * Resolves a scan to a shipment. The service filters shipments by `reference_id` only,
 * so tracking numbers resolve through the ledger's local index of shipments this
 * station has seen (booking webhooks and polls record them).
 *
 * Order: a UUID is tried as a shipment id; then every candidate against the local
 * index (shipment ids, references, every parcel's tracking number); then every candidate
 * as a reference; then the latest booked shipments whose parcel numbers are not yet
 * known (a webhook booking carries none) are fetched and indexed. The first hit wins.
 */
import type { LookupResult } from '../../shared/agent-api';
import type { TrackingEventView } from '../../shared/domain';
import { API_ERROR_CODES, ApiError } from '../api/errors';
import { parcelTrackingIds } from '../ledger/parcel-tracking-ids';
import { layoutVariants, normalizeScan, type LayoutMismatch } from './normalize-scan';
import { mergeTracking, toShipmentView, toTrackingEventView, type ServiceShipment, type ServiceTrackingEvent } from './shipment-view';

/** The ports lookup needs: the API client's calls and the ledger's index. */
export interface LookupDeps {
  /** The ledger's index (reference, shipment id, tracking id → shipment id), or null. */
  findShipmentIdByScan(value: string): string | null;
  getShipment(id: string): Promise<ServiceShipment>;
  listShipments(query: { reference_id: string }): Promise<readonly ServiceShipment[]>;
  tracking(id: string): Promise<readonly ServiceTrackingEvent[]>;
  /** Tracking events received by webhook and stored locally. */
  localTracking(id: string): readonly TrackingEventView[];
  /** The latest booked shipments indexed without their parcel numbers (at most `limit`). */
  shipmentsWithoutParcels?(limit: number): readonly string[];
  /** Indexes a fetched record (with its parcels' tracking numbers). */
  indexShipment?(shipment: ServiceShipment): void;
}

/** At most this many reference queries per scan: each is a round trip to the service. */
const MAX_REFERENCE_QUERIES = 3;
/** At most this many shipments fetched per missed scan to learn their parcel numbers. */
const MAX_PARCEL_FETCHES = 10;
const NOISE = /[\s\p{Cc}\p{Cf}]/gu;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function lookupScan(scan: string, deps: LookupDeps): Promise<LookupResult> {
  const scanned = scan.replace(NOISE, '').slice(0, 64);
  const reading = normalizeScan(scan);
  if (!reading.ok) return { kind: 'not_found', scanned, normalized: '', message: reading.message };

  const found = (matchedBy: 'reference' | 'shipment_id' | 'tracking_id', shipment: ServiceShipment, layoutMismatch?: LayoutMismatch) =>
    withTracking(shipment, deps).then((view): LookupResult => ({
      kind: 'found',
      scanned,
      normalized: reading.value,
      matchedBy,
      shipment: view,
      ...(layoutMismatch ? { layoutMismatch } : {}),
    }));

  if (reading.kind === 'uuid') {
    const shipment = await getOrNull(deps, reading.value);
    if (shipment) return found('shipment_id', shipment);
  }

  for (const candidate of reading.candidates) {
    const id = deps.findShipmentIdByScan(candidate);
    if (!id) continue;
    const shipment = await getOrNull(deps, id);
    if (shipment) return found(matchedByOf(shipment, candidate), shipment);
  }

  for (const candidate of reading.candidates.slice(0, MAX_REFERENCE_QUERIES)) {
    const shipments = await deps.listShipments({ reference_id: candidate });
    // Trust the filter only as far as the records agree: a service that ignored it
    // must not make an unrelated parcel look like a match.
    const match = shipments.find((s) => sameText(s.reference_id, candidate));
    if (match) return found('reference', match);
  }

  const parcelMatch = await findByParcelNumber(reading.candidates, deps);
  if (parcelMatch) return found('tracking_id', parcelMatch);

  // A scanner in another keyboard layout than the computer's moved `-` and `/`: the value the
  // barcode holds, tried as an id, in the local index and as one reference each.
  for (const variant of layoutVariants(reading.value)) {
    const byId = UUID.test(variant.value) ? await getOrNull(deps, variant.value.toLowerCase()) : null;
    if (byId) return found('shipment_id', byId, variant.mismatch);
    const id = deps.findShipmentIdByScan(variant.value);
    const indexed = id ? await getOrNull(deps, id) : null;
    if (indexed) return found(matchedByOf(indexed, variant.value), indexed, variant.mismatch);
    const shipments = await deps.listShipments({ reference_id: variant.value });
    const match = shipments.find((s) => sameText(s.reference_id, variant.value));
    if (match) return found('reference', match, variant.mismatch);
  }

  return {
    kind: 'not_found',
    scanned,
    normalized: reading.value,
    message: `Nothing found for “${scanned}”: check the barcode or search history.`,
  };
}

/** Fetches recent bookings whose parcel numbers are unknown, indexes them, and matches the scan. */
async function findByParcelNumber(candidates: readonly string[], deps: LookupDeps): Promise<ServiceShipment | null> {
  if (!deps.shipmentsWithoutParcels) return null;
  for (const id of deps.shipmentsWithoutParcels(MAX_PARCEL_FETCHES)) {
    const shipment = await getOrNull(deps, id);
    if (!shipment) continue;
    deps.indexShipment?.(shipment);
    const numbers = parcelTrackingIds(shipment) ?? [];
    if (candidates.some((c) => numbers.some((n) => sameText(n, c)))) return shipment;
  }
  return null;
}

async function getOrNull(deps: LookupDeps, id: string): Promise<ServiceShipment | null> {
  try {
    return await deps.getShipment(id);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** 404, or 400 for an id the service calls malformed: either way the scan matched nothing. */
function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.code === API_ERROR_CODES.NOT_FOUND || error.code === API_ERROR_CODES.BAD_REQUEST);
}

function sameText(a: string | null | undefined, b: string): boolean {
  return typeof a === 'string' && a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

function matchedByOf(shipment: ServiceShipment, candidate: string): 'reference' | 'shipment_id' | 'tracking_id' {
  if (sameText(shipment.id, candidate)) return 'shipment_id';
  if (sameText(shipment.reference_id, candidate)) return 'reference';
  return 'tracking_id';
}

/**
 * The timeline is the service's events, the shipment's latest event and the webhook
 * events stored locally. When the tracking call fails the shipment is still shown with
 * what is known locally: a packer at the bench needs the parcel, not a stack trace.
 */
async function withTracking(shipment: ServiceShipment, deps: LookupDeps) {
  const remote = await deps.tracking(shipment.id).catch(() => [] as readonly ServiceTrackingEvent[]);
  const mapped = [...remote, ...(shipment.tracking_status ? [shipment.tracking_status] : [])]
    .map(toTrackingEventView)
    .filter((e): e is TrackingEventView => e !== null);
  return toShipmentView(shipment, mergeTracking(mapped, deps.localTracking(shipment.id)));
}
