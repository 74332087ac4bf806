/**
 * One shipment as the sandbox's document renderer takes it, for tests that render a real
 * 4x6 label PDF without a sandbox server (the ZPL rasterizer, its worker thread, the bundle).
 */
import type { DocumentShipment } from '../../src/sandbox/documents/types';

const two = (n: number): string => String(n).padStart(2, '0');

/** Shipment `index` (1–99): its own id, `ORDER-index` and, unless given, its own tracking number. */
export function labelShipment(index: number, options: { trackingId?: string; parcels?: number } = {}): DocumentShipment {
  return {
    id: `0f8c2a4e-0000-4000-8000-0000000000${two(index)}`,
    carrierName: 'PostNord',
    productName: 'MyPack Home',
    trackingId: options.trackingId ?? `003707123456789012${two(index)}`,
    referenceId: `ORDER-${index}`,
    senderReference: null,
    receiverReference: null,
    sender: {
      name: 'Sender AB',
      contactName: null,
      addressLines: ['Lagergatan 4'],
      postalCode: '41101',
      city: 'Göteborg',
      countryCode: 'SE',
    },
    receiver: {
      name: 'Café Lindqvist',
      contactName: 'Eva',
      addressLines: ['Stortorget 3'],
      postalCode: '21122',
      city: 'Malmö',
      countryCode: 'SE',
    },
    packages: [{ description: 'Books', weightKg: 2.5, quantity: options.parcels ?? 1 }],
    bookedAt: '2026-11-22T10:00:00Z',
  };
}
