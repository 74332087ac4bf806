/** The print calls the batched limit makes: the agent's best grouping of a burst (bench/limit.ts). */
import { describe, expect, it } from 'vitest';
import { printCalls } from '../../bench/limit';

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `S${i}`);

describe('printCalls', () => {
  it('sends the first shipment alone, then up to batchMax a call, in booking order, each shipment once', () => {
    const calls = printCalls(ids(200), 25);
    expect(calls.map((c) => c.length)).toEqual([1, 25, 25, 25, 25, 25, 25, 25, 24]);
    expect(calls.flat()).toEqual(ids(200));
  });

  it('is one call a shipment at batchMax 1 (the unbatched limit)', () => {
    expect(printCalls(ids(3), 1)).toEqual([['S0'], ['S1'], ['S2']]);
  });

  it('handles bursts no larger than one batch', () => {
    expect(printCalls(ids(1), 25)).toEqual([['S0']]);
    expect(printCalls(ids(26), 25).map((c) => c.length)).toEqual([1, 25]);
    expect(printCalls(ids(27), 25).map((c) => c.length)).toEqual([1, 25, 1]);
    expect(printCalls([], 25)).toEqual([]);
  });

  it('refuses a batch size that is not a whole number from 1', () => {
    expect(() => printCalls(ids(3), 0)).toThrow(/batchMax must be a whole number ≥ 1, got 0/);
    expect(() => printCalls(ids(3), 2.5)).toThrow(/got 2.5/);
  });
});
