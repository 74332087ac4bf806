/** Creating and updating shipments: defaults on create, replace/keep rules on update. */
import { FAVORITE_ADDRESSES, FAVORITE_PACKAGES } from './catalog';
import { HttpError } from './http';
import type { SandboxState } from './state';
import { isBooked, type StoredShipment } from './store';
import { alwaysErrors, bookableErrors, hasErrors, type Party, type ShipmentBody } from './validation';

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'object' && Object.values(v as object).every(isEmpty)) || v === '';

/** Spec, Shipment.from: address book entry when a default sender is set, else team home + API user. */
function defaultSender(state: SandboxState): Party {
  const team = state.team;
  const entry = FAVORITE_ADDRESSES.find((e) => e.id === state.defaults.senderAddress);
  if (entry) {
    return {
      name: entry.name ?? team.name,
      address: { ...entry.address },
      contact: entry.contact ? { ...entry.contact } : { ...team.apiUser },
      address_book_id: entry.id,
      eori_number: entry.eori_number,
      vat_number: entry.vat_number,
      voec_number: entry.voec_number,
    };
  }
  return {
    name: team.name,
    address: { ...team.homeAddress },
    contact: { ...team.apiUser },
    eori_number: team.eori_number,
    vat_number: team.vat_number,
    voec_number: team.voec_number,
  };
}

function defaultReceiver(state: SandboxState): Party | null {
  const entry = FAVORITE_ADDRESSES.find((e) => e.id === state.defaults.receiverAddress);
  if (!entry) return null;
  return {
    name: entry.name ?? entry.contact?.name ?? null,
    address: { ...entry.address },
    contact: entry.contact ? { ...entry.contact } : null,
    address_book_id: entry.id,
  };
}

function defaultPackages(state: SandboxState): ShipmentBody['packages'] {
  const p = FAVORITE_PACKAGES.find((e) => e.id === state.defaults.package);
  if (!p) return undefined;
  return [
    {
      depth_cm: p.depth_cm,
      height_cm: p.height_cm,
      width_cm: p.width_cm,
      weight_kg: p.weight_kg,
      quantity: 1,
      description: p.description,
      type: p.type,
      dangerous_goods_type: p.dangerous_goods_type,
      favorite_package_id: p.id,
    },
  ];
}

function check(body: ShipmentBody, bookable: boolean): void {
  const errors = bookable ? bookableErrors(body) : alwaysErrors(body);
  if (hasErrors(errors)) {
    throw new HttpError(422, 'validation_failed', 'The shipment is not valid: see errors for each field.', errors);
  }
}

export function createShipment(state: SandboxState, input: ShipmentBody, id = state.newId()): StoredShipment {
  const body: ShipmentBody = { ...input };
  if (isEmpty(body.from)) body.from = defaultSender(state);
  if (isEmpty(body.to)) body.to = defaultReceiver(state) ?? undefined;
  if (!body.packages || body.packages.length === 0) body.packages = defaultPackages(state) ?? body.packages;
  if (isEmpty(body.third_party_customs_payer)) delete body.third_party_customs_payer;
  check(body, body.enable_bookable_validation === true);
  return insertPending(state, id, body);
}

/** Stores a new, not yet booked shipment as given (no defaults, no checks) and returns it. */
export function insertPending(state: SandboxState, id: string, body: ShipmentBody): StoredShipment {
  const now = state.nowIso();
  const shipment: StoredShipment = {
    id,
    body,
    status: 'PENDING',
    createdAt: now,
    updatedAt: now,
    bookedAt: null,
    bookedAtMs: null,
    booking: null,
    tracking: [],
    carrierEventSeen: false,
    uploads: new Set(),
    seq: 0,
  };
  state.store.insert(shipment);
  return shipment;
}

/** Spec, Package rules 2-3 and ThirdPartyCustomsPayer rule 4. */
export function mergeUpdate(stored: ShipmentBody, update: ShipmentBody): ShipmentBody {
  const next: ShipmentBody = { ...stored };
  for (const [key, value] of Object.entries(update) as Array<[keyof ShipmentBody, unknown]>) {
    if (value === undefined) continue;
    if (key === 'system_version') continue; // set on creation only
    if (key === 'packages') {
      if (Array.isArray(value) && value.length > 0) next.packages = update.packages;
      continue;
    }
    if (key === 'third_party_customs_payer') {
      if (isEmpty(value)) delete next.third_party_customs_payer;
      else next.third_party_customs_payer = update.third_party_customs_payer;
      continue;
    }
    if ((key === 'from' || key === 'to') && value === null) continue; // sender and receiver cannot be removed
    (next as Record<string, unknown>)[key] = value;
  }
  return next;
}

export function updateShipment(state: SandboxState, shipment: StoredShipment, update: ShipmentBody): void {
  if (isBooked(shipment)) {
    throw new HttpError(409, 'shipment_booked', 'A booked shipment cannot be changed. Cancel it and create a new one.');
  }
  if (shipment.status === 'CANCELED') {
    throw new HttpError(409, 'shipment_canceled', 'A canceled shipment cannot be changed. Create a new one.');
  }
  const next = mergeUpdate(shipment.body, update);
  // "Validates that the shipment is still bookable": bookability is enforced once the
  // caller opted in or the stored shipment was already bookable.
  const wasBookable = !hasErrors(bookableErrors(shipment.body));
  check(next, wasBookable || next.enable_bookable_validation === true);
  const previousReference = shipment.body.reference_id;
  shipment.body = next;
  state.store.touch(shipment, state.nowIso(), previousReference, shipment.status);
}
