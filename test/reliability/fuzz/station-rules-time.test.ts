/**
 * Property test of station-rule matching time: references come from outside, so
 * any rule the settings accept, against any reference of up to 10,000 characters, must be
 * decided in a few ms. Patterns are built from the pieces that make backtracking engines
 * explode (nested quantifiers, overlapping alternatives, `.*` runs) and the references are
 * long runs of one character with a spoiler at the end, plus plain random text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StationRules } from '../../../src/shared/domain';
import type { BookingNotice } from '../../../src/main/ledger/booking-notice';
import { matchesStationRules, parseStationRules } from '../../../src/main/intake/station-rules';
import { SIZES } from '../../support/reliability/sizes';

/** "A few ms", with room for a shared two-core CI machine (measured max is printed). */
const MAX_MS_PER_EVALUATION = 5;
const MAX_REFERENCE = 10_000;

const EVIL = ['/(a+)+$/', '/(a|aa)+$/', '/(a|a?)+$/', '/(.*a){12}$/', '/(\\w+\\s?)+$/', '/^(a+)+b/', '/(x+x+)+y/', '/(.*)*!$/'];

const atom = fc.constantFrom('a', 'b', '.', '\\w', '\\d', '\\s', '[a-z]', '[^x]', '(a|aa)', '(a|b|ab)', 'x', '-', '\\.');
const quantifier = fc.constantFrom('', '*', '+', '?', '{1,9}', '{2}', '*?', '+?');
const piece: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
  piece: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(atom, quantifier).map(([a, q]) => a + q),
    fc.tuple(fc.array(tie('piece'), { minLength: 1, maxLength: 3 }), quantifier).map(([ps, q]) => `(${ps.join('')})${q}`),
    fc.tuple(tie('piece'), tie('piece')).map(([l, r]) => `(${l}|${r})+`),
  ),
})).piece;
const regexPattern = fc
  .tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 4 }), fc.boolean(), fc.constantFrom('', 'i', 's', 'm'))
  .map(([start, pieces, end, flags]) => `/${start ? '^' : ''}${pieces.join('')}${end ? '$' : ''}/${flags}`);
const pattern = fc.oneof(regexPattern, fc.constantFrom(...EVIL), fc.string({ minLength: 1, maxLength: 20 }));

const reference = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('a', 'x', 'ab', 'a ', '1', 'ORD-'),
      fc.integer({ min: 1, max: MAX_REFERENCE - 10 }),
      fc.constantFrom('!', 'y', 'b', '', '\n'),
    )
    .map(([unit, length, tail]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length) + tail),
  fc.string({ maxLength: MAX_REFERENCE }),
  fc.string({ maxLength: 200, unit: 'binary' }),
);

const booking = (value: string): BookingNotice => ({
  shipmentId: 's-1',
  referenceId: value,
  trackingId: null,
  carrier: null,
  source: null,
  senderReference: value,
  system: value,
  bookedAt: null,
  trigger: 'webhook',
});

describe('station rules against hostile references', () => {
  it(`any accepted rule decides any reference of up to ${MAX_REFERENCE} characters within ${MAX_MS_PER_EVALUATION} ms`, () => {
    let slowest = 0;
    let evaluations = 0;
    let refused = 0;
    fc.assert(
      fc.property(pattern, fc.constantFrom('reference_id', 'sender_reference', 'system'), reference, (p, field, value) => {
        let rules: StationRules;
        try {
          rules = parseStationRules({ mode: 'filtered', matches: [{ field, pattern: p }] });
        } catch (error) {
          // Refused at save time: never evaluated at all, which is the other way to be safe.
          expect((error as { code?: string }).code).toBe('INTAKE_INVALID_RULE_PATTERN');
          refused++;
          return;
        }
        // Best of three: a GC pause or a preempted CPU hits one run; a slow algorithm hits all.
        let took = Infinity;
        let decision = matchesStationRules(rules, booking(value));
        for (let run = 0; run < 3; run++) {
          const started = performance.now();
          decision = matchesStationRules(rules, booking(value));
          took = Math.min(took, performance.now() - started);
        }
        evaluations++;
        slowest = Math.max(slowest, took);
        expect(typeof decision.print).toBe('boolean');
        expect(took).toBeLessThan(MAX_MS_PER_EVALUATION);
      }),
      { numRuns: SIZES.fuzzRuns },
    );
    console.info(`station rules: ${evaluations} evaluations, ${refused} patterns refused, slowest ${slowest.toFixed(3)} ms`);
    // Most generated patterns are runnable: the bound is about matching, not refusing.
    expect(evaluations).toBeGreaterThan(SIZES.fuzzRuns / 2);
  });

  it.each(EVIL)('the classic catastrophic pattern %s is accepted and runs in linear time', (p) => {
    const rules = parseStationRules({ mode: 'filtered', matches: [{ field: 'reference_id', pattern: p }] });
    const started = performance.now();
    matchesStationRules(rules, booking(`${'a'.repeat(MAX_REFERENCE - 1)}!`));
    // The first run includes building RE2's DFA states; still nowhere near a backtracking stall.
    expect(performance.now() - started).toBeLessThan(MAX_MS_PER_EVALUATION * 5);
  });
});
