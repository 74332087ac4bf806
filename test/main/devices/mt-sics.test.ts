import { describe, expect, it } from 'vitest';
import { decodeSics, encodeSics } from '../../../src/main/devices/protocols/mt-sics';
import { sampleReading, weightToKg } from '../../../src/main/devices/scale-reading';

/** The state and kg an answer line means, as the station shows it. */
function reads(line: string): unknown {
  const answer = decodeSics(line);
  return answer.kind === 'sample' ? (({ state, kg }) => ({ state, kg }))(sampleReading(answer.sample)) : answer;
}

describe('MT-SICS answers (Mettler Toledo MT-SICS reference, S / SI)', () => {
  it('reads a stable weight at the resolution it was sent with', () => {
    expect(reads('S S      1.234 kg')).toEqual({ state: 'stable', kg: 1.234 });
    expect(reads('S S     12.30 kg')).toEqual({ state: 'stable', kg: 12.3 });
  });

  it('reads a dynamic weight as motion, never stable', () => {
    expect(reads('S D      1.240 kg')).toEqual({ state: 'motion', kg: 1.24 });
  });

  it('reads over and under the range', () => {
    expect(reads('S +')).toEqual({ state: 'over', kg: null });
    expect(reads('S -')).toEqual({ state: 'under', kg: null });
  });

  it('reads a stable zero as zero and a negative weight as under', () => {
    expect(reads('S S      0.000 kg')).toEqual({ state: 'zero', kg: null });
    expect(reads('S S     -0.120 kg')).toEqual({ state: 'under', kg: null });
  });

  it('converts other units to kg without float noise', () => {
    expect(reads('S S   1234.5 g')).toEqual({ state: 'stable', kg: 1.2345 });
    expect(reads('S S      2.00 lb')).toEqual({ state: 'stable', kg: 0.907 });
    expect(reads('S S     16.0 oz')).toEqual({ state: 'stable', kg: 0.454 });
    // 0.1 + 0.2 style noise never shows: each value rounds once at its own resolution.
    expect(weightToKg({ value: 300, decimals: 3, unit: 'kg' })).toBe(0.3);
    expect(weightToKg({ value: 7, decimals: 1, unit: 'g' })).toBe(0.0007);
  });

  it('reads the serial number from I4, and acknowledgements and refusals as replies without a weight', () => {
    expect(decodeSics('I4 A "0123456789"')).toEqual({ kind: 'identity', identity: '0123456789' });
    for (const line of ['ES', 'ET', 'EL', 'Z A', 'Z I', 'S I', 'T S      0.120 kg']) expect(decodeSics(line).kind).toBe('reply');
  });

  it('reads anything else as garbage, never a weight', () => {
    for (const line of ['S S 1.2.3 kg', 'S X 1.000 kg', 'S S      1.234 stone', '\x00\xff', 'hello', 'S S kg', '1.234 kg']) {
      expect(decodeSics(line)).toEqual({ kind: 'garbage' });
    }
  });

  it('ends every command with CR LF', () => {
    expect(encodeSics('SI')).toBe('SI\r\n');
  });
});
