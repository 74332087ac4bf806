/**
 * What a scale says, in one shape for every protocol: a sample as decoded from the wire, and
 * the reading the monitor publishes. Weights stay exact: a decoded weight is an integer count
 * of the scale's smallest step (`value` × 10^-`decimals` in `unit`), and the conversion to kg
 * rounds once, to the decimals the scale's own resolution needs, so 1.234 kg stays 1.234.
 */

/** The states a station sees (docs/INTERFACES.md, Scales). */
export const SCALE_STATES = ['stable', 'motion', 'zero', 'under', 'over', 'offline'] as const;
export type ScaleState = (typeof SCALE_STATES)[number];

/** The units the decoders know. */
export type WeightUnit = 'mg' | 'g' | 'kg' | 't' | 'oz' | 'lb';

/** An exact weight as the scale sent it. */
export interface ScaleWeight {
  /** Signed integer count of 10^-decimals units. */
  readonly value: number;
  /** Digits after the decimal point (negative: the scale shows tens or hundreds). */
  readonly decimals: number;
  readonly unit: WeightUnit;
}

/** One decoded answer of a scale. */
export type ScaleSample =
  | { readonly kind: 'weight'; readonly stable: boolean; readonly weight: ScaleWeight }
  | { readonly kind: 'over' }
  | { readonly kind: 'under' }
  /** The load moves and the scale does not say its weight (it answers only once stable: MT-SICS `S`). */
  | { readonly kind: 'unsettled' }
  /** The scale answers but cannot weigh: it says why (a fault, calibration needed). */
  | { readonly kind: 'fault'; readonly problem: string };

/** What the monitor publishes: the station's view of its scale. */
export interface ScaleReading {
  readonly state: ScaleState;
  /**
   * Kilograms at the scale's resolution when `stable`, and when in `motion` on a scale that says
   * a moving weight (one asked with MT-SICS `S` does not); else null (the contract's `kg`).
   */
  readonly kg: number | null;
  /** The unit the scale weighs in (a scale set to lb is converted); null while offline. */
  readonly unit: WeightUnit | null;
  /** When this state and weight began (ms since the epoch). */
  readonly since: number;
  /** Why the scale cannot be used, in words, when it says so or when it is offline; else null. */
  readonly problem: string | null;
}

/** Kilograms per unit, with how many decimals more a kg figure needs than the unit's. */
const UNITS: Record<WeightUnit, { readonly kgPer: number; readonly extraDecimals: number }> = {
  mg: { kgPer: 1e-6, extraDecimals: 6 },
  g: { kgPer: 1e-3, extraDecimals: 3 },
  kg: { kgPer: 1, extraDecimals: 0 },
  t: { kgPer: 1e3, extraDecimals: -3 },
  // The avoirdupois ounce and pound, exactly (international yard and pound agreement).
  oz: { kgPer: 0.028349523125, extraDecimals: 2 },
  lb: { kgPer: 0.45359237, extraDecimals: 1 },
};

/** Parses a weight as written on the wire (`1.234`, `-0.50`, ` 12`): null when it is not one. */
export function parseWeightText(text: string, unit: WeightUnit): ScaleWeight | null {
  const match = /^([+-]?)\s*(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[3] ?? '';
  const magnitude = Number(`${match[2]}${fraction}`);
  return { value: match[1] === '-' ? -magnitude : magnitude, decimals: fraction.length, unit };
}

/** Kilograms, rounded once at the scale's own resolution: no float noise (1.234 kg stays 1.234). */
export function weightToKg(weight: ScaleWeight): number {
  const { kgPer, extraDecimals } = UNITS[weight.unit];
  const decimals = Math.max(0, weight.decimals + extraDecimals);
  const kg = (weight.value / 10 ** weight.decimals) * kgPer;
  // -0 reads as 0.
  return Number(kg.toFixed(Math.min(decimals, 12))) + 0;
}

/** The state and kg a sample means on its own (the monitor adds offline). */
export function sampleReading(sample: ScaleSample): {
  state: ScaleState;
  kg: number | null;
  unit: WeightUnit | null;
  problem: string | null;
} {
  switch (sample.kind) {
    case 'over':
      return { state: 'over', kg: null, unit: null, problem: null };
    case 'under':
      return { state: 'under', kg: null, unit: null, problem: null };
    case 'unsettled':
      return { state: 'motion', kg: null, unit: null, problem: null };
    case 'fault':
      return { state: 'offline', kg: null, unit: null, problem: sample.problem };
    case 'weight': {
      const kg = weightToKg(sample.weight);
      const unit = sample.weight.unit;
      // A negative weight is under zero, whatever the scale's stability flag says.
      if (kg < 0) return { state: 'under', kg: null, unit, problem: null };
      if (!sample.stable) return { state: 'motion', kg, unit, problem: null };
      return kg === 0 ? { state: 'zero', kg: null, unit, problem: null } : { state: 'stable', kg, unit, problem: null };
    }
  }
}
