import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/api/errors';
import { cancelJob } from '../../../src/main/jobs/commands/cancel';
import { pause, resume } from '../../../src/main/jobs/commands/pause';
import { start, stop } from '../../../src/main/jobs/commands/start';
import { submitBooking } from '../../../src/main/jobs/commands/submit';
import { Engine } from '../../../src/main/jobs/engine';
import type { Entry, Lane } from '../../../src/main/jobs/lane';
import type { PdfFetcher, PrintFileRequest } from '../../../src/main/jobs/ports';
import { PrintError } from '../../../src/main/printing/errors';
import { Harness, until } from '../../support/jobs/harness';
import { MemoryTarget, notice } from '../../support/jobs/fakes';

const LABELS = 'cups:labels';

/** One PDF naming every shipment of the call; `plan` may fail a call. */
class BatchFetcher implements PdfFetcher {
  readonly calls: string[][] = [];
  constructor(private readonly plan: (req: PrintFileRequest, call: number) => unknown = () => null) {}

  async printFile(req: PrintFileRequest): Promise<{ pdf: Uint8Array; requestId: string | null }> {
    this.calls.push([...req.shipment_ids]);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const error = this.plan(req, this.calls.length);
    if (error) throw error;
    return { pdf: new TextEncoder().encode(`%PDF ${req.shipment_ids.join(',')}`), requestId: `rq-${this.calls.length}` };
  }
}

const unavailable = () =>
  new ApiError('SERVICE_UNAVAILABLE', 'Service unavailable', {
    status: 503,
    requestId: 'rq-503',
    serviceMessage: 'label not ready',
    fieldErrors: {},
    retryAfterMs: null,
    method: 'POST',
    path: '/shipments/print',
  });

/** The memory target as a CUPS queue (batching is for cups and windows targets). */
function cupsTarget(): MemoryTarget {
  const target = new MemoryTarget(LABELS);
  Object.defineProperty(target, 'kind', { value: 'cups' });
  return target;
}

const LANE_FIELDS = ['down', 'faults', 'spooling', 'probing'] as const;
const LANE_METHODS = ['insert', 'remove', 'markDown', 'markFault'] as const;
const PARTS = ['steps', 'batching', 'cancelCheck', 'failures', 'spooled'] as const;

/**
 * Watches every write of a job's phase and of a line's state in a real engine, and records
 * each made while the innermost engine part running is not the runner: a step (the parts the
 * runner starts), the scheduler, a command or a timer. Each part's methods are wrapped on the
 * instance to say which part is running; a step's code after an await runs with no part on the
 * stack, and is caught as well.
 */
function watchWriters(engine: Engine): string[] {
  const running: string[] = [];
  const violations: string[] = [];
  const check = (what: string): void => {
    const who = running[running.length - 1];
    if (who !== 'runner') violations.push(`${what} written by ${who ?? 'code outside the runner'}`);
  };
  const wrapMethods = (part: object, role: string): void => {
    const proto = Object.getPrototypeOf(part) as object;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (name === 'constructor' || typeof method !== 'function') continue;
      Object.defineProperty(part, name, {
        configurable: true,
        writable: true,
        value(this: unknown, ...args: unknown[]) {
          running.push(role);
          try {
            return (method as (...a: unknown[]) => unknown).apply(this, args);
          } finally {
            running.pop();
          }
        },
      });
    }
  };
  const guardField = (owner: object, field: string, label: string): void => {
    let value = (owner as Record<string, unknown>)[field];
    Object.defineProperty(owner, field, {
      configurable: true,
      get: () => value,
      set: (next: unknown) => {
        if (next !== value) check(label);
        value = next;
      },
    });
  };

  wrapMethods(engine.runner, 'runner');
  wrapMethods(engine.scheduler, 'scheduler');
  for (const part of PARTS) wrapMethods(engine[part], `a step (${part})`);

  const setEntry = engine.entries.set.bind(engine.entries);
  engine.entries.set = (id: string, entry: Entry) => {
    check('the queue');
    if (!Object.getOwnPropertyDescriptor(entry, 'phase')?.set) guardField(entry, 'phase', `job ${entry.shipmentId}'s phase`);
    return setEntry(id, entry);
  };
  const setLane = engine.lanes.set.bind(engine.lanes);
  engine.lanes.set = (target: string, lane: Lane) => {
    check('the lines');
    for (const field of LANE_FIELDS) guardField(lane, field, `line ${target}'s ${field}`);
    for (const name of LANE_METHODS) {
      const method = lane[name].bind(lane) as (...a: unknown[]) => unknown;
      Object.defineProperty(lane, name, {
        configurable: true,
        value: (...args: unknown[]) => {
          check(`line ${target} (${name})`);
          return method(...args);
        },
      });
    }
    return setLane(target, lane);
  };
  return violations;
}

