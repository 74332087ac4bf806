import type { LedgerGuard } from '../ledger/ledger-guard';
import type { Batching } from './batching';
import type { Entry, Lane } from './lane';
import type { PipelineSettings } from './pipeline-options';
import type { PrinterDirectory } from './ports';
import type { Runner } from './runner';

/** What the scheduler reads of the engine and the parts it starts. */
export interface SchedulerParts {
  readonly settings: PipelineSettings;
  readonly lanes: ReadonlyMap<string, Lane>;
  readonly pausedTargets: ReadonlySet<string>;
  readonly guard: LedgerGuard;
  readonly printers: PrinterDirectory;
  readonly runner: Runner;
  readonly batching: Batching;
  /** Started and not stopped: turns run. */
  running(): boolean;
  /** Stopped: nothing is pending any more, idle() waiters are released. */
  stopped(): boolean;
  nowMs(): number;
}

/**
 * Which job runs next. A turn looks at every line once: it hands the head of each line to
 * its spooler (or probes a printer that is down), then fills the free fetch slots with the
 * jobs to fetch ahead, round-robin across lines. A turn picks each job at most once (the
 * turn's `picked` set, not the job's phase, says so), so a step that fails before it is
 * under way (synchronously, or on its first ledger write) cannot be picked again in the same
 * turn: the next turn comes from a timer (its backoff) or from a step that ended. A turn
 * makes at most one attempt per line for spooling and at most `fetchConcurrency` fetches.
 */
export class Scheduler {
  private roundRobin = 0;
  private turnQueued = false;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAt = Infinity;
  private idleWaiters: (() => void)[] = [];
  /** Turns run so far (a test bounds how many a failing step causes). */
  turns = 0;

  constructor(private readonly parts: SchedulerParts) {}

  /** Run a turn soon (a step ended, a job was queued, the ledger is back): one per microtask at most. */
  schedule(): void {
    if (this.turnQueued) return;
    this.turnQueued = true;
    queueMicrotask(() => {
      this.turnQueued = false;
      this.turn();
    });
  }

  /** Resolves when no runnable work remains (paused targets and held jobs do not count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
  }

  get activeFetches(): number {
    return this.parts.runner.activeFetches;
  }

  releaseIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The wake timer again, after a line was parked (Runner.stepFailed). */
  rearm(): void {
    this.armWake(this.parts.nowMs());
  }

  private turn(): void {
    if (!this.parts.running() || this.parts.guard.down) {
      this.releaseIdle();
      return;
    }
    this.turns += 1;
    const picked = new Set<Entry>();
    try {
      const now = this.parts.nowMs();
      for (const lane of this.parts.lanes.values()) {
        if (this.parts.guard.down) break;
        this.trySpool(lane, now, picked);
      }
      this.fillFetches(now, picked);
      this.armWake(now);
    } catch (error) {
      this.parts.runner.stepFailed(null, error);
    }
    this.releaseIdle();
  }

  private trySpool(lane: Lane, now: number, picked: Set<Entry>): void {
    const { pausedTargets, printers, runner, batching } = this.parts;
    if (lane.spooling || pausedTargets.has(lane.target)) return;
    const head = lane.head;
    if (!head || head.notBefore > now || picked.has(head)) return;
    const target = printers.resolve(lane.target);
    if (target instanceof Error) {
      picked.add(head);
      runner.noTarget(lane, head, target);
      this.schedule();
      return;
    }
    if (lane.down) {
      // The printer is down: one probe for the whole line, nothing handed over meanwhile.
      if (lane.probing || lane.down.nextProbeAt > now) return;
      runner.probe(lane, target);
      return;
    }
    if (head.batch) {
      const { ready, release } = batching.readyToSpool(lane, head);
      if (release) {
        // The batch lost its place: its members are fetched again on their own.
        runner.release(head.batch, release);
        this.schedule();
      }
      if (!ready) return;
      for (const m of head.batch.members) picked.add(m);
      runner.spoolBatch(lane, head.batch, target);
      return;
    }
    const ready = head.phase === 'ready' || (head.phase === 'waiting' && !target.needsPdf);
    if (!ready) return;
    picked.add(head);
    runner.spool(lane, head, target);
  }

