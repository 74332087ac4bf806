/**
 * Book when the weight is stable (Settings → Packing, `packing.bookOnStableWeight`): the scanned
 * draft is handed to the scale, weighed parcel by parcel (place, stable, next), then its
 * packages are saved with those weights, rated, booked with the chosen (or preferred) rate and
 * its label printed once, without a key.
 *
 * Decided here in the agent, not in a window: the station has one scale and one armed draft,
 * so two windows showing the same draft join one booking, and a draft booked here is never
 * booked again however often its parcel is taken off and put back.
 *
 * Safety rules: only a `stable` reading above zero that has held for `heldMs` is a weight;
 * motion, zero, under, over and offline never are. After a weight is taken (or refused) the
 * scale must change (the parcel taken off, another placed) before it counts again. A weight the
 * service or the chosen rate does not take is shown (`refused`), never booked.
 */
import type { AgentInput } from '../../shared/agent-api';
import type { BookedView, DraftView, HandsFreeState, HandsFreeView, PackResult, RateView, RatesView } from '../../shared/domain';
import type { Logger } from '../log';
import { sameOffer } from './rate-view';

/** What hands-free booking reads from the scale (the ScaleMonitor). */
export interface HandsFreeScale {
  reading(): { readonly state: string; readonly kg: number | null; readonly since: number };
  subscribe(listener: (reading: { readonly state: string; readonly kg: number | null; readonly since: number }) => void): () => void;
}

/** The pack-and-ship steps it books with (PackFlow). */
export interface HandsFreeFlow {
  draft(input: AgentInput<'packDraft'>): Promise<PackResult<DraftView>>;
  update(input: AgentInput<'packUpdate'>): Promise<PackResult<DraftView>>;
  rates(input: AgentInput<'packRates'>): Promise<PackResult<RatesView>>;
  book(input: AgentInput<'packBook'>): Promise<PackResult<BookedView>>;
  /** The rate the packer saw under this token, from the last search. */
  rateOf(shipmentId: string, token: string): RateView | null;
}

export interface HandsFreeOptions {
  readonly flow: HandsFreeFlow;
  /** The station's scale now; null without one. */
  readonly scale: () => HandsFreeScale | null;
  /** packing.bookOnStableWeight. */
  readonly enabled: () => boolean;
  readonly log: Pick<Logger, 'info' | 'warn'>;
  /** How long a stable weight must hold before it is taken. @default 1000 */
  readonly heldMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/** Drafts booked hands-free are remembered so that arming one again books nothing: the last this many. */
const REMEMBERED = 500;

interface Session {
  readonly shipmentId: string;
  readonly parcels: number;
  chosen: RateView | null;
  servicePointToken: string | undefined;
  readonly weights: number[];
  state: HandsFreeState;
  message: string | null;
  code: string | null;
  booked: BookedView | null;
  /** The reading last taken or refused: the scale must leave it before a weight counts again. */
  taken: { state: string; kg: number | null; since: number } | null;
  timer: NodeJS.Timeout | null;
  unsubscribe: (() => void) | null;
}

export class HandsFreeBooking {
  private session: Session | null = null;
  private readonly finished = new Map<string, HandsFreeView>();
  private readonly heldMs: number;
  private readonly now: () => number;

