/**
 * The demo's scale, in the process (no hardware, no pty): it follows the demo's drafts as a
 * packer would. When a draft is opened at the packing table (scanned), its parcels go on the
 * scale one after another — in motion for a moment, then still at the parcel's weight — and
 * once the shipment's label has printed the parcel is taken off (in motion, then zero). So the
 * weight box, the state bar and "Book when the weight is stable" can be seen working without a
 * scale. `npm run demo -- --scale sim` uses it; the scale then reads as SIMULATED_SCALE_URI.
 */
import type { AgentEvent } from '../../shared/agent-api';
import type { DraftView } from '../../shared/domain';
import type { ScaleAnswer, ScaleDevice, ScaleOpener } from '../devices/scale-device';

/** The URI the simulated scale is shown under (never opened: the demo's opener answers for it). */
export const SIMULATED_SCALE_URI = 'serial:demo-scale';
/** What `--scale` says to get it in the demo. */
export const SIMULATED_SCALE_WORD = 'sim';

export interface SimulatedScaleOptions {
  /** @default Date.now */
  readonly now?: () => number;
  /** How long a parcel moves after it is put on, before it holds still. @default 1200 */
  readonly settleMs?: number;
  /** How long a parcel moves while it is taken off. @default 600 */
  readonly liftMs?: number;
  /** How long the scale reads empty between one parcel taken off and the next put on. @default 500 */
  readonly gapMs?: number;
  /** How long each parcel but the last of a draft stays still before the next is put on. @default 4000 */
  readonly parcelMs?: number;
  /** The last parcel comes off by itself after this long when no label prints (the packer walked away). @default 60000 */
  readonly stayMs?: number;
  /** How often the scale answers a read (its update rate). @default 100 */
  readonly updateMs?: number;
}

/** From `at` on, the scale says `grams` (null: empty), still or moving. */
interface Step {
  readonly at: number;
  readonly grams: number | null;
  readonly stable: boolean;
}

const weight = (grams: number, stable: boolean): ScaleAnswer => ({
  kind: 'sample',
  sample: { kind: 'weight', stable, weight: { value: grams, decimals: 3, unit: 'kg' } },
});

/** Label jobs in these states have reached the printer. */
const PRINTED = new Set(['spooled', 'completed']);

export class SimulatedScale {
  private readonly now: () => number;
  private readonly settleMs: number;
  private readonly liftMs: number;
  private readonly parcelMs: number;
  private readonly gapMs: number;
  private readonly stayMs: number;
  private readonly updateMs: number;
  /** What the scale says from when, in time order; before the first step it is empty. */
  private steps: Step[] = [];
  /** The draft whose parcels are on the scale (or about to be), until its label prints. */
  private shipmentId: string | null = null;

  constructor(options: SimulatedScaleOptions = {}) {
    this.now = options.now ?? Date.now;
    this.settleMs = options.settleMs ?? 1200;
    this.liftMs = options.liftMs ?? 600;
    this.parcelMs = options.parcelMs ?? 4000;
    this.gapMs = options.gapMs ?? 500;
    this.stayMs = options.stayMs ?? 60_000;
    this.updateMs = options.updateMs ?? 100;
  }

  /**
   * A draft was opened at the packing table: whatever is on the scale comes off, then the
   * draft's parcels go on one after another, the last staying until its label prints. The
   * same draft opened again (a second window, a refresh) changes nothing.
   */
  draftOpened(draft: DraftView): void {
    const shipmentId = draft.shipment.id;
    if (this.shipmentId === shipmentId) return;
    this.shipmentId = shipmentId;
    const parcels = parcelGrams(draft);
    const now = this.now();
    // What the last draft still had coming (its next parcel, its lift) is off: this draft has the scale.
    this.steps = this.steps.filter((s) => s.at <= now);
    let at = this.stepAt(now).grams === null ? now : this.takeOff(now) + this.gapMs;
    parcels.forEach((grams, i) => {
      this.add({ at, grams: Math.round(grams * 0.8), stable: false });
      this.add({ at: at + this.settleMs, grams, stable: true });
      const last = i === parcels.length - 1;
      at = this.takeOff(at + this.settleMs + (last ? this.stayMs : this.parcelMs), grams) + this.gapMs;
    });
  }

  /** The label of the shipment on the scale printed: its parcel comes off now. */
  labelPrinted(shipmentId: string): void {
    if (this.shipmentId !== shipmentId) return;
    this.shipmentId = null;
    const now = this.now();
    const on = this.stepAt(now);
    this.steps = this.steps.filter((s) => s.at <= now);
    if (on.grams !== null) this.takeOff(now, on.grams);
  }

  /** Follows the agent's events: a label job of the shipment on the scale that reached the printer. */
  onAgentEvent(event: AgentEvent): void {
    if (event.type === 'job' && event.job.documentType === 'label' && PRINTED.has(event.job.state)) {
      this.labelPrinted(event.job.shipmentId);
    }
  }

  /** What the scale says now. */
  answer(): ScaleAnswer {
    const step = this.stepAt(this.now());
    return step.grams === null ? weight(0, true) : weight(step.grams, step.stable);
  }

  /** The monitor's opener: every open gives a device reading this scale. */
  opener(): ScaleOpener {
    return async () => {
      const device: ScaleDevice = {
        read: async () => {
          await new Promise((resolve) => setTimeout(resolve, this.updateMs));
          return this.answer();
        },
        async identify() {
          return 'Print Station demo scale (simulated)';
        },
        garbage: 0,
        command: null,
        sendsByItself: true,
        lost: new Promise<Error>(() => undefined),
        async close() {},
      };
      return device;
    };
  }

  /** Takes off what is on the scale at `at` (given, or as the steps say); returns when it reads empty. */
  private takeOff(at: number, grams: number | null = this.stepAt(at).grams): number {
    if (grams === null) return at;
    this.steps = this.steps.filter((s) => s.at < at);
    this.add({ at, grams: Math.round(grams * 0.4), stable: false });
    this.add({ at: at + this.liftMs, grams: null, stable: true });
    return at + this.liftMs;
  }

  private add(step: Step): void {
    this.steps.push(step);
  }

  private stepAt(t: number): Step {
    return this.steps.findLast((s) => s.at <= t) ?? { at: 0, grams: null, stable: true };
  }
}

/**
 * The draft's parcels in grams: each package's weight where the draft has one; a package
 * without (the demo's "no weight yet" drafts) weighs what its shipment id makes it, 0.5 to
 * 4 kg, the same at every scan.
 */
function parcelGrams(draft: DraftView): number[] {
  const packages = draft.packages.length > 0 ? draft.packages : [{ weightKg: null }];
  return packages.map((p, i) =>
    p.weightKg !== null && p.weightKg > 0 ? Math.round(p.weightKg * 1000) : 500 + (hash(`${draft.shipment.id}/${i}`) % 3501),
  );
}

function hash(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}
