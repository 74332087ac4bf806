import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;
// Random bytes drawn 512 at a time: one call into the crypto library per 256 ids instead of
// one per id (a burst creates hundreds in a second; docs/BENCHMARKS.md).
const pool = Buffer.alloc(512);
let poolAt = pool.length;

function random16(): number {
  if (poolAt + 2 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const value = pool.readUInt16BE(poolAt);
  poolAt += 2;
  return value;
}

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
  const rand = random16().toString(36).padStart(3, '0').slice(-3);
  return `${time}${seq}${rand}`;
}
