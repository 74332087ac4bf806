import { englishOf, type AgentMessage } from '../../shared/agent-messages';
import type { LabelLayout } from '../../shared/domain';
import { backoffDelay } from '../retry/backoff';
import { PRINTER_PROBE } from '../retry/policies';
import { AUTO_TRIGGERS, type JobRecord } from '../ledger/job-record';

/** A job the queue is working on, in memory (the ledger row is the durable truth). */
export interface Entry {
  readonly id: string;
  readonly seq: number;
  /** Epoch ms the lane is ordered by: when the shipment was booked, else when the job was made. */
  readonly orderAt: number;
  /**
   * Nanoseconds within `orderAt`'s millisecond (the service sends booking times to the
   * nanosecond; Date keeps milliseconds): two bookings in one millisecond keep their order.
   */
  readonly orderNanos: number;
  readonly shipmentId: string;
  /** The shipment's reference (a folder names its file by it). */
  readonly reference: string | null;
  readonly documentType: string;
  readonly layout: LabelLayout;
  readonly target: string;
  readonly copies: number;
  /** Made by intake (webhook, poll): held while automatic printing is paused. */
  readonly auto: boolean;
  /** waiting: needs a PDF; fetching; ready: PDF in memory; spooling: being handed over. */
  phase: 'waiting' | 'fetching' | 'ready' | 'spooling';
  pdf: Uint8Array | null;
  /** Epoch ms before which the job does not run again (backoff). */
  notBefore: number;
  /** Tries since the job was (re)queued by start(), submit or a manual retry. */
  tries: number;
  /** The current try is already counted in the ledger's `attempts`. */
  tryCounted: boolean;
  /** spool() may have reached the spooler: look the job up by title before sending again. */
  spoolUncertain: boolean;
  /** Bumped to disown a fetch in progress (cancel, stop). */
  token: number;
  /** The batch the ledger records for the job (a spool attempt of it is looked up by this id). */
  batchId: string | null;
  /** The batch in memory while it is fetched, ready or spooled (batching.ts). */
  batch: Batch | null;
  /** A batch with this job was refused: it is fetched alone from now on. */
  alone: boolean;
  /**
   * Epoch ms the shipment was last known booked: queued, or its PDF fetched (the service
   * renders no label for a canceled shipment), or asked about before spooling (cancel-check.ts).
   */
  checkedAt: number;
}

/** Jobs fetched with one print call and spooled as one job; members are consecutive in their lane. */
export interface Batch {
  readonly id: string;
  readonly members: readonly Entry[];
  pdf: Uint8Array | null;
}

export function entryFrom(job: JobRecord, now: number): Entry {
  const notBefore = job.nextAttemptAt ? Date.parse(job.nextAttemptAt) : 0;
  return {
    id: job.id,
    seq: job.seq,
    orderAt: orderTime(job),
    orderNanos: subMillisecondNanos(job.bookedAt),
    shipmentId: job.shipmentId,
    reference: job.reference ?? null,
    documentType: job.documentType,
    layout: job.layout,
    target: job.target,
    copies: job.copies,
    auto: AUTO_TRIGGERS.includes(job.trigger),
    phase: 'waiting',
    pdf: null,
    notBefore: Number.isFinite(notBefore) && notBefore > now ? notBefore : 0,
    tries: 0,
    tryCounted: false,
    spoolUncertain: job.spoolAttempted,
    token: 0,
    batchId: job.batchId ?? null,
    batch: null,
    alone: false,
    checkedAt: now,
  };
}

/** The printer as a whole cannot take jobs: the line waits on it, not on its jobs' attempts. */
export interface PrinterDown {
  /** What to do, as the printer said it (start CUPS, cupsenable Q, give write access): the English of `message`. */
  advice: string;
  /** The same as a message code, for the UI's languages. */
  message: AgentMessage;
  /** Readiness probes that found it still down since it went down. */
  probes: number;
  /** Epoch ms of the next readiness probe. */
  nextProbeAt: number;
  /** Set when a step threw something unexpected (not the printer): nothing is fetched ahead either until the probe. */
  fault?: boolean;
}

