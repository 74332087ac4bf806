/**
 * Sizes of the reliability suite. The default run is bounded (about four minutes on a
 * shared two-core machine, so `npm test` stays usable); RELIABILITY_LONG=1 runs the sizes
 * the issue names (500-label chaos bursts killed 20 times, 10,000-delivery storm, ...).
 */
export const LONG = process.env.RELIABILITY_LONG === '1';

const pick = (short: number, long: number): number => (LONG ? long : short);

export const SIZES = {
  /** fast-check cases per property (the issue: 10,000; never fewer than 1,000). */
  fuzzRuns: pick(1_000, 10_000),
  /** Labels in the chaos burst, and SIGKILLs during it. */
  chaosLabels: pick(200, 500),
  chaosKills: pick(5, 20),
  /** Webhook deliveries in the storm. */
  stormDeliveries: pick(2_000, 10_000),
  /** Bookings made while the agent is down. */
  outageBookings: pick(50, 200),
  /** Labels in the fault-knob run, and in the disabled-printer burst. */
  faultLabels: pick(40, 200),
  printerFaultLabels: pick(30, 100),
  /** Labels booked while the ledger's disk fills up and empties, and how often it fills. */
  ledgerDiskLabels: pick(30, 200),
  ledgerDiskFills: pick(2, 8),
} as const;
