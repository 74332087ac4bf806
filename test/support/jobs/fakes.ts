import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LabelLayout } from '../../../src/shared/domain';
import type { PrinterTarget, SpoolRequest, SpoolResult, SpoolerJobState } from '../../../src/main/printing/target';
import type { PdfFetcher, PrintFileRequest } from '../../../src/main/jobs/ports';
import type { BookingNotice } from '../../../src/main/ledger/booking-notice';

export function tempDir(prefix = 'ps-jobs-', parent = os.tmpdir()): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(parent, prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function notice(shipmentId: string, trigger: 'webhook' | 'poll' = 'webhook', extra: Partial<BookingNotice> = {}): BookingNotice {
  return {
    shipmentId,
    referenceId: `REF-${shipmentId}`,
    trackingId: `TRK${shipmentId}`,
    carrier: 'DHL',
    source: 'API',
    senderReference: null,
    system: null,
    bookedAt: new Date().toISOString(),
    trigger,
    ...extra,
  };
}

/**
 * A fetcher whose behaviour per call is scripted: `plan(req, call)` returns a delay and
 * optionally an error to throw. The PDF bytes name the shipment so prints can be checked.
 */
export class ScriptedFetcher implements PdfFetcher {
  readonly calls: PrintFileRequest[] = [];
  private readonly perShipment = new Map<string, number>();
  active = 0;
  maxActive = 0;

  constructor(private readonly plan: (req: PrintFileRequest, call: number) => { delayMs?: number; error?: unknown } = () => ({})) {}

  async printFile(req: PrintFileRequest): Promise<{ pdf: Uint8Array; requestId: string | null }> {
    this.calls.push(req);
    const id = req.shipment_ids[0]!;
    const call = (this.perShipment.get(id) ?? 0) + 1;
    this.perShipment.set(id, call);
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      const { delayMs = 0, error } = this.plan(req, call);
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      if (error) throw error;
      return { pdf: new TextEncoder().encode(`%PDF ${id} ${req.document_type} ${req.label_layout}`), requestId: `req-${id}-${call}` };
    } finally {
      this.active -= 1;
    }
  }

  callsFor(shipmentId: string): number {
    return this.perShipment.get(shipmentId) ?? 0;
  }
}

export interface Spooled {
  readonly jobId: string;
  readonly title: string;
  readonly shipmentId: string;
  readonly documentType: string;
  readonly layout: LabelLayout;
  readonly media: string;
  readonly pdfText: string | null;
  readonly spoolerJobId: string;
}

/**
 * An in-memory spooler: records what it was given, in order. `completedOnSpool` behaves
 * like a folder target; otherwise jobs report `pending` until `finish()`. `failNext`
 * / `offline` inject spool errors; `existing` pre-seeds jobs a previous run spooled.
 */
export class MemoryTarget implements PrinterTarget {
  readonly kind = 'folder' as const;
  readonly needsPdf = true;
  readonly spooled: Spooled[] = [];
  private readonly states = new Map<string, SpoolerJobState>();
  private readonly byJobId = new Map<string, { spoolerJobId: string; state: SpoolerJobState }>();
  offlineError: unknown = null;
  /** When set, findSpooled throws it (a spooler that cannot be asked, e.g. a broken folder). */
  findError: unknown = null;
  spoolDelayMs = 0;
  findCalls: string[] = [];
  private counter = 0;

  constructor(
    readonly uri: string,
    private readonly completedOnSpool = true,
  ) {}

  async spool(request: SpoolRequest): Promise<SpoolResult> {
    if (this.spoolDelayMs) await new Promise((r) => setTimeout(r, this.spoolDelayMs));
    if (this.offlineError) throw this.offlineError;
    const spoolerJobId = `${this.uri}-${++this.counter}`;
    this.spooled.push({
      jobId: request.jobId,
      title: request.title,
      shipmentId: request.shipmentId,
      documentType: request.documentType,
      layout: request.layout,
      media: request.media,
      pdfText: request.pdf ? new TextDecoder().decode(request.pdf) : null,
      spoolerJobId,
    });
    const state: SpoolerJobState = this.completedOnSpool ? 'completed' : 'pending';
    this.states.set(spoolerJobId, state);
    this.byJobId.set(request.jobId, { spoolerJobId, state });
    return { spoolerJobId, completed: this.completedOnSpool };
  }

  /** Pretend a previous run of the agent already spooled this job (crash before the ledger heard). */
  seedSpooled(jobId: string, state: SpoolerJobState = 'pending'): string {
    const spoolerJobId = `${this.uri}-seed-${++this.counter}`;
    this.states.set(spoolerJobId, state);
    this.byJobId.set(jobId, { spoolerJobId, state });
    return spoolerJobId;
  }

  finish(spoolerJobId: string, state: SpoolerJobState = 'completed'): void {
    this.states.set(spoolerJobId, state);
    for (const [jobId, v] of this.byJobId) if (v.spoolerJobId === spoolerJobId) this.byJobId.set(jobId, { spoolerJobId, state });
  }

  async jobState(spoolerJobId: string): Promise<SpoolerJobState> {
    return this.states.get(spoolerJobId) ?? 'unknown';
  }

  async findSpooled(jobId: string): Promise<{ spoolerJobId: string; state: SpoolerJobState } | null> {
    this.findCalls.push(jobId);
    if (this.findError) throw this.findError;
    return this.byJobId.get(jobId) ?? null;
  }

  async readiness(): Promise<{ ready: boolean; detail: string | null }> {
    return { ready: !this.offlineError, detail: null };
  }

  shipments(): string[] {
    return this.spooled.map((s) => s.shipmentId);
  }
}
