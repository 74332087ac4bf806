import type { JobState } from '../../shared/domain';
import { codedOnly, englishOf } from '../../shared/agent-messages';
import type { JobPatch } from './job-record';

/**
 * The UPDATE of one job transition: it writes only the columns the patch gives (with the
 * state and the time), and RETURNING hands back the row as stored, so no SELECT is needed
 * before or after. The SQL depends only on which fields the patch has, so a handful of
 * statements, prepared once each, serve every transition. In SET, a column read is its
 * value before this UPDATE.
 */
export function transitionUpdate(state: JobState, patch: JobPatch, updatedAt: string): { sql: string; args: unknown[] } {
  const sets = ['state = ?', 'updated_at = ?'];
  const args: unknown[] = [state, updatedAt];
  const set = (column: string, value: unknown): void => {
    sets.push(`${column} = ?`);
    args.push(value);
  };
  if (patch.reason !== undefined) {
    const reason = reasonColumns(patch.reason);
    set('reason', reason.text);
    set('reason_message', reason.json);
  }
  if (patch.requestId !== undefined) set('request_id', patch.requestId);
  if (patch.attempts !== undefined) set('attempts', patch.attempts);
  else if (patch.incrementAttempts) sets.push('attempts = attempts + 1');
  if (patch.spoolerJobId !== undefined) set('spooler_job_id', patch.spoolerJobId);
  if (patch.nextAttemptAt !== undefined) set('next_attempt_at', patch.nextAttemptAt);
  if (patch.held !== undefined) set('held', patch.held ? 1 : 0);
  if (patch.spoolAttempted !== undefined) set('spool_attempted', patch.spoolAttempted ? 1 : 0);
  if (patch.batchId !== undefined) set('batch_id', patch.batchId);
  else if (state === 'queued') {
    // Queued again with no spool attempt: nothing of its batch can be at the spooler, it leaves it.
    if (patch.spoolAttempted === false) sets.push('batch_id = NULL');
    else if (patch.spoolAttempted === undefined) sets.push('batch_id = CASE WHEN spool_attempted = 0 THEN NULL ELSE batch_id END');
  }
  if (patch.target !== undefined) set('target', patch.target);
  if (patch.layout !== undefined) set('layout', patch.layout);
  return { sql: `UPDATE jobs SET ${sets.join(', ')} WHERE id = ? RETURNING *`, args };
}

/** The reason's two columns: its English text, and its code as JSON (null for plain text). */
function reasonColumns(reason: NonNullable<JobPatch['reason']> | null): { text: string | null; json: string | null } {
  if (reason === null || typeof reason === 'string') return { text: reason, json: null };
  // Bare text has no code to store: the row reads like one written before codes.
  const message = codedOnly(reason);
  return { text: englishOf(reason), json: message ? JSON.stringify(message) : null };
}
