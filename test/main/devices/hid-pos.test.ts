import { describe, expect, it } from 'vitest';
import { decodeHidScaleReport } from '../../../src/main/devices/hid-pos';
import { sampleReading } from '../../../src/main/devices/scale-reading';

/**
 * A Scale Data Report as the USB HID Usage Tables (Point of Sale page, 0x8D) lay it out:
 * report id 3, status, weight unit, a signed power-of-ten scaling byte, the weight as 16 bits
 * little endian.
 */
function report(status: number, unit: number, exponent: number, weight: number): Uint8Array {
  return Uint8Array.from([3, status, unit, exponent & 0xff, weight & 0xff, (weight >> 8) & 0xff]);
}

const UNIT = { g: 2, kg: 3, oz: 11, lb: 12 };
const STATUS = { fault: 1, zero: 2, motion: 3, stable: 4, under: 5, over: 6, calibrate: 7, rezero: 8 };

function reads(bytes: Uint8Array): unknown {
  const sample = decodeHidScaleReport(bytes);
  return sample === null ? null : (({ state, kg }) => ({ state, kg }))(sampleReading(sample));
}

describe('HID POS scale data report', () => {
  it('reads a stable weight in grams, kg with a negative exponent, and ounces and pounds', () => {
    expect(reads(report(STATUS.stable, UNIT.g, 0, 1234))).toEqual({ state: 'stable', kg: 1.234 });
    expect(reads(report(STATUS.stable, UNIT.kg, -3, 1234))).toEqual({ state: 'stable', kg: 1.234 });
    // Dymo-style ounces in tenths: 16.0 oz.
    expect(reads(report(STATUS.stable, UNIT.oz, -1, 160))).toEqual({ state: 'stable', kg: 0.454 });
    expect(reads(report(STATUS.stable, UNIT.lb, -2, 200))).toEqual({ state: 'stable', kg: 0.907 });
  });

  it('reads the weight bytes little endian, and a positive exponent as tens', () => {
    expect(reads(report(STATUS.stable, UNIT.g, 0, 0x1234))).toEqual({ state: 'stable', kg: 4.66 });
    expect(reads(report(STATUS.stable, UNIT.g, 1, 150))).toEqual({ state: 'stable', kg: 1.5 });
  });

  it('reads in motion as motion, stable at zero as zero, under zero and over weight', () => {
    expect(reads(report(STATUS.motion, UNIT.g, 0, 500))).toEqual({ state: 'motion', kg: 0.5 });
    expect(reads(report(STATUS.zero, UNIT.g, 0, 0))).toEqual({ state: 'zero', kg: null });
    expect(reads(report(STATUS.under, UNIT.g, 0, 0))).toEqual({ state: 'under', kg: null });
    expect(reads(report(STATUS.over, UNIT.g, 0, 0xffff))).toEqual({ state: 'over', kg: null });
  });

  it('reads fault, requires calibration and requires rezeroing as a scale that cannot weigh, with why', () => {
    for (const status of [STATUS.fault, STATUS.calibrate, STATUS.rezero]) {
      const sample = decodeHidScaleReport(report(status, UNIT.g, 0, 100));
      expect(sample).toMatchObject({ kind: 'fault' });
      expect(sampleReading(sample!)).toMatchObject({ state: 'offline', kg: null });
    }
    expect(decodeHidScaleReport(report(STATUS.rezero, UNIT.g, 0, 0))).toMatchObject({ problem: expect.stringContaining('zero') });
  });

  it('refuses other reports, short reports, unknown statuses and units that are not parcel units', () => {
    expect(decodeHidScaleReport(Uint8Array.from([4, 4, 2, 0, 1, 0]))).toBeNull();
    expect(decodeHidScaleReport(Uint8Array.from([3, 4, 2, 0, 1]))).toBeNull();
    expect(decodeHidScaleReport(report(9, UNIT.g, 0, 1))).toBeNull();
    // Carats.
    expect(decodeHidScaleReport(report(STATUS.stable, 4, 0, 1))).toBeNull();
  });
});
