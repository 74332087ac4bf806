import type { DocumentParty } from './types';

/** The lines of an address block, empty parts left out. */
export function partyLines(party: DocumentParty): string[] {
  const lines: string[] = [];
  if (party.name) lines.push(party.name);
  if (party.contactName && party.contactName !== party.name) lines.push(party.contactName);
  for (const line of party.addressLines) if (line) lines.push(line);
  const place = [party.postalCode, party.city].filter(Boolean).join(' ');
  if (place) lines.push(place);
  if (party.countryCode) lines.push(party.countryCode);
  return lines;
}

/** Label references in print order, unset ones left out. */
export function referenceLines(shipment: {
  readonly referenceId: string | null;
  readonly senderReference: string | null;
  readonly receiverReference: string | null;
}): string[] {
  const lines: string[] = [];
  if (shipment.referenceId) lines.push(`Ref: ${shipment.referenceId}`);
  if (shipment.senderReference) lines.push(`Sender ref: ${shipment.senderReference}`);
  if (shipment.receiverReference) lines.push(`Receiver ref: ${shipment.receiverReference}`);
  return lines;
}
