/** Bulk history for benchmarks: booked shipments without webhooks or carrier simulation. */
import { PRODUCTS } from './catalog';
import type { Services } from './services';
import type { SandboxState } from './state';
import { insertPending } from './shipment-factory';
import type { ShipmentBody } from './validation';

export function seedBooked(state: SandboxState, services: Services, count: number): void {
  const product = PRODUCTS.find((p) => p.code === 'mypack_home')!;
  // Shared, never-mutated parties and packages: an update replaces them, it does not edit them.
  const from = {
    name: state.team.name,
    address: { ...state.team.homeAddress },
    contact: { ...state.team.apiUser },
  };
  const to = {
    name: 'Seeded Receiver AB',
    address: { address_line_1: 'Seedvägen 1', postal_code: '11122', city: 'Stockholm', country_code: 'SE' },
    contact: { name: 'Sigrid Seed', email: 'seed@example.com', phone: null },
  };
  const packages = [
    { depth_cm: 30, height_cm: 20, width_cm: 20, weight_kg: 1, quantity: 1, description: 'Seeded parcel', type: 'PACKAGE' },
  ];
  const base = state.store.size;
  for (let i = 0; i < count; i++) {
    const body: ShipmentBody = { reference_id: `SEED-${base + i + 1}`, from, to, packages };
    const shipment = insertPending(state, state.newId(), body);
    services.confirm(
      shipment,
      {
        product,
        agreement: 'SERVICE',
        receiverPays: false,
        price: product.basePrice + product.perKg,
        nonEu: false,
        source: 'APP',
        servicePoint: null,
      },
      false,
    );
  }
}
