import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StationRules } from '../../../src/shared/domain';
import type { BookingNotice } from '../../../src/main/ledger/booking-notice';
import { createBookingDispatcher } from '../../../src/main/intake/booking-dispatch';
import {
  matchesStationRules,
  parseStationRules,
  rulesNeedShipmentDetails,
  stationRulesProblem,
} from '../../../src/main/intake/station-rules';

function booking(overrides: Partial<BookingNotice> = {}): BookingNotice {
  return {
    shipmentId: 'shp_1',
    referenceId: 'ORD-1001',
    trackingId: 'TRK1',
    carrier: 'postnord',
    source: 'API',
    senderReference: 'WH-A/77',
    system: 'shopify',
    bookedAt: '2026-01-01T10:00:00Z',
    trigger: 'webhook',
    ...overrides,
  };
}

const COMPLEMENT = '/^($|[^AO]|A($|[^P])|AP($|[^P])|APP($|[^-])|O($|[^R])|OR($|[^D])|ORD($|[^-]))/';
const rules = (partial: Partial<StationRules>): StationRules => parseStationRules({ mode: 'filtered', ...partial });

describe('station rules', () => {
  it('all prints everything; none prints nothing (print on scan only)', () => {
    expect(matchesStationRules(rules({ mode: 'all' }), booking())).toMatchObject({ print: true });
    expect(matchesStationRules(rules({ mode: 'all' }), booking({ source: null, carrier: null, referenceId: null }))).toMatchObject({
      print: true,
    });
    const none = matchesStationRules(rules({ mode: 'none' }), booking());
    expect(none.print).toBe(false);
    expect(none.why).toMatch(/scan only/);
  });

  it('filters by source, ignoring case; an unknown (polled) source does not match', () => {
    const app = rules({ sources: ['app'] });
    expect(matchesStationRules(app, booking({ source: 'APP' })).print).toBe(true);
    expect(matchesStationRules(app, booking({ source: 'API' })).print).toBe(false);
    const polled = matchesStationRules(app, booking({ source: null, trigger: 'poll' }));
    expect(polled.print).toBe(false);
    expect(polled.why).toMatch(/source unknown.*webhooks/);
    expect(matchesStationRules(rules({ sources: ['API', 'APP'] }), booking({ source: 'api' })).print).toBe(true);
  });

  it('filters by a prefix (case-sensitive) on reference_id', () => {
    const r = rules({ matches: [{ field: 'reference_id', pattern: 'ORD-' }] });
    expect(matchesStationRules(r, booking({ referenceId: 'ORD-42' })).print).toBe(true);
    expect(matchesStationRules(r, booking({ referenceId: 'ord-42' })).print).toBe(false);
    expect(matchesStationRules(r, booking({ referenceId: 'XORD-42' })).print).toBe(false);
    expect(matchesStationRules(r, booking({ referenceId: null })).print).toBe(false);
  });

  it('filters by a /regex/ with flags on sender_reference and system', () => {
    const r = rules({ matches: [{ field: 'sender_reference', pattern: '/^wh-a\\//i' }] });
    expect(matchesStationRules(r, booking({ senderReference: 'WH-A/1' })).print).toBe(true);
    expect(matchesStationRules(r, booking({ senderReference: 'WH-B/1' })).print).toBe(false);
    const sys = rules({ matches: [{ field: 'system', pattern: '/^(shopify|woo)$/' }] });
    expect(matchesStationRules(sys, booking({ system: 'woo' })).print).toBe(true);
    expect(matchesStationRules(sys, booking({ system: 'woocommerce' })).print).toBe(false);
    // A `g` flag would make test() stateful; it is dropped so the same value matches twice.
    const g = rules({ matches: [{ field: 'reference_id', pattern: '/ORD/g' }] });
    expect(matchesStationRules(g, booking()).print).toBe(true);
    expect(matchesStationRules(g, booking()).print).toBe(true);
  });

  it('filters by carrier, ignoring case, spaces, - and _', () => {
    const r = rules({ carriers: ['DHL Express', 'PostNord'] });
    expect(matchesStationRules(r, booking({ carrier: 'dhl_express' })).print).toBe(true);
    expect(matchesStationRules(r, booking({ carrier: 'POSTNORD' })).print).toBe(true);
    expect(matchesStationRules(r, booking({ carrier: 'ups' })).print).toBe(false);
    expect(matchesStationRules(r, booking({ carrier: null })).print).toBe(false);
  });

  it('combines: any-of within a field, all-of across fields', () => {
    const r = rules({
      sources: ['API'],
      carriers: ['postnord'],
      matches: [
        { field: 'reference_id', pattern: 'ORD-' },
        { field: 'reference_id', pattern: '/^B2B-/' },
        { field: 'system', pattern: 'shop' },
      ],
    });
    expect(matchesStationRules(r, booking()).print).toBe(true);
    expect(matchesStationRules(r, booking({ referenceId: 'B2B-9' })).print).toBe(true);
    expect(matchesStationRules(r, booking({ referenceId: 'RET-9' })).print).toBe(false);
    expect(matchesStationRules(r, booking({ system: 'erp' })).print).toBe(false);
    expect(matchesStationRules(r, booking({ carrier: 'dhl' })).print).toBe(false);
    expect(matchesStationRules(r, booking({ source: 'APP' })).print).toBe(false);
    expect(matchesStationRules(r, booking()).why).toMatch(
      /source API; carrier postnord; reference_id ORD-1001 matches ORD-; system shopify matches shop/,
    );
  });

  it('rejects an invalid regex at configuration time with a coded error', () => {
    expect(() => parseStationRules({ mode: 'filtered', matches: [{ field: 'reference_id', pattern: '/([a-z/' }] })).toThrow(
      expect.objectContaining({ code: 'INTAKE_INVALID_RULE_PATTERN', message: expect.stringContaining('matches[0]') }),
    );
    expect(() => parseStationRules({ mode: 'sometimes' })).toThrow(expect.objectContaining({ code: 'INTAKE_INVALID_STATION_RULES' }));
    // Matching never throws: a rule that skipped validation prints nothing.
    const unchecked: StationRules = { mode: 'filtered', sources: [], carriers: [], matches: [{ field: 'reference_id', pattern: '/([/' }] };
    expect(matchesStationRules(unchecked, booking())).toMatchObject({ print: false, why: expect.stringContaining('invalid') });
  });

  it('runs the evil /(a+)+$/ in linear time', () => {
    const r = rules({ matches: [{ field: 'reference_id', pattern: '/(a+)+$/' }] });
    const started = performance.now();
    const decision = matchesStationRules(r, booking({ referenceId: `${'a'.repeat(27)}!` }));
    // With JavaScript's backtracking RegExp this took about 12 s; RE2 answers at once.
    expect(performance.now() - started).toBeLessThan(500);
    expect(decision.print).toBe(false);
    expect(matchesStationRules(r, booking({ referenceId: 'a'.repeat(27) })).print).toBe(true);
  });

  it('refuses at save time what RE2 cannot run, naming the rule', () => {
    const refused = (pattern: string, at = 1) => {
      const matches = [
        { field: 'system', pattern: 'shop' },
        { field: 'reference_id', pattern: 'ORD-' },
      ];
      matches.splice(at, 0, { field: 'reference_id', pattern });
      return () => parseStationRules({ mode: 'filtered', matches });
    };
    expect(refused('/^(?!ORD-)/')).toThrow(
      expect.objectContaining({
        code: 'INTAKE_INVALID_RULE_PATTERN',
        message: expect.stringMatching(
          /^Station rule matches\[1\] \(pattern 2 of 3, on reference_id\) cannot be used: \/\^\(\?!ORD-\)\/: .*no lookahead/,
        ),
      }),
    );
    expect(refused('/(a)\\1/', 2)).toThrow(expect.objectContaining({ message: expect.stringContaining('matches[2] (pattern 3 of 3') }));
    expect(refused('/[a-z]{1,500}x/', 0)).toThrow(expect.objectContaining({ message: expect.stringMatching(/matches\[0\].*too complex/) }));
    expect(refused('/abc/x')).toThrow(expect.objectContaining({ message: expect.stringContaining('flag x is not supported') }));
    expect(refused(`ORD-${'x'.repeat(300)}`)).toThrow(expect.objectContaining({ message: expect.stringContaining('more than 200') }));
    // Flags JavaScript users write keep working.
    expect(
      matchesStationRules(rules({ matches: [{ field: 'reference_id', pattern: '/^ord-\\d+$/im' }] }), booking({ referenceId: 'x\nORD-12' }))
        .print,
    ).toBe(true);
  });

  it('names, at start, a stored rule RE2 cannot run (saved by an older version); that rule matches nothing', () => {
    const stored: StationRules = {
      mode: 'filtered',
      sources: [],
      carriers: [],
      matches: [{ field: 'reference_id', pattern: '/^(?!ORD-)/' }],
    };
    expect(stationRulesProblem(stored)).toMatch(/^Station rule matches\[0\] .*no lookahead/);
    expect(stationRulesProblem(rules({ matches: [{ field: 'reference_id', pattern: COMPLEMENT }] }))).toBeNull();
    const errors: string[] = [];
    createBookingDispatcher({
      stationRules: () => stored,
      sink: { submitBooking: () => undefined },
      logger: { info() {}, warn() {}, error: (m) => errors.push(m) },
    });
    expect(errors).toEqual([expect.stringMatching(/^intake: Station rule matches\[0\].*Until then that rule matches nothing\.$/)]);
    expect(matchesStationRules(stored, booking({ referenceId: 'B2B-1' })).print).toBe(false);
  });

  it('says when a webhook booking needs the shipment fetched', () => {
    expect(rulesNeedShipmentDetails(rules({ matches: [{ field: 'system', pattern: 'x' }] }))).toBe(true);
    expect(rulesNeedShipmentDetails(rules({ matches: [{ field: 'reference_id', pattern: 'x' }] }))).toBe(false);
    expect(rulesNeedShipmentDetails(rules({ mode: 'all', matches: [{ field: 'system', pattern: 'x' }] }))).toBe(false);
  });

  it('two stations split a team without overlap (the docs/OPERATIONS.md example)', () => {
    // Station 1 prints web-shop orders (ORD-...) and everything booked by hand in the app;
    // station 2 prints the rest. Complementary regexes on reference_id make the split total
    // (RE2 has no lookahead, so the complement spells out every way not to start so).
    const station1 = parseStationRules({ mode: 'filtered', matches: [{ field: 'reference_id', pattern: '/^(ORD-|APP-)/' }] });
    const station2 = parseStationRules({ mode: 'filtered', matches: [{ field: 'reference_id', pattern: COMPLEMENT }] });
    fc.assert(
      fc.property(
        fc
          .oneof(fc.constantFrom('ORD-', 'APP-', 'B2B-', 'ord-', ''), fc.string())
          .chain((prefix) => fc.string().map((rest) => prefix + rest)),
        fc.constantFrom('API', 'APP', null),
        fc.constantFrom('postnord', 'dhl', null),
        (reference, source, carrier) => {
          const b = booking({ referenceId: reference, source, carrier });
          const printers = [station1, station2].filter((s) => matchesStationRules(s, b).print);
          expect(printers).toHaveLength(1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