describe('the runner is the only writer of a job phase and a line state', () => {
  let h: Harness;
  let engine: Engine;
  afterEach(async () => {
    await stop(engine);
    await h.close();
  });

  function makeEngine(fetcher: PdfFetcher): MemoryTarget {
    const target = cupsTarget();
    h = new Harness(new Map([[LABELS, target]]), LABELS);
    engine = h.engine({ fetcher });
    return target;
  }

  it('through single jobs and batches, failures, a printer down and back, a cancel and a pause: no step writes them', async () => {
    // s1's fetch (alone: the first of a burst) fails once (transient); a batch with s9 in it is refused once (fetched alone after).
    const fetcher = new BatchFetcher((req) => {
      if (req.shipment_ids.length > 1 && req.shipment_ids.includes('s9')) return unavailable();
      if (req.shipment_ids.length === 1 && req.shipment_ids[0] === 's1' && !s1Failed) {
        s1Failed = true;
        return unavailable();
      }
      return null;
    });
    let s1Failed = false;
    const target = makeEngine(fetcher);
    const violations = watchWriters(engine);
    await start(engine);
    const submit = (ids: string[]) => ids.map((id) => submitBooking(engine, notice(id), ['label'])[0]!);
    const first = submit(['s1', 's2', 's3', 's4', 's5', 's6']);
    await until(() => first.every((j) => h.ledger.get(j.id)!.state === 'completed'));

    // The printer goes down: the line waits on its probe, then prints when it is back.
    target.offlineError = new PrintError('SPOOLER_UNAVAILABLE', 'start CUPS', { target: LABELS });
    const second = submit(['s7', 's8', 's9', 's10']);
    await until(() => engine.lanes.get(LABELS)?.down !== null);
    target.offlineError = null;
    await until(() => second.every((j) => h.ledger.get(j.id)!.state === 'completed'));

    // A cancel and a pause of automatic printing, then a resume.
    pause(engine, LABELS);
    const third = submit(['s11', 's12', 's13']);
    cancelJob(engine, third[0]!.id);
    pause(engine);
    resume(engine);
    resume(engine, LABELS);
    await until(() => third.slice(1).every((j) => h.ledger.get(j.id)!.state === 'completed'));

    expect(h.ledger.get(third[0]!.id)!.state).toBe('canceled');
    // The paths taken: a batch, a refused batch, a retried fetch, a printer down.
    expect(fetcher.calls.some((c) => c.length > 1)).toBe(true);
    expect(fetcher.calls.filter((c) => c.length === 1 && c[0] === 's9')).toHaveLength(1);
    expect(s1Failed).toBe(true);
    // Each label once, read from the PDFs spooled (a batch's names every member).
    const printed = target.spooled.flatMap((s) => s.pdfText!.split(' ')[1]!.split(','));
    expect(printed.sort()).toEqual(['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's10', 's12', 's13'].sort());
    expect(violations).toEqual([]);
  });

  it('a step that writes a job phase itself is caught', async () => {
    makeEngine(new BatchFetcher());
    const violations = watchWriters(engine);
    const fetch = engine.steps.fetch.bind(engine.steps);
    // The rule broken on purpose: the fetch step marks its job ready itself.
    engine.steps.fetch = async (entry, token) => {
      const outcome = await fetch(entry, token);
      entry.phase = 'ready';
      return outcome;
    };
    await start(engine);
    const [job] = submitBooking(engine, notice('s1'), ['label']);
    await until(() => h.ledger.get(job!.id)!.state === 'completed');
    expect(violations).toEqual(["job s1's phase written by code outside the runner"]);
  });
});