  private fillFetches(now: number, picked: Set<Entry>): void {
    const { guard, settings, runner } = this.parts;
    const lanes = [...this.parts.lanes.values()];
    // A step that fails before it is under way (its ledger write) has parked the lines by the
    // time it returns: the loop ends there. Every other failure is kept out by `picked`.
    while (!guard.down && this.activeFetches < settings.fetchConcurrency && lanes.length > 0) {
      let chosen: Entry | null = null;
      let lane: Lane | null = null;
      for (let i = 0; i < lanes.length && !chosen; i++) {
        const index = (this.roundRobin + i) % lanes.length;
        chosen = this.fetchCandidate(lanes[index]!, now, picked);
        if (chosen) {
          this.roundRobin = index + 1;
          lane = lanes[index]!;
        }
      }
      if (!chosen || !lane) return;
      const members = this.batchMembers(lane, chosen, now);
      // False when the ledger refused the batch's claim: the first job goes alone, unless the ledger is down.
      const batched = members ? runner.fetchBatch(lane, members) : false;
      if (!batched && guard.down) return;
      for (const m of batched && members ? members : [chosen]) picked.add(m);
      // It failed before its fetch was under way: its line is parked; no more fetching this turn.
      if (!batched && !runner.fetch(lane, chosen)) return;
    }
  }

  /** The jobs already waiting behind `first` go with it in one batch, when its target batches (batching.ts). */
  private batchMembers(lane: Lane, first: Entry, now: number): Entry[] | null {
    const target = this.parts.printers.resolve(lane.target);
    if (target instanceof Error || !this.parts.batching.batches(target)) return null;
    const members = this.parts.batching.membersFrom(lane, first, now);
    return members.length > 1 ? members : null;
  }

  private fetchCandidate(lane: Lane, now: number, picked: ReadonlySet<Entry>): Entry | null {
    if (this.parts.pausedTargets.has(lane.target) || lane.down?.fault) return null;
    const target = this.parts.printers.resolve(lane.target);
    if (target instanceof Error || !target.needsPdf) return null;
    for (const e of lookahead(lane, this.parts.settings.lookahead)) {
      if (e.phase === 'waiting' && e.notBefore <= now && !picked.has(e)) {
        return this.parts.batching.holds(lane, e, target, now) ? null : e;
      }
    }
    return null;
  }

  /** One timer for the earliest backoff that ends, instead of a timer per job. */
  private armWake(now: number): void {
    let next = Infinity;
    for (const lane of this.parts.lanes.values()) {
      if (this.parts.pausedTargets.has(lane.target) || this.parts.guard.down) continue;
      if (lane.down && !lane.probing && lane.down.nextProbeAt > now && lane.down.nextProbeAt < next) next = lane.down.nextProbeAt;
      for (const e of lookahead(lane, this.parts.settings.lookahead)) {
        if (e.notBefore > now && e.notBefore < next) next = e.notBefore;
      }
    }
    if (next === Infinity || next >= this.wakeAt) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeAt = next;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = null;
        this.wakeAt = Infinity;
        this.turn();
      },
      Math.max(0, next - now),
    );
  }

  private isIdle(): boolean {
    if (this.parts.stopped()) return true;
    if (this.activeFetches > 0) return false;
    for (const lane of this.parts.lanes.values()) {
      if (lane.spooling) return false;
      if (lane.entries.length > 0 && !this.parts.pausedTargets.has(lane.target)) return false;
    }
    return true;
  }
}

/** The first `count` jobs of a line that may be fetched ahead; a batch counts as one. */
function* lookahead(lane: Lane, count: number): Generator<Entry> {
  let seen = 0;
  for (const e of lane.entries) {
    if (seen >= count) return;
    if (e.batch && e.batch.members[0] !== e) continue;
    seen += 1;
    yield e;
  }
}