/**
 * One target's line of jobs, kept in booking order (`orderAt`: booked_at, else creation
 * time), then creation order (`seq`); see insert(). The head is the only job that may be
 * handed to the spooler; the first `lookahead` jobs may be fetched ahead.
 */
export class Lane {
  readonly entries: Entry[] = [];
  spooling: Promise<void> | null = null;
  /**
   * Set while the printer is unreachable (scheduler down, queue stopped, folder not
   * writable): nothing is handed over, and one readiness probe, with backoff, decides when
   * the line moves again. Its jobs keep their attempts and their place.
   */
  down: PrinterDown | null = null;
  /** A readiness probe in progress. */
  probing: Promise<void> | null = null;
  /** Steps of this line that threw something unexpected since it last handed a job over: their backoff exponent. */
  faults = 0;

  constructor(readonly target: string) {}

  /** The printer was found down (again): the next probe after a backoff that doubles up to `maxMs`. */
  markDown(message: AgentMessage, now: number, baseMs: number, maxMs: number): PrinterDown {
    const probes = this.down ? this.down.probes + 1 : 0;
    const delay = backoffDelay({ ...PRINTER_PROBE, baseMs, maxMs }, probes);
    this.down = { advice: englishOf(message), message, probes, nextProbeAt: now + delay };
    return this.down;
  }

  /**
   * A step threw something unexpected (a bug, not the printer): the line stops, fetching
   * ahead as well, until a readiness probe after a backoff that doubles with each such
   * failure up to `maxMs`, so a step that keeps failing cannot keep the process busy.
   */
  markFault(message: AgentMessage, now: number, baseMs: number, maxMs: number): PrinterDown {
    this.faults += 1;
    const delay = backoffDelay({ ...PRINTER_PROBE, baseMs, maxMs }, this.faults - 1);
    this.down = { advice: englishOf(message), message, probes: 0, nextProbeAt: now + delay, fault: true };
    return this.down;
  }

  /**
   * Keeps the line in booking order. Webhook deliveries can arrive out of order (spec,
   * Events 4), so a job is placed by when its shipment was booked, not by arrival; ties
   * and jobs without a booking time (reprints) go by creation order. A job never jumps
   * ahead of a head (or a batch) that is already being handed to the spooler. New jobs usually belong
   * at the end, so that is checked first.
   */
  insert(entry: Entry): void {
    const list = this.entries;
    const last = list[list.length - 1];
    if (!last || before(last, entry)) {
      list.push(entry);
      return;
    }
    // Nor among the members of a batch being handed over (they lead the line together).
    let lo = 0;
    while (lo < list.length && list[lo]!.phase === 'spooling') lo++;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(list[mid]!, entry)) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, entry);
  }

  remove(entry: Entry): void {
    const i = this.entries[0] === entry ? 0 : this.entries.indexOf(entry);
    if (i === 0) this.entries.shift();
    else if (i > 0) this.entries.splice(i, 1);
  }

  get head(): Entry | undefined {
    return this.entries[0];
  }
}

function before(a: Entry, b: Entry): boolean {
  if (a.orderAt !== b.orderAt) return a.orderAt < b.orderAt;
  if (a.orderNanos !== b.orderNanos) return a.orderNanos < b.orderNanos;
  return a.seq < b.seq;
}

/** The digits of an RFC 3339 fraction past the milliseconds, as nanoseconds (0 when none). */
function subMillisecondNanos(timestamp: string | null): number {
  const fraction = timestamp ? /\.(\d+)(?:Z|z|[+-]\d{2}:\d{2})$/.exec(timestamp.trim())?.[1] : undefined;
  return fraction ? Number(fraction.slice(3, 9).padEnd(6, '0')) : 0;
}

function orderTime(job: JobRecord): number {
  const booked = job.bookedAt ? Date.parse(job.bookedAt) : NaN;
  return Number.isFinite(booked) ? booked : Date.parse(job.createdAt) || 0;
}
