/**
 * The service validates customs item weights against package weights; the station says
 * so before sending, next to the weight the packer just typed.
 */
import type { FieldProblem } from '../../shared/domain';

interface Item {
  readonly quantity?: number | null;
  readonly unit_weight?: number | null;
}
interface Pkg {
  readonly weight_kg?: number | null;
  readonly quantity?: number | null;
}

export function customsWeightProblem(items: readonly Item[], packages: readonly Pkg[]): FieldProblem | null {
  if (items.length === 0 || packages.length === 0) return null;
  const itemKg = items.reduce((sum, i) => sum + (i.quantity ?? 0) * (i.unit_weight ?? 0), 0);
  const packageKg = packages.reduce((sum, p) => sum + (p.weight_kg ?? 0) * (p.quantity ?? 1), 0);
  if (itemKg <= packageKg + 1e-9) return null;
  return {
    field: 'packages[0].weight_kg',
    label: 'Weight of parcel 1',
    message: `the customs items weigh ${kg(itemKg)} kg, more than the parcels' ${kg(packageKg)} kg: weigh again or fix the customs data`,
  };
}

const kg = (n: number): string => String(Math.round(n * 1000) / 1000);
