import { describe, expect, it } from 'vitest';
import { decodeToledoContinuous } from '../../../src/main/devices/protocols/toledo-continuous';
import { sampleReading } from '../../../src/main/devices/scale-reading';

/**
 * A frame laid out as Mettler Toledo's standard continuous output defines it: STX, status
 * words A, B, C (bit 5 always set), six weight digits, six tare digits (CR is the line's end).
 */
function frame(swa: number, swb: number, swc: number, weight: string, tare = '000000'): string {
  return `\x02${String.fromCharCode(swa, swb, swc)}${weight}${tare}`;
}

function reads(line: string): unknown {
  const answer = decodeToledoContinuous(line);
  return answer.kind === 'sample' ? (({ state, kg }) => ({ state, kg }))(sampleReading(answer.sample)) : answer;
}

describe('Toledo continuous output frames', () => {
  it('reads a stable kg weight with three decimals (SWA point code 5, SWB kg bit)', () => {
    expect(reads(frame(0x25, 0x30, 0x20, '001234'))).toEqual({ state: 'stable', kg: 1.234 });
  });

  it('reads the motion bit as motion', () => {
    expect(reads(frame(0x25, 0x38, 0x20, '001240'))).toEqual({ state: 'motion', kg: 1.24 });
  });

  it('reads pounds when the kg bit is clear, and grams and ounces from SWC', () => {
    expect(reads(frame(0x24, 0x20, 0x20, '000200'))).toEqual({ state: 'stable', kg: 0.907 });
    expect(reads(frame(0x22, 0x20, 0x21, '001500'))).toEqual({ state: 'stable', kg: 1.5 });
    expect(reads(frame(0x23, 0x20, 0x23, '000160'))).toEqual({ state: 'stable', kg: 0.454 });
  });

  it('reads the ×10 and ×100 point codes', () => {
    expect(reads(frame(0x21, 0x30, 0x21, '000123'))).toEqual({ state: 'stable', kg: 1.23 });
    expect(reads(frame(0x20, 0x30, 0x21, '000012'))).toEqual({ state: 'stable', kg: 1.2 });
  });

  it('reads out of range as over, or under with the sign bit; a negative weight as under', () => {
    expect(reads(frame(0x25, 0x34, 0x20, '000000'))).toEqual({ state: 'over', kg: null });
    expect(reads(frame(0x25, 0x36, 0x20, '000000'))).toEqual({ state: 'under', kg: null });
    expect(reads(frame(0x25, 0x32, 0x20, '000120'))).toEqual({ state: 'under', kg: null });
  });

  it('reads a zero weight as zero, and a scale not zeroed since power-up as unusable', () => {
    expect(reads(frame(0x25, 0x30, 0x20, '000000'))).toEqual({ state: 'zero', kg: null });
    expect(reads(frame(0x25, 0x70, 0x20, '001000'))).toEqual({ state: 'offline', kg: null });
  });

  it('finds the frame after a checksum byte that ended up before it', () => {
    expect(reads(`\x7f${frame(0x25, 0x30, 0x20, '002000')}`)).toEqual({ state: 'stable', kg: 2 });
  });

  it('reads short frames, bad status bytes, letters in the digits and unknown units as garbage', () => {
    for (const line of [
      frame(0x25, 0x30, 0x20, '00123'),
      frame(0x05, 0x30, 0x20, '001234'),
      frame(0x25, 0x30, 0x20, '00A234'),
      frame(0x25, 0x30, 0x24, '001234'),
      'S S      1.234 kg',
      '',
    ]) {
      expect(decodeToledoContinuous(line)).toEqual({ kind: 'garbage' });
    }
  });
});
