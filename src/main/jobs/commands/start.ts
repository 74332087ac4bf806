import { JobError, JOB_ERROR_CODES } from '../../ledger/errors';
import type { JobRecord } from '../../ledger/job-record';
import { isLedgerFailure } from '../../ledger/ledger-guard';
import type { Engine } from '../engine';
import { resumeJob, settleAfterCrash } from './recovery';

/*
 * Starting and stopping the engine. Start reconciles the jobs a crash left in flight
 * (recovery.ts), in order, then lets the scheduler run; stop lets spools in progress finish
 * and leaves everything else resumable.
 */

/** Reconcile jobs a crash left in flight, then run every unfinished job. */
export async function start(engine: Engine): Promise<void> {
  if (engine.started || engine.loading || engine.stopped) return;
  engine.loading = true;
  try {
    if (!engine.autoPaused) engine.ledger.releaseHeld();
    const open = engine.ledger.open();
    await settleAfterCrash(open, engine.settings.reconcileSettleMs, () => engine.nowMs());
    const unrecovered = await resumeAll(engine, open);
    if (unrecovered === null) return;
    engine.started = true;
    recoverLater(engine, unrecovered);
    // A start on a full or read-only disk says so now (status, log), not at the first booking.
    if (unrecovered.length === 0) probeLedger(engine);
  } finally {
    engine.loading = false;
  }
  engine.schedulePump();
}

/** Stop taking work; let spools in progress finish; leave everything else resumable. */
export async function stop(engine: Engine): Promise<void> {
  if (engine.stopped) return;
  engine.stopped = true;
  engine.scheduler.stop();
  engine.guard.stop();
  await Promise.all([...engine.lanes.values()].flatMap((lane) => [lane.spooling, lane.probing]));
  await engine.spooled.stop();
  engine.runner.leaveAll();
  engine.scheduler.releaseIdle();
}

/**
 * Recovery of each job, in order; null once stopped. A job whose recovery needs a write the
 * ledger cannot take (a restart on a full disk: one caught mid-fetch goes back to queued)
 * is returned with every job after it, in order: the agent starts anyway, its lines parked
 * on the ledger (told once, with what to do), and recovers them once the ledger takes writes.
 */
async function resumeAll(engine: Engine, jobs: readonly JobRecord[]): Promise<JobRecord[] | null> {
  for (const [i, job] of jobs.entries()) {
    if (engine.stopped) return null;
    try {
      await resumeJob(job, engine.recovery);
    } catch (error) {
      if (!isLedgerFailure(error)) throw error;
      return jobs.slice(i);
    }
  }
  return [];
}

/** One write that changes nothing: a ledger that cannot take it parks the lines now, told once. */
function probeLedger(engine: Engine): void {
  if (!engine.ledger.probeWrite) return;
  try {
    engine.guard.call(() => engine.ledger.probeWrite?.());
  } catch (error) {
    if (!isLedgerFailure(error)) throw error;
  }
}

/** Recovers `jobs` once a write goes through again (the guard's replay, in order with the rest). */
function recoverLater(engine: Engine, jobs: readonly JobRecord[]): void {
  if (jobs.length === 0) return;
  engine.guard.orDefer(() => {
    // The guard's replay needs a write that goes through before it counts the ledger back.
    engine.guard.call(() => engine.ledger.probeWrite?.());
    void resumeAll(
      engine,
      jobs.map((job) => engine.ledger.get(job.id) ?? job),
    ).then(
      (rest) => recoverLater(engine, rest ?? []),
      // Only a lookup at a spooler throws here, and recovery catches that itself: a bug, told as such.
      (error: unknown) =>
        engine.observer.onError(
          error instanceof JobError
            ? error
            : new JobError(JOB_ERROR_CODES.LEDGER, `Recovering jobs after a restart failed: ${(error as Error).message}`, {
                cause: error,
              }),
        ),
    );
  });
}
