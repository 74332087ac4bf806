import type { AgentMessage } from '../../shared/agent-messages';
import type { Entry } from './lane';

/*
 * What a step (fetch, spool, probe, a batch's fetch or spool) says happened to the job it was
 * given: one value, never a throw. The step decides; only the runner (runner.ts) acts on it,
 * writing the job's phase, its line's state and its ledger row in one place (`Runner.settle`,
 * `Runner.settleBatch`).
 */
export type StepOutcome =
  /** The PDF is in memory: the job is ready for its spooler. */
  | { readonly kind: 'fetched'; readonly pdf: Uint8Array; readonly at: number }
  /** The spooler has the job (or was found to have it already): it leaves its line. */
  | {
      readonly kind: 'handedOver';
      readonly spoolerJobId: string | null;
      readonly completed: boolean;
      readonly note: string | null;
      /** Found at the spooler by a lookup instead of sent now: its PDF is kept as it was. */
      readonly found: boolean;
    }
  /**
   * A transient failure with tries left: back in line at `at` (epoch ms). `at` is null while
   * automatic printing is paused: the job is held until resume instead.
   */
  | { readonly kind: 'retryAt'; readonly at: number | null; readonly reason: AgentMessage; readonly requestId: string | null }
  /** The printer as a whole is down (confirmed by its readiness): the line waits on it. */
  | { readonly kind: 'printerDown'; readonly advice: AgentMessage }
  /** A printer that was down answers ready again: its line moves. */
  | { readonly kind: 'printerUp' }
  /** A bug: the step's line is parked as if its printer were down, and it is reported. */
  | { readonly kind: 'fault'; readonly error: unknown }
  /** The job failed for a person to look at. */
  | { readonly kind: 'failed'; readonly reason: AgentMessage; readonly requestId: string | null }
  /**
   * The job ends `canceled`: its shipment was canceled (`by` who), or the shipment has no such
   * document (`by` null).
   */
  | {
      readonly kind: 'canceled';
      readonly reason: AgentMessage | null;
      readonly requestId: string | null;
      readonly by: 'station' | 'service' | null;
    }
  /** The ledger could not take the step's write: nothing was done, every line waits on the ledger. */
  | { readonly kind: 'ledgerDown'; readonly error: unknown }
  /** The engine was stopped before the hand-over: nothing was sent, the job stays in its line. */
  | { readonly kind: 'stopped' }
  /** The job was taken from the step while it ran (canceled, held, moved, the engine stopped): nothing to do. */
  | { readonly kind: 'disowned' };

export type OutcomeKind = StepOutcome['kind'];

/** One member of a batch and what happened to it alone. */
export interface MemberOutcome {
  readonly entry: Entry;
  readonly outcome: StepOutcome;
}

/**
 * What a batch's step (batching.ts) says happened to the batch: to all its members alike, or,
 * where they differ, to each (`released`, `dissolved`). The runner settles it (`settleBatch`).
 */
export type BatchOutcome =
  /** The batch's PDF is in memory: every member is ready for the spooler. */
  | { readonly kind: 'fetched'; readonly pdf: Uint8Array; readonly at: number }
  /** The spooler has the batch (sent now, or found under the batch id): every member leaves its line. */
  | { readonly kind: 'handedOver'; readonly spoolerJobId: string | null; readonly completed: boolean; readonly note: string | null }
  /**
   * Nothing of the batch was sent: `settled` end as each says (a member found canceled), and
   * `members` leave the batch and wait to be fetched again, each on its own from now on when
   * `alone` (the service refused the batch).
   */
  | { readonly kind: 'released'; readonly members: readonly Entry[]; readonly alone: boolean; readonly settled: readonly MemberOutcome[] }
  /** The batch's spool failed: it is dissolved, and every member goes on alone with its own outcome. */
  | { readonly kind: 'dissolved'; readonly outcomes: readonly MemberOutcome[] }
  /** The printer as a whole is down: the batch keeps its place, its PDF and its tries; the line waits on it. */
  | { readonly kind: 'printerDown'; readonly advice: AgentMessage }
  /** The engine was stopped before the hand-over: nothing was sent, the batch stays ready in its line. */
  | { readonly kind: 'stopped' }
  /** The ledger could not take the batch's write: nothing was sent, every line waits on the ledger. */
  | { readonly kind: 'ledgerDown'; readonly error: unknown }
  /** A bug: the batch stays ready, its line is parked as if its printer were down, and it is reported. */
  | { readonly kind: 'fault'; readonly error: unknown }
  /** The engine was stopped while the batch was fetched: nothing to do. */
  | { readonly kind: 'disowned' };
