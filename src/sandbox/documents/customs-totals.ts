import type { DocumentCustoms, DocumentCustomsItem } from './types';

/** Amounts in cents: line values are rounded once, so the printed lines add up to the printed totals. */
export interface CustomsTotals {
  /** Per item, in item order; null when quantity or unit value is missing. */
  readonly lineCents: ReadonlyArray<number | null>;
  readonly goodsCents: number;
  /** goods + insurance + shipping + other costs - discount (unset costs count as 0). */
  readonly totalCents: number;
  /** Sum of quantity x unit weight over the items that have both. */
  readonly netWeightKg: number;
}

const cents = (amount: number | null): number => (amount == null ? 0 : Math.round(amount * 100));

export function lineCents(item: DocumentCustomsItem): number | null {
  return item.quantity == null || item.unitValue == null ? null : Math.round(item.quantity * item.unitValue * 100);
}

export function customsTotals(customs: DocumentCustoms): CustomsTotals {
  const lines = customs.items.map(lineCents);
  const goodsCents = lines.reduce<number>((sum, line) => sum + (line ?? 0), 0);
  const totalCents =
    goodsCents + cents(customs.insuranceCosts) + cents(customs.shippingCosts) + cents(customs.otherCosts) - cents(customs.discount);
  const grams = customs.items.reduce(
    (sum, i) => sum + (i.quantity == null || i.unitWeightKg == null ? 0 : Math.round(i.quantity * i.unitWeightKg * 1000)),
    0,
  );
  return { lineCents: lines, goodsCents, totalCents, netWeightKg: grams / 1000 };
}

/** `1234.5` as `1234.50`; cents keep their sign. */
export function formatCents(value: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
