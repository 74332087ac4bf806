import { agentMessage, type AgentMessage } from '../../shared/agent-messages';
import { API_ERROR_CODES } from '../api/errors';
import { PRINT_ERROR_CODES } from '../printing/errors';
import { backoffDelay } from '../retry/backoff';
import { JOB_FETCH } from '../retry/policies';
import { classifyFailure, messageOf } from './failure';
import type { Entry, Lane, PrinterDown } from './lane';
import type { PipelineContext } from './pipeline-context';

/*
 * Where a job goes after a fetch or spool failed: back in line after a backoff (transient,
 * tries left), `failed` with the reason and request id (permanent, out of tries, or a
 * handover that may have printed on a target that cannot be asked), or `canceled` (an
 * automatic job for a document the shipment does not have). failure.ts says what an error
 * is; this module turns that into the job's next state, apart from the queue that runs it.
 */

export class JobFailures {
  /** The fetcher is asked which documents a shipment has, when it can say. */
  constructor(private readonly context: Pick<PipelineContext, 'settings' | 'queue' | 'guard' | 'fetcher'>) {}

  /** Retry after a backoff while the failure is transient and tries are left; else fail. */
  onFailure(entry: Entry, error: unknown): void {
    const o = this.context.settings;
    entry.tryCounted = false;
    const failure = classifyFailure(error);
    if (failure.transient && entry.tries < o.maxAttempts) {
      const policy = { ...JOB_FETCH, baseMs: o.retryBaseMs, maxMs: o.retryMaxMs };
      const delay = failure.retryAfterMs ?? backoffDelay(policy, entry.tries - 1, o.random);
      if (entry.auto && this.context.queue.isAutoPaused()) {
        // It was being handed over when printing was paused: it waits for resume with the rest.
        this.context.queue.drop(entry);
        const patch = {
          reason: agentMessage('job.heldRetry', { cause: failure.agentMessage }),
          requestId: failure.requestId,
          held: true,
          nextAttemptAt: null,
        };
        this.context.guard.orDefer(() => this.context.guard.write(entry.id, 'queued', patch));
        return;
      }
      entry.notBefore = this.context.queue.nowMs() + delay;
      entry.phase = entry.pdf ? 'ready' : 'waiting';
      // If this write fails the row keeps its last state (spool_attempted included), which
      // is as safe: the job stays in line and is looked up before any resend.
      this.context.guard.write(entry.id, 'queued', {
        reason: agentMessage('job.retrying', { cause: failure.agentMessage, delayMs: delay }),
        requestId: failure.requestId,
        nextAttemptAt: new Date(entry.notBefore).toISOString(),
      });
      return;
    }
    const reason = failure.transient
      ? agentMessage('job.gaveUp', { cause: failure.agentMessage, attempts: entry.tries })
      : failure.agentMessage;
    this.fail(entry, reason, failure.requestId);
  }

  /**
   * The error says the whole printer is down (PrintError.printerDown), and the job may wait
   * on it: not while automatic printing is paused, which holds the job instead.
   */
  waitsForPrinter(entry: Entry, error: unknown): boolean {
    if (entry.auto && this.context.queue.isAutoPaused()) return false;
    return typeof error === 'object' && error !== null && (error as { printerDown?: unknown }).printerDown === true;
  }

  /**
   * A readiness probe confirmed the printer is down: the job keeps its place at the head,
   * its PDF and its try (the try is not over until the printer has had the job), and the
   * line waits on the printer. The advice is what the printer said, every time.
   */
  waitForPrinter(lane: Lane, entry: Entry, advice: AgentMessage): void {
    const o = this.context.settings;
    entry.phase = entry.pdf ? 'ready' : 'waiting';
    entry.notBefore = 0;
    this.showWait(entry, lane.markDown(advice, this.context.queue.nowMs(), o.retryBaseMs, o.retryMaxMs));
  }

