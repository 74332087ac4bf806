/**
 * The service's field paths and messages (`packages[0].weight_kg: is required`) in words a
 * packer understands ("Weight of parcel 1: is missing"). Unknown paths fall back to a
 * readable form of the path itself, so nothing the service says is dropped.
 */
import type { FieldProblem } from '../../shared/domain';

const PARTY: Record<string, string> = {
  from: 'Sender',
  to: 'Receiver',
  alternative_from: 'Pickup address',
  alternative_to: 'Delivery address',
};

const PARTY_FIELD: Record<string, string> = {
  name: 'name',
  contact: 'contact (name, phone or email)',
  'contact.name': 'contact name',
  'contact.email': 'email',
  'contact.phone': 'phone',
  'address.address_line_1': 'street address',
  'address.address_line_2': 'address line 2',
  'address.postal_code': 'postal code',
  'address.city': 'city',
  'address.country_code': 'country',
  'address.province': 'state or province',
};

const PACKAGE_FIELD: Record<string, string> = {
  weight_kg: 'Weight',
  depth_cm: 'Length',
  height_cm: 'Height',
  width_cm: 'Width',
  quantity: 'Number of parcels',
};

const TOP: Record<string, string> = {
  packages: 'Parcels',
  'customs_information.items': 'Customs items',
  'customs_information.signature': 'Customs signature',
  requested_pickup_time: 'Pickup time',
  // Documents booking asks to be uploaded (the service's documents_missing field map).
  'documents.customsinvoice': 'Customs invoice',
  'documents.abd': 'Export accompanying document',
  'documents.salesinvoice': 'Sales invoice',
  'documents.adr_dangerousgoods': 'Dangerous goods declaration',
};

export function fieldLabel(path: string): string {
  if (TOP[path]) return TOP[path]!;
  const pkg = /^packages\[(\d+)\]\.(\w+)$/.exec(path);
  if (pkg) return `${PACKAGE_FIELD[pkg[2]!] ?? pkg[2]!.replace(/_/g, ' ')} of parcel ${Number(pkg[1]) + 1}`;
  const [head, ...rest] = path.split('.');
  const party = PARTY[head ?? ''];
  if (party) {
    if (rest.length === 0) return party;
    const tail = rest.join('.');
    return `${party}'s ${PARTY_FIELD[tail] ?? tail.replace(/[._]/g, ' ')}`;
  }
  const words = path
    .replace(/\[(\d+)\]/g, (_, i: string) => ` ${Number(i) + 1}`)
    .replace(/[._]/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function messageWords(message: string): string {
  if (/^is required$/i.test(message.trim())) return 'is missing';
  return message;
}

export function toFieldProblems(fields: Readonly<Record<string, readonly string[]>>): FieldProblem[] {
  return Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((m) => {
      const message = messageWords(m);
      return { field, label: fieldLabel(field), message, ...(message === 'is missing' ? { code: 'missing' as const } : {}) };
    }),
  );
}
