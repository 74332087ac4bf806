import { describe, expect, it } from 'vitest';
import { LineFramer } from '../../../src/main/devices/line-framer';

describe('LineFramer', () => {
  it('cuts at CR, LF and CR LF across chunk edges, dropping empty lines', () => {
    const lines: string[] = [];
    const framer = new LineFramer(
      (l) => lines.push(l),
      () => undefined,
    );
    framer.push('S S    1.0');
    framer.push('00 kg\r');
    framer.push('\nES\r\n\r\nZ A\n');
    expect(lines).toEqual(['S S    1.000 kg', 'ES', 'Z A']);
  });

  it('drops a line longer than the limit up to its end, counting it once, and goes on', () => {
    const lines: string[] = [];
    let overlong = 0;
    const framer = new LineFramer(
      (l) => lines.push(l),
      () => overlong++,
      16,
    );
    framer.push('x'.repeat(10));
    framer.push('y'.repeat(10));
    framer.push('z'.repeat(1000));
    framer.push('\r\nS +\r\n');
    expect(overlong).toBe(1);
    expect(lines).toEqual(['S +']);
  });

  it('keeps bytes as they are (STX survives)', () => {
    const lines: string[] = [];
    new LineFramer(
      (l) => lines.push(l),
      () => undefined,
    ).push(Buffer.from([2, 0x25, 0x30, 13]));
    expect(lines).toEqual(['\x02%0']);
  });
});
