import { stationRulesSchema, type StationRules } from '../../shared/domain';
import type { BookingNotice } from '../ledger/booking-notice';
import { INTAKE_ERROR_CODES, IntakeConfigError } from './errors';
import { compilePattern } from './rule-pattern';

/**
 * Station rules: which bookings this station prints by itself (docs/OPERATIONS.md,
 * "Station rules"). Matching is pure and never throws: patterns are checked when the
 * rules are configured (`parseStationRules`), and a rule that somehow still holds a bad
 * pattern prints nothing rather than crashing intake.
 *
 * Semantics:
 * - `sources` and `carriers`: any listed value may match; compared without regard to case
 *   (carriers also ignore spaces, `-` and `_`, so `DHL Express` matches `dhl_express`).
 * - `matches`: a prefix (case-sensitive), or a regular expression written `/.../flags` in
 *   RE2 syntax, run in linear time (rule-pattern.ts).
 *   Several matches on one field: any may match; different fields: all must match.
 * - A booking whose source is unknown (seen only by polling) does not match a source
 *   filter; one whose field is unknown does not match a pattern on that field.
 */

export interface RuleDecision {
  readonly print: boolean;
  readonly why: string;
}

type MatchField = StationRules['matches'][number]['field'];

/** Validates settings input into StationRules; throws IntakeConfigError naming the bad part. */
export function parseStationRules(input: unknown): StationRules {
  const parsed = stationRulesSchema.safeParse(input);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(rules)'}: ${i.message}`).join('; ');
    throw new IntakeConfigError(
      INTAKE_ERROR_CODES.INVALID_STATION_RULES,
      `Station rules are invalid (${detail}). Fix them in the settings.`,
    );
  }
  for (const [index, match] of parsed.data.matches.entries()) {
    const result = compilePattern(match.pattern);
    if (!result.ok) {
      throw new IntakeConfigError(
        INTAKE_ERROR_CODES.INVALID_RULE_PATTERN,
        `Station rule matches[${index}] (pattern ${index + 1} of ${parsed.data.matches.length}, on ${match.field}) cannot be used: ` +
          `${match.pattern}: ${result.error}. Fix the pattern, or write it without slashes to match a prefix.`,
      );
    }
  }
  return parsed.data;
}

export function matchesStationRules(rules: StationRules, booking: BookingNotice): RuleDecision {
  if (rules.mode === 'all') return { print: true, why: 'station prints every booking' };
  if (rules.mode === 'none') return { print: false, why: 'station prints on scan only' };

  const reasons: string[] = [];
  if (rules.sources.length > 0) {
    if (booking.source === null) {
      return { print: false, why: `source unknown (seen by ${booking.trigger}); source rules need webhooks` };
    }
    const hit = rules.sources.find((s) => s.toLowerCase() === booking.source?.toLowerCase());
    if (!hit) return { print: false, why: `source ${booking.source} is not one of ${rules.sources.join(', ')}` };
    reasons.push(`source ${booking.source}`);
  }
  if (rules.carriers.length > 0) {
    const carrier = booking.carrier;
    if (carrier === null) return { print: false, why: 'carrier unknown; a carrier rule cannot match' };
    const hit = rules.carriers.find((c) => normalizeCarrier(c) === normalizeCarrier(carrier));
    if (!hit) return { print: false, why: `carrier ${carrier} is not one of ${rules.carriers.join(', ')}` };
    reasons.push(`carrier ${carrier}`);
  }

  const byField = new Map<MatchField, string[]>();
  for (const m of rules.matches) byField.set(m.field, [...(byField.get(m.field) ?? []), m.pattern]);
  for (const [field, patterns] of byField) {
    const value = fieldValue(booking, field);
    if (value === null) return { print: false, why: `${field} unknown; a pattern on it cannot match` };
    let matched: string | null = null;
    for (const pattern of patterns) {
      const compiled = compilePattern(pattern);
      if (!compiled.ok) return { print: false, why: `pattern ${pattern} on ${field} is invalid: ${compiled.error}` };
      if (compiled.test(value)) {
        matched = pattern;
        break;
      }
    }
    if (matched === null) return { print: false, why: `${field} ${value} matches none of ${patterns.join(', ')}` };
    reasons.push(`${field} ${value} matches ${matched}`);
  }
  return { print: true, why: reasons.length > 0 ? reasons.join('; ') : 'filtered rules set no criteria' };
}

/** True when the rules look at fields a SHIPMENT_BOOKED webhook does not carry. */
export function rulesNeedShipmentDetails(rules: StationRules): boolean {
  return rules.mode === 'filtered' && rules.matches.some((m) => m.field === 'sender_reference' || m.field === 'system');
}

function fieldValue(booking: BookingNotice, field: MatchField): string | null {
  switch (field) {
    case 'reference_id':
      return booking.referenceId;
    case 'sender_reference':
      return booking.senderReference;
    case 'system':
      return booking.system;
  }
}

function normalizeCarrier(value: string): string {
  return value.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * Why the current rules cannot all run, or null. Rules saved before patterns ran on RE2 may
 * hold one it refuses (a lookahead): such a rule prints nothing, so intake says so at start.
 */
export function stationRulesProblem(rules: StationRules): string | null {
  try {
    parseStationRules(rules);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
