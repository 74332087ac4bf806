/**
 * What a fresh station did not print by itself: the bookings of the hour before its first
 * start (src/main/intake/first-start.ts), offered to the UI and printed when asked.
 */
import type { OperationDeps } from './deps';
import type { OperationGroup } from './groups';

export function catchUpOperations(deps: Pick<OperationDeps, 'firstStart'>): OperationGroup<'catchUp'> {
  return {
    async catchUpOffer() {
      return deps.firstStart?.offer() ?? { count: 0, windowMinutes: 0, firstStartAt: null };
    },
    async printCatchUp() {
      return { submitted: deps.firstStart?.printOffered() ?? 0 };
    },
  };
}
