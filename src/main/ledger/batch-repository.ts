import type Database from 'better-sqlite3';

/** A batch as the ledger records it (table `batches`, migration 4). */
export interface BatchSpec {
  readonly id: string;
  readonly target: string;
  readonly documentType: string;
  readonly layout: string;
  /** The member job ids, in lane order. */
  readonly jobIds: readonly string[];
}

export type BatchState = 'claimed' | 'spooling' | 'spooled' | 'dissolved';

/**
 * The ledger's batches (jobs/batching.ts). Members are claimed in one transaction, each
 * with a `batch_id IS NULL` guard: a job is in one batch at most, and a claim that finds
 * any member taken claims none.
 */
export class BatchRepository {
  private readonly s;
  private readonly claimTx;

  constructor(
    db: Database.Database,
    private readonly now: () => Date,
  ) {
    this.s = {
      insert: db.prepare(`INSERT INTO batches (id, target, document_type, layout, state, created_at, updated_at)
        VALUES (@id, @target, @documentType, @layout, 'claimed', @now, @now)`),
      claim: db.prepare("UPDATE jobs SET batch_id = ? WHERE id = ? AND batch_id IS NULL AND state = 'queued'"),
      setState: db.prepare('UPDATE batches SET state = ?, spooler_job_id = COALESCE(?, spooler_job_id), updated_at = ? WHERE id = ?'),
      release: db.prepare("UPDATE jobs SET batch_id = NULL WHERE batch_id = ? AND spool_attempted = 0 AND state IN ('queued', 'fetching')"),
      prune: db.prepare(
        "DELETE FROM batches WHERE state IN ('spooled', 'dissolved') AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.batch_id = batches.id)",
      ),
      get: db.prepare('SELECT id, target, document_type, layout, state, spooler_job_id FROM batches WHERE id = ?'),
    };
    this.claimTx = db.transaction((spec: BatchSpec): boolean => {
      this.s.insert.run({ ...spec, now: this.now().toISOString() });
      for (const id of spec.jobIds) {
        if (this.s.claim.run(spec.id, id).changes !== 1) throw new ClaimRefused();
      }
      return true;
    });
  }

  /** Records the batch and claims every member, or nothing (false) when one is taken or no longer queued. */
  claimBatch(spec: BatchSpec): boolean {
    try {
      return this.claimTx(spec);
    } catch (error) {
      if (error instanceof ClaimRefused) return false;
      throw error;
    }
  }

  batchState(id: string, state: BatchState, spoolerJobId: string | null = null): void {
    this.s.setState.run(state, spoolerJobId, this.now().toISOString(), id);
  }

  /** The batch is given up: members not yet sent leave it (they are fetched one by one). */
  dissolveBatch(id: string): void {
    this.s.release.run(id);
    this.batchState(id, 'dissolved');
  }

  /** Retention: a finished batch goes with the last of its member jobs. */
  prune(): number {
    return this.s.prune.run().changes;
  }

  getBatch(
    id: string,
  ): { id: string; target: string; document_type: string; layout: string; state: BatchState; spooler_job_id: string | null } | null {
    return (this.s.get.get(id) as ReturnType<BatchRepository['getBatch']> | undefined) ?? null;
  }
}

class ClaimRefused extends Error {}
