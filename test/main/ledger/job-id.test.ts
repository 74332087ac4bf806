import { describe, expect, it } from 'vitest';
import { newJobId } from '../../../src/main/ledger/job-id';

describe('newJobId', () => {
  it('gives 15 base-36 characters that sort in creation order, in one millisecond and across milliseconds', () => {
    const at = Date.parse('2026-11-24T09:00:00.000Z');
    const ids = [...Array.from({ length: 1000 }, () => newJobId(at)), newJobId(at + 1), newJobId(at + 2)];
    for (const id of ids) expect(id).toMatch(/^[0-9a-z]{15}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]!.slice(0, 9)).toBe(at.toString(36).padStart(9, '0'));
  });

  it('ends in a random part that changes from id to id, past the random bytes drawn at once', () => {
    // 2000 ids use up several draws of random bytes; a part that repeated would show few values.
    const at = Date.parse('2026-11-24T10:00:00.000Z');
    const tails = Array.from({ length: 2000 }, () => newJobId(at).slice(-3));
    expect(new Set(tails).size).toBeGreaterThan(1500);
    // Consecutive ids almost never share their random part (1 in 46656 each).
    const repeats = tails.filter((t, i) => i > 0 && t === tails[i - 1]).length;
    expect(repeats).toBeLessThan(5);
  });
});
