import { describe, expect, it } from 'vitest';
import { formatMessage, messageParams, pluralBlocks } from '../../src/shared/plural';

const english = { plural: (n: number) => new Intl.PluralRules('en').select(n) };

describe('plural forms in a message', () => {
  it('chooses the form by the plural rules and writes # as the number', () => {
    const message = '{count, plural, one {# label} other {# labels}} on {printer}';
    expect(formatMessage(message, { count: 1, printer: 'Zebra' }, english)).toBe('1 label on Zebra');
    expect(formatMessage(message, { count: 2, printer: 'Zebra' }, english)).toBe('2 labels on Zebra');
    expect(formatMessage(message, { count: 1000, printer: 'Z' }, { ...english, number: (n) => n.toLocaleString('en-US') })).toBe(
      '1,000 labels on Z',
    );
  });

  it('takes an exact =N form first, then the category, then "other"', () => {
    const message = '{n, plural, =0 {none} one {one} other {# many}}';
    expect([0, 1, 5].map((n) => formatMessage(message, { n }, english))).toEqual(['none', 'one', '5 many']);
    expect(formatMessage('{n, plural, other {# any}}', { n: 1 }, english)).toBe('1 any');
  });

  it('fills parameters inside forms, keeps a missing one visible, and leaves plain messages as they were', () => {
    expect(formatMessage('{n, plural, one {# on {to}} other {# on {to}}}', { n: 3, to: 'B' }, english)).toBe('3 on B');
    expect(formatMessage('{n, plural, one {# job} other {# jobs}}', {}, english)).toBe('{n} jobs');
    expect(formatMessage('Printer {n}: {name}', { n: 2 }, english)).toBe('Printer 2: {name}');
  });

  it('reads blocks and parameters, and refuses a plural without "other" or left open', () => {
    const message = 'Saved: {a, plural, one {# x} other {# xs}}, {b, plural, one {{c} y} other {{c} ys}}.';
    expect(pluralBlocks(message).map((b) => [b.param, b.forms])).toEqual([
      ['a', { one: '# x', other: '# xs' }],
      ['b', { one: '{c} y', other: '{c} ys' }],
    ]);
    expect(messageParams(message)).toEqual(['a', 'b', 'c']);
    expect(messageParams('{x} of {y}')).toEqual(['x', 'y']);
    expect(() => pluralBlocks('{n, plural, one {#}}')).toThrow(/no "other" form/);
    expect(() => pluralBlocks('{n, plural, one {# x')).toThrow(/not closed/);
    expect(() => pluralBlocks('{n, plural, lots {#} other {#}}')).toThrow(/unreadable/);
  });
});
