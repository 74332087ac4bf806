import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * A short, time-ordered job id (`lx3k9q2a` time + counter + random, 15 characters).
 * Ids sort in creation order within one process even when many jobs are created in the
 * same millisecond, so they read well in logs and spooler titles; the ledger still orders
 * work by its own sequence column, which does not depend on the wall clock.
 */
export function newJobId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else {
    counter += 1;
  }
  const time = lastMs.toString(36).padStart(9, '0');
  const seq = (counter % 36 ** 3).toString(36).padStart(3, '0');
  const rand = randomBytes(2).readUInt16BE(0).toString(36).padStart(3, '0').slice(-3);
  return `${time}${seq}${rand}`;
}
