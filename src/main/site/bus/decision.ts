import type { StationRules } from '../../../shared/domain';
import type { BookingNotice } from '../../ledger/booking-notice';
import { matchesStationRules } from '../../intake/station-rules';

/**
 * Who prints a booking, decided once for the whole site, in this order:
 *
 * 1. a scan claim: the station where the booking's reference_id, shipment id or tracking
 *    number was scanned within the claim's minutes (the newest claim wins);
 * 2. the site's routing rules: each station's `filtered` station rules, stations taken in
 *    the order of their names (compared as text); the first whose rules match. Rules in
 *    mode `all` or `none` decide nothing in a site (a fresh station takes nothing by rule);
 * 3. the site's default stations (`--default-station`, in the order given): the first that
 *    is online, else the first.
 *
 * Pure: what the claims bucket, rules bucket and heartbeats hold is passed in.
 */

export type DecisionReason = 'claim' | 'rule' | 'default' | 'fallback';

export interface SiteClaim {
  /** The scanned text. */
  readonly code: string;
  readonly station: string;
  /** When it was scanned (ISO). */
  readonly at: string;
}

export interface SiteDecision {
  readonly station: string;
  readonly reason: DecisionReason;
  /** In words, for logs and every station's history. */
  readonly why: string;
  /** The claim that decided, for `claim`. */
  readonly claim?: SiteClaim;
}

export interface DecisionInputs {
  /** Claims found for the booking's codes (any order). */
  readonly claims: readonly SiteClaim[];
  /** Each station's rules, by station name. */
  readonly rules: ReadonlyMap<string, StationRules>;
  readonly defaults: readonly string[];
  readonly online: (station: string) => boolean;
}

/** The codes a scan may have claimed the booking by. */
export function bookingCodes(notice: BookingNotice): string[] {
  return [...new Set([notice.shipmentId, notice.referenceId, notice.trackingId].filter((c): c is string => !!c))];
}

/** null: nothing decides (no claim, no rule, no default station): the booking waits for one. */
export function decideStation(notice: BookingNotice, inputs: DecisionInputs): SiteDecision | null {
  const claim = [...inputs.claims].sort((a, b) => b.at.localeCompare(a.at))[0];
  if (claim) return { station: claim.station, reason: 'claim', why: `claimed by a scan of ${claim.code} at ${claim.at}`, claim };

  for (const station of [...inputs.rules.keys()].sort()) {
    const rules = inputs.rules.get(station)!;
    if (rules.mode !== 'filtered') continue;
    const decision = matchesStationRules(rules, notice);
    if (decision.print) return { station, reason: 'rule', why: `station rule: ${decision.why}` };
  }

  const station = inputs.defaults.find(inputs.online) ?? inputs.defaults[0];
  if (station === undefined) return null;
  return { station, reason: 'default', why: 'the site’s default station' };
}