  /** The job at the head of a line that waits on its printer says why, and when it is looked at again. */
  showWait(entry: Entry, down: PrinterDown): void {
    const delayMs = Math.max(0, down.nextProbeAt - this.context.queue.nowMs());
    // Informational: if the ledger cannot take it, the job still waits in its line.
    this.context.guard.tryWrite(entry.id, 'queued', {
      reason: agentMessage('job.waitingForPrinter', { advice: down.message, delayMs }),
      requestId: null,
      nextAttemptAt: new Date(down.nextProbeAt).toISOString(),
    });
  }

  fail(entry: Entry, reason: AgentMessage, requestId: string | null): void {
    this.context.queue.drop(entry);
    this.context.guard.orDefer(() => this.context.guard.write(entry.id, 'failed', { reason, requestId, nextAttemptAt: null }));
  }

  /**
   * The target cannot be asked what it printed (service printers): after a timeout or a
   * 5xx the document may be out, so a person decides instead of an automatic resend.
   */
  failUnconfirmed(entry: Entry, error: unknown): void {
    const failure = classifyFailure(error);
    this.fail(entry, mayHavePrinted(failure.agentMessage), failure.requestId);
  }

  /**
   * The job's printer cannot be set up (an invalid or unsupported URI). A job that may
   * already have been handed to it before a restart says so: a person checks the printer
   * before retrying, or the label could come out twice.
   */
  failNoTarget(entry: Entry, error: Error): void {
    this.fail(entry, entry.spoolUncertain ? mayHavePrinted(messageOf(error)) : messageOf(error), null);
  }

  /**
   * An automatic job for a document type the shipment does not have (e.g. customsinvoice
   * on an EU shipment; the service answers 422): nothing to print, so the job ends
   * `canceled`, not `failed`: no error state, no notification.
   */
  async lacksDocument(entry: Entry, error: unknown): Promise<boolean> {
    if (!entry.auto) return false; // asked for by a person: say why it failed
    const e = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; serviceMessage?: unknown };
    if (e.status !== 422) return false;
    const type = entry.documentType.toLowerCase();
    const lookup = this.context.fetcher.availableDocuments;
    if (lookup) {
      try {
        const types = await lookup.call(this.context.fetcher, entry.shipmentId);
        return !types.some((t) => t.toLowerCase() === type);
      } catch {
        // cannot ask: fall back to what the service said
      }
    }
    // The spec names no error codes; the sandbox (and its message) say document_type_unavailable.
    const said = typeof e.serviceMessage === 'string' ? e.serviceMessage.toLowerCase() : '';
    return said.includes('document_type_unavailable') || said.includes(`no ${type}`);
  }

  skipMissing(entry: Entry, error: unknown): void {
    this.context.queue.drop(entry);
    const requestId = classifyFailure(error).requestId;
    const patch = { reason: agentMessage('job.noDocument', { documentType: entry.documentType }), requestId, nextAttemptAt: null };
    this.context.guard.orDefer(() => this.context.guard.write(entry.id, 'canceled', patch));
  }
}

/** The English says "may have printed" once: a cause that already says it is kept as it is (agent-messages.ts). */
function mayHavePrinted(cause: AgentMessage): AgentMessage {
  return agentMessage('job.mayHavePrinted', { cause });
}

/** A failure after which the request may or may not have taken effect. */
export function isAmbiguous(error: unknown): boolean {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; status?: unknown; retryAfterMs?: unknown };
  if (e.code === API_ERROR_CODES.TIMEOUT || e.code === API_ERROR_CODES.NETWORK || e.code === API_ERROR_CODES.INVALID_RESPONSE) return true;
  if (e.code === PRINT_ERROR_CODES.MAY_HAVE_PRINTED) return true;
  // A 5xx may come from a gateway after the service printed. A 503 with Retry-After is the
  // service refusing up front ("label not ready"), so only that one is safe to send again.
  return e.code === API_ERROR_CODES.UNAVAILABLE && !(e.status === 503 && typeof e.retryAfterMs === 'number');
}
