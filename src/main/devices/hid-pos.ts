/**
 * The USB HID Point of Sale scale's data report (HID Usage Tables, Point of Sale page 0x8D,
 * "Scale Data Report", report id 3), as a scale sends it to the host:
 *
 *   byte 0  report id (3)
 *   byte 1  status: 1 fault, 2 stable at zero, 3 in motion, 4 weight stable, 5 under zero,
 *           6 over weight, 7 requires calibration, 8 requires rezeroing
 *   byte 2  weight unit: 1 mg, 2 g, 3 kg, 4 carat, 5 tael, 6 grain, 7 pennyweight,
 *           8 metric ton, 9 avoirdupois ton, 10 troy ounce, 11 ounce, 12 pound
 *   byte 3  scaling: a signed power of ten the weight is multiplied by
 *   byte 4-5 weight, unsigned 16-bit little endian
 *
 * Pure: the device (hid-scale-device.ts) hands the report's bytes here.
 */
import type { ScaleSample, WeightUnit } from './scale-reading';

export const HID_SCALE_DATA_REPORT_ID = 3;

/** The status byte's values (Usage Tables, Scale Status). */
export const HID_SCALE_STATUS = {
  fault: 1,
  stableAtZero: 2,
  inMotion: 3,
  stable: 4,
  underZero: 5,
  overWeight: 6,
  requiresCalibration: 7,
  requiresRezeroing: 8,
} as const;

/** Weight unit codes this station uses; the others (carat, grain, troy units, tons) are not parcel units. */
const HID_UNITS: Readonly<Record<number, WeightUnit>> = { 1: 'mg', 2: 'g', 3: 'kg', 8: 't', 11: 'oz', 12: 'lb' };

/** One data report decoded; null when the bytes are not a scale data report. */
export function decodeHidScaleReport(report: Uint8Array): ScaleSample | null {
  if (report.length < 6 || report[0] !== HID_SCALE_DATA_REPORT_ID) return null;
  const status = report[1]!;
  const unitCode = report[2]!;
  // The exponent is a signed byte.
  const exponent = report[3]! > 127 ? report[3]! - 256 : report[3]!;
  const raw = report[4]! | (report[5]! << 8);
  switch (status) {
    case HID_SCALE_STATUS.fault:
      return { kind: 'fault', problem: 'the scale reports a fault' };
    case HID_SCALE_STATUS.requiresCalibration:
      return { kind: 'fault', problem: 'the scale needs calibrating' };
    case HID_SCALE_STATUS.requiresRezeroing:
      return { kind: 'fault', problem: 'the scale needs zeroing: empty it and press its zero key' };
    case HID_SCALE_STATUS.underZero:
      return { kind: 'under' };
    case HID_SCALE_STATUS.overWeight:
      return { kind: 'over' };
    case HID_SCALE_STATUS.stableAtZero:
    case HID_SCALE_STATUS.inMotion:
    case HID_SCALE_STATUS.stable: {
      const unit = HID_UNITS[unitCode];
      if (!unit) return null;
      const weight = exponent >= 0 ? { value: raw * 10 ** exponent, decimals: 0, unit } : { value: raw, decimals: -exponent, unit };
      // "Stable at zero" carries a zero weight whatever the weight bytes hold.
      if (status === HID_SCALE_STATUS.stableAtZero) return { kind: 'weight', stable: true, weight: { ...weight, value: 0 } };
      return { kind: 'weight', stable: status === HID_SCALE_STATUS.stable, weight };
    }
    default:
      return null;
  }
}
