import { pauseNotRecorded } from '../../ledger/errors';
import { isLedgerFailure } from '../../ledger/ledger-guard';
import { AUTO_SCOPE, type Engine } from '../engine';

/*
 * Pause and resume: one target (every job to it waits), or automatic printing as a whole
 * (automatic jobs are recorded and held). The ledger first: a pause or resume it cannot
 * record (LEDGER_WRITE_FAILED) changes nothing here either, so what the UI shows is what
 * holds after a restart.
 */

export function pause(engine: Engine, target?: string): void {
  if (target !== undefined) {
    recordPause(engine, true, () => engine.ledger.setPaused(target, true));
    engine.pausedTargets.add(target);
    return;
  }
  const held = recordPause(engine, true, () =>
    engine.inTransaction(() => {
      engine.ledger.setPaused(AUTO_SCOPE, true);
      return engine.ledger.holdAutoJobs();
    }),
  );
  engine.autoPaused = true;
  const ids = new Set(held.map((j) => j.id));
  for (const id of ids) {
    const entry = engine.entries.get(id);
    if (entry) engine.runner.drop(entry);
  }
  for (const job of held) engine.emit(job);
  // Jobs fetched ahead (row `fetching`, PDF in memory or on its way) are held as well:
  // a pause stops everything not yet being handed to a spooler. The PDF is fetched again
  // on resume; a fetch in progress is disowned.
  for (const entry of [...engine.entries.values()]) {
    if (!entry.auto || entry.phase === 'spooling') continue;
    engine.runner.drop(entry);
    // Held as paused *when written*: a write deferred while the ledger is down may run after
    // a resume, and must then queue the job rather than hold it until the next resume.
    engine.guard.orDefer(() => {
      const job = engine.guard.write(entry.id, 'queued', { held: engine.autoPaused });
      if (!job.held) engine.enqueue(job);
    });
  }
  engine.schedulePump();
}

/** Like pause(): a resume the ledger cannot record throws LEDGER_WRITE_FAILED and the pause stays. */
export function resume(engine: Engine, target?: string): void {
  if (target !== undefined) {
    recordPause(engine, false, () => engine.ledger.setPaused(target, false));
    engine.pausedTargets.delete(target);
  } else {
    const released = recordPause(engine, false, () =>
      engine.inTransaction(() => {
        engine.ledger.setPaused(AUTO_SCOPE, false);
        return engine.ledger.releaseHeld();
      }),
    );
    engine.autoPaused = false;
    for (const job of released) {
      engine.emit(job);
      if (job.state === 'queued') engine.enqueue(job);
    }
  }
  engine.schedulePump();
}

/** A pause or resume written to the ledger first; one it cannot take says to press it again. */
function recordPause<T>(engine: Engine, pausing: boolean, fn: () => T): T {
  try {
    return engine.guard.call(fn);
  } catch (error) {
    throw isLedgerFailure(error) ? pauseNotRecorded(error, pausing, engine.ledger.dir) : error;
  }
}
