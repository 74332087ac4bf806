import { describe, expect, it } from 'vitest';
import { pageOf, pageWords } from '../../src/renderer/paging';

const items = Array.from({ length: 60 }, (_, i) => i + 1);

describe('paging', () => {
  it('cuts a list into pages', () => {
    const first = pageOf(items, 0, 25);
    expect(first.items).toEqual(items.slice(0, 25));
    expect(first).toMatchObject({ index: 0, pages: 3, total: 60, from: 1, to: 25 });
    const last = pageOf(items, 2, 25);
    expect(last.items).toEqual(items.slice(50));
    expect(last).toMatchObject({ from: 51, to: 60 });
    expect(pageWords(last, 'jobs')).toBe('Jobs 51–60 of 60');
  });

  it('clamps a page that no longer exists (the list shrank)', () => {
    expect(pageOf(items, 7, 25).index).toBe(2);
    expect(pageOf(items, -1, 25).index).toBe(0);
    expect(pageOf(items.slice(0, 10), 2, 25)).toMatchObject({ index: 0, from: 1, to: 10 });
  });

  it('has one empty page for an empty list', () => {
    const empty = pageOf([], 3, 25);
    expect(empty).toMatchObject({ items: [], index: 0, pages: 1, total: 0, from: 0, to: 0 });
    expect(pageWords(empty, 'jobs')).toBe('No jobs');
  });

  it('refuses a page size that is not a positive integer', () => {
    expect(() => pageOf(items, 0, 0)).toThrow(RangeError);
    expect(() => pageOf(items, 0, 2.5)).toThrow(/positive integer/);
  });
});