  constructor(private readonly options: HandsFreeOptions) {
    this.heldMs = options.heldMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** Hands the draft to the scale; the same draft armed again (a second window) joins the first. */
  async arm(input: AgentInput<'packHandsFree'>): Promise<HandsFreeView> {
    const done = this.finished.get(input.shipmentId);
    if (done) return done;
    const current = this.session;
    // Still watching the scale for it: join (a draft refused for want of a package is armed anew).
    if (current?.shipmentId === input.shipmentId && current.unsubscribe) {
      // The packer picked a rate since: the scale books with it.
      if (input.token) current.chosen = this.options.flow.rateOf(input.shipmentId, input.token) ?? current.chosen;
      if (input.servicePointToken) current.servicePointToken = input.servicePointToken;
      return view(current);
    }
    const scale = this.options.scale();
    if (!this.options.enabled() || !scale) return off(input.shipmentId);
    const draft = await this.options.flow.draft({ shipmentId: input.shipmentId });
    if (!draft.ok) return { ...off(input.shipmentId), state: 'failed', message: draft.problem.message, code: draft.problem.code };
    const d = draft.value;
    if (d.stage !== 'draft')
      return { ...off(input.shipmentId), message: `The shipment is ${d.stage}: nothing to book.`, code: 'HANDS_FREE_NOT_DRAFT' };
    // Arming waited for the service: another draft may have been armed meanwhile (the later scan wins).
    if (this.session?.shipmentId === input.shipmentId && this.session.unsubscribe) return view(this.session);
    this.disarm();
    const session: Session = {
      shipmentId: input.shipmentId,
      parcels: Math.max(1, d.packages.length),
      chosen: input.token ? this.options.flow.rateOf(input.shipmentId, input.token) : null,
      servicePointToken: input.servicePointToken,
      weights: [],
      state: 'waiting',
      message: null,
      code: null,
      booked: null,
      taken: null,
      timer: null,
      unsubscribe: null,
    };
    this.session = session;
    if (!d.packages.every(chosenPackage)) {
      this.refuse(
        session,
        'HANDS_FREE_NO_PACKAGE',
        'Choose the package (its size) first: the scale books only a draft whose package is chosen.',
      );
      return view(session);
    }
    session.unsubscribe = scale.subscribe((reading) => this.follow(session, reading));
    this.follow(session, scale.reading());
    this.options.log.info(
      `pack: ${session.shipmentId} waits for a stable weight (${session.parcels} parcel${session.parcels === 1 ? '' : 's'})`,
    );
    return view(session);
  }

  status({ shipmentId }: AgentInput<'packHandsFreeStatus'>): HandsFreeView {
    const done = this.finished.get(shipmentId);
    if (done) return done;
    const s = this.session;
    return s?.shipmentId === shipmentId ? view(s) : off(shipmentId);
  }

  /** Stops watching the scale for the armed draft (another scan, the agent stopping). */
  disarm(): void {
    const s = this.session;
    if (!s) return;
    stopWatching(s);
    this.session = null;
  }

  private follow(session: Session, reading: { state: string; kg: number | null; since: number }): void {
    if (this.session !== session || session.state === 'booking' || session.state === 'booked') return;
    if (session.timer) clearTimeout(session.timer);
    session.timer = null;
    const taken = session.taken;
    if (taken && reading.state === taken.state && reading.kg === taken.kg) return;
    // The scale left the weight last taken: the next parcel (or the same one again) may be weighed.
    session.taken = null;
    if (session.state === 'refused' || session.state === 'failed') {
      session.state = 'waiting';
      session.message = null;
      session.code = null;
    }
    if (reading.state !== 'stable' || reading.kg === null || reading.kg <= 0) return;
    const left = Math.max(0, this.heldMs - (this.now() - reading.since));
    session.timer = setTimeout(() => {
      session.timer = null;
      const scale = this.options.scale();
      const now = scale?.reading();
      // Held: the very reading that started the wait is still the scale's.
      if (!now || now.since !== reading.since || now.state !== 'stable' || now.kg !== reading.kg) return;
      this.take(session, reading);
    }, left);
  }

  private take(session: Session, reading: { state: string; kg: number | null; since: number }): void {
    if (this.session !== session || session.state !== 'waiting') return;
    session.weights.push(reading.kg!);
    session.taken = reading;
    this.options.log.info(`pack: ${session.shipmentId} parcel ${session.weights.length} of ${session.parcels} weighs ${reading.kg} kg`);
    if (session.weights.length < session.parcels) return;
    session.state = 'booking';
    void this.book(session);
  }

  private async book(session: Session): Promise<void> {
    const { flow, log } = this.options;
    const weights = [...session.weights];
    try {
      const draft = await flow.draft({ shipmentId: session.shipmentId });
      if (!draft.ok) return this.retry(session, weights, draft.problem.code, draft.problem.message);
      if (draft.value.stage !== 'draft') {
        return this.retry(session, weights, 'HANDS_FREE_NOT_DRAFT', `The shipment is ${draft.value.stage}: it is not booked again.`);
      }
      const saved = await flow.update({
        shipmentId: session.shipmentId,
        packages: draft.value.packages.map((p, i) => ({
          ...(p.favoritePackageId ? { presetId: p.favoritePackageId } : {}),
          widthCm: p.widthCm ?? 0,
          heightCm: p.heightCm ?? 0,
          depthCm: p.depthCm ?? 0,
          weightKg: weights[i] ?? weights[weights.length - 1]!,
          quantity: p.quantity,
        })),
      });
      if (!saved.ok) return this.retry(session, weights, saved.problem.code, `${describeWeights(weights)}: ${saved.problem.message}`);
      const rates = await flow.rates({ shipmentId: session.shipmentId });
      if (!rates.ok) return this.retry(session, weights, rates.problem.code, `${describeWeights(weights)}: ${rates.problem.message}`);
      const rate = pick(rates.value, session.chosen);
      if (!rate) {
        const which = session.chosen ? `The ${session.chosen.carrierName} ${session.chosen.productName} rate` : 'No rate';
        return this.retry(
          session,
          weights,
          'HANDS_FREE_WEIGHT_NOT_ALLOWED',
          `${which} does not take ${describeWeights(weights)}: not booked.`,
        );
      }
      const needs = needsAKey(rate, session.servicePointToken);
      if (needs) return this.retry(session, weights, 'HANDS_FREE_NEEDS_PACKER', needs);
      const booked = await flow.book({ shipmentId: session.shipmentId, token: rate.token, servicePointToken: session.servicePointToken });
      if (!booked.ok) {
        session.state = 'failed';
        session.message = booked.problem.message;
        session.code = booked.problem.code;
        session.weights.length = 0;
        log.warn(`pack: ${session.shipmentId} was not booked on its weight: ${booked.problem.message}`);
        return;
      }
      session.state = 'booked';
      session.booked = booked.value;
      stopWatching(session);
      this.remember(view(session));
      if (this.session === session) this.session = null;
      log.info(
        `pack: ${session.shipmentId} booked on a stable weight (${describeWeights(weights)}) with ${rate.carrierName} ${rate.productName}`,
      );
    } catch (error) {
      this.retry(session, weights, 'HANDS_FREE_FAILED', (error as Error).message);
    }
  }

  /** Not booked: said, and weighed again once the scale changes. */
  private retry(session: Session, weights: readonly number[], code: string, message: string): void {
    session.weights.length = 0;
    this.refuse(session, code, message);
    this.options.log.warn(`pack: ${session.shipmentId} not booked on ${describeWeights(weights)}: ${message}`);
  }

  private refuse(session: Session, code: string, message: string): void {
    session.state = 'refused';
    session.code = code;
    session.message = message;
    // Refused on this very reading: only a change of weight tries again.
    session.taken = this.options.scale()?.reading() ?? null;
  }

  private remember(done: HandsFreeView): void {
    this.finished.set(done.shipmentId, done);
    if (this.finished.size > REMEMBERED) this.finished.delete(this.finished.keys().next().value!);
  }
}

function pick(view: RatesView, chosen: RateView | null): RateView | null {
  if (chosen) return view.rates.find((r) => sameOffer(r, chosen)) ?? null;
  return view.rates.find((r) => r.token === view.selected) ?? null;
}

/** What only the packer can give: a service point, a document to upload, another rate. */
function needsAKey(rate: RateView, servicePointToken: string | undefined): string | null {
  if (!rate.bookable)
    return `The ${rate.carrierName} ${rate.productName} rate cannot be booked with this customs payer: pick a rate and book by key.`;
  if (rate.needsServicePoint && !servicePointToken)
    return `The ${rate.carrierName} ${rate.productName} rate needs a service point: pick one and book by key.`;
  if (rate.requiredDocuments.length > 0)
    return `The ${rate.carrierName} ${rate.productName} rate needs documents uploaded first: book by key.`;
  return null;
}

function chosenPackage(p: DraftView['packages'][number]): boolean {
  return p.favoritePackageId !== null || (p.widthCm !== null && p.heightCm !== null && p.depthCm !== null);
}

function stopWatching(s: Session): void {
  if (s.timer) clearTimeout(s.timer);
  s.timer = null;
  s.unsubscribe?.();
  s.unsubscribe = null;
}

const describeWeights = (w: readonly number[]): string => w.map((kg) => `${kg} kg`).join(' + ') || 'no weight';

function view(s: Session): HandsFreeView {
  return {
    shipmentId: s.shipmentId,
    state: s.state,
    parcel: Math.min(s.weights.length, s.parcels - 1),
    parcels: s.parcels,
    weightsKg: [...s.weights],
    message: s.message,
    code: s.code,
    booked: s.booked,
  };
}

function off(shipmentId: string): HandsFreeView {
  return { shipmentId, state: 'off', parcel: 0, parcels: 0, weightsKg: [], message: null, code: null, booked: null };
}
