/**
 * Pack and ship: finish a shipment that is not booked yet, rate it, book it and print it
 * once, or void a booked one, all from one scan. Every step follows the service's rules
 * (spec: update rules, rates, service points, non-EU documents, 30-minute tokens).
 * Service errors come back as data (PackResult) with their request id and, for 422s,
 * the field map in a packer's words, so the UI can put them next to the fields.
 */
import {
  shipmentStage,
  withCarrier,
  type BookedView,
  type BoxPreset,
  type DraftView,
  type FieldProblem,
  type PackResult,
  type RateView,
  type RatesView,
  type ServicePointView,
  type ShippingRuleView,
  type TrackingEventView,
} from '../../shared/domain';
import { MAX_UPLOAD_BYTES, type AgentInput } from '../../shared/agent-api';
import type { ServiceClient } from '../api/client';
import { API_ERROR_CODES, ApiError } from '../api/errors';
import type { FavoritePackage, PackageInput, Shipment } from '../api/schemas';
import { uploadFileName } from '../api/upload-name';
import { mergeTracking, toTrackingEventView } from '../scan/shipment-view';
import { customsWeightProblem } from './customs-check';
import { receiverOf, toDraftView } from './draft-view';
import { toFieldProblems } from './field-words';
import { describeCancel } from '../jobs/job-log';
import { PackSettingsStore } from './pack-settings';
import { PackBooking, type PackBookingDeps } from './pack-booking';
import { PackError, attempt, invalid } from './pack-result';
import { RateSearches } from './rate-search';
import { parseTypedNumber } from './typed-number';

/** What booking needs (pack-booking.ts), less the rate searches and clock pack and ship makes itself. */
export interface PackFlowDeps extends Omit<PackBookingDeps, 'rates' | 'now'> {
  /** @default () => new Date() */
  readonly now?: () => Date;
}

export class PackFlow {
  readonly settings: PackSettingsStore;
  private readonly now: () => Date;
  private readonly searches: RateSearches;
  private readonly booking: PackBooking;
  private presets: readonly FavoritePackage[] | null = null;

  constructor(private readonly deps: PackFlowDeps) {
    this.now = deps.now ?? (() => new Date());
    this.settings = new PackSettingsStore(deps.ledger);
    this.searches = new RateSearches({ client: deps.client, settings: this.settings, now: this.now });
    this.booking = new PackBooking({ ...deps, rates: this.searches, now: this.now });
  }

  draft({ shipmentId }: AgentInput<'packDraft'>): Promise<PackResult<DraftView>> {
    return attempt(async () => this.view(await this.client.getShipment(shipmentId)));
  }

  async presetsList(): Promise<BoxPreset[]> {
    return (await this.favorites(true)).map((p) => ({
      id: p.id,
      name: text(p['name']) ?? text(p['description']) ?? p.id,
      widthCm: numberOf(p['width_cm']),
      heightCm: numberOf(p['height_cm']),
      depthCm: numberOf(p['depth_cm']),
      weightKg: numberOf(p['weight_kg']),
      dangerousGoods: p.dangerous_goods_type ?? null,
    }));
  }

  update(input: AgentInput<'packUpdate'>): Promise<PackResult<DraftView>> {
    return attempt(async () => {
      const problems: FieldProblem[] = [];
      const typed = input.packages.map((p, i) => {
        const read = (value: number | string, field: string, label: string, max: number): number => {
          const parsed = parseTypedNumber(value, { max });
          if (parsed.ok) return parsed.value;
          problems.push({
            field: `packages[${i}].${field}`,
            label: `${label} of parcel ${i + 1}`,
            message: parsed.message,
            code: parsed.code,
            ...(parsed.params ? { params: parsed.params } : {}),
          });
          return 0;
        };
        return {
          presetId: p.presetId,
          width_cm: read(p.widthCm, 'width_cm', 'Width', 1000),
          height_cm: read(p.heightCm, 'height_cm', 'Height', 1000),
          depth_cm: read(p.depthCm, 'depth_cm', 'Length', 1000),
          weight_kg: read(p.weightKg, 'weight_kg', 'Weight', 10_000),
          quantity: p.quantity ?? 1,
        };
      });
      // The banner says what the fields say: the real reasons, not a guess at them.
      if (problems.length > 0) throw invalid(`Check the parcels: ${problems.map((p) => `${p.label} ${p.message}`).join('; ')}.`, problems);
      const stored = await this.client.getShipment(input.shipmentId);
      this.requireDraft(stored, 'changed');
      const presets = typed.some((p) => p.presetId) ? await this.favorites(false) : [];
      // A sub-resource replaces the stored one (spec, Package rule 3): what the packer did
      // not type (description, type, goods class) is carried over from the stored parcel.
      const packages: PackageInput[] = typed.map((p, i) => {
        const before = stored.packages[i] ?? stored.packages[0];
        const preset = p.presetId ? presets.find((f) => f.id === p.presetId) : undefined;
        if (p.presetId && !preset) {
          throw invalid('That box is no longer a favorite package: pick another.', [
            { field: `packages[${i}].favorite_package_id`, label: `Box of parcel ${i + 1}`, message: 'is not a favorite package any more' },
          ]);
        }
        const pkg: Record<string, unknown> = {
          ...(before ? carried(before) : {}),
          width_cm: p.width_cm,
          height_cm: p.height_cm,
          depth_cm: p.depth_cm,
          weight_kg: p.weight_kg,
          quantity: p.quantity,
        };
        if (preset) {
          pkg['favorite_package_id'] = preset.id;
          if (text(preset['description'])) pkg['description'] = preset['description'];
          if (text(preset['type'])) pkg['type'] = preset['type'];
          if (preset.dangerous_goods_type) pkg['dangerous_goods_type'] = preset.dangerous_goods_type;
          else delete pkg['dangerous_goods_type'];
        } else if (before?.favorite_package_id) {
          delete pkg['favorite_package_id'];
        }
        if (pkg['type'] === undefined) pkg['type'] = 'PACKAGE';
        return pkg as PackageInput;
      });
      const weight = customsWeightProblem(stored.customs_information?.items ?? [], packages);
      if (weight) throw invalid('The parcels weigh less than the customs items: weigh again.', [weight]);
      // Only `packages` is sent: omitted sub-resources, customs data and the third-party
      // payer keep their stored values (spec, Package rule 3; ThirdPartyCustomsPayer rule 4).
      const saved = await this.client.updateShipment(input.shipmentId, { packages });
      this.searches.forget(input.shipmentId);
      this.deps.log.info(`pack: ${input.shipmentId} packages saved (${packages.length} line${packages.length === 1 ? '' : 's'})`);
      return this.view(saved);
    });
  }

  rates({ shipmentId }: AgentInput<'packRates'>): Promise<PackResult<RatesView>> {
    return attempt(async () => {
      const s = await this.client.getShipment(shipmentId);
      this.requireDraft(s, 'rated');
      return (await this.searches.search(s)).view;
    });
  }

  servicePoints({ shipmentId, carrier }: AgentInput<'packServicePoints'>): Promise<PackResult<ServicePointView[]>> {
    return attempt(async () => {
      const s = await this.client.getShipment(shipmentId);
      const a = receiverOf(s)?.address;
      if (!a?.postal_code || !a.country_code) {
        throw invalid('The receiver needs a postal code and country before service points can be searched.', [
          { field: 'to.address.postal_code', label: "Receiver's postal code", message: 'is missing', code: 'missing' },
        ]);
      }
      const answer = await this.client.servicePoints({
        address_line: a.address_line_1 ?? undefined,
        postal_code: a.postal_code,
        city: a.city ?? undefined,
        country_code: a.country_code,
        ...(carrier ? { carrier } : {}),
      });
      return answer.locations
        .map((l): ServicePointView => ({
          token: l.service_point_token,
          carrier: l.carrier ?? null,
          name: l.service_point_name ?? l.service_point_token,
          addressLine: l.address_line ?? null,
          postalCode: l.postal_code ?? null,
          city: l.city ?? null,
          distanceM: numberOf(l['distance_by_road']) ?? numberOf(l['distance_great_circle']),
        }))
        .sort((x, y) => (x.distanceM ?? Infinity) - (y.distanceM ?? Infinity));
    });
  }

  upload(input: AgentInput<'packUpload'>): Promise<PackResult<{ documentType: string; bytes: number }>> {
    return attempt(async () => {
      const pdf = Buffer.from(input.contentBase64, 'base64');
      const field = `documents.${input.documentType}`;
      const label = 'Document';
      if (pdf.length > MAX_UPLOAD_BYTES) {
        throw invalid(`The file is ${pdf.length} bytes; at most ${MAX_UPLOAD_BYTES} bytes can be uploaded: make the PDF smaller.`, [
          { field, label, message: 'is too large' },
        ]);
      }
      if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
        throw invalid(`“${uploadFileName(input.fileName, input.documentType)}” is not a PDF: only PDF files can be uploaded.`, [
          { field, label, message: 'must be a PDF file' },
        ]);
      }
      await this.client.uploadDocument(input.shipmentId, input.documentType, pdf, input.fileName);
      this.deps.log.info(`pack: ${input.shipmentId} ${input.documentType} uploaded (${pdf.length} bytes)`);
      return { documentType: input.documentType, bytes: pdf.length };
    });
  }

  /** The rate the packer saw under this token in the last search; null when it is not there. */
  rateOf(shipmentId: string, token: string): RateView | null {
    return this.searches.last(shipmentId)?.rates.find((r) => r.token === token) ?? null;
  }

  /** Books once and prints once (pack-booking.ts). */
  book(input: AgentInput<'packBook'>): Promise<PackResult<BookedView>> {
    return this.booking.book(input);
  }

  cancel({ shipmentId }: AgentInput<'packCancel'>): Promise<PackResult<DraftView>> {
    return attempt(async () => {
      const s = await this.client.getShipment(shipmentId);
      const stage = shipmentStage({ status: s.status, trackingId: s.tracking_id ?? null, availableDocuments: s.available_documents_types });
      if (stage === 'canceled') {
        // Canceled elsewhere (the web application, another station): nothing of it prints here either.
        this.deps.pipeline.cancelShipment(shipmentId, 'service');
        return this.view(s);
      }
      if (stage !== 'booked')
        throw new PackError('PACK_NOT_BOOKED', `Shipment ${s.reference_id ?? s.id} is not booked: there is nothing to cancel.`);
      if (withCarrier({ status: s.status ?? null, tracking: this.deps.ledger.trackingFor(shipmentId) })) {
        throw new PackError(
          'PACK_WITH_CARRIER',
          `Shipment ${s.reference_id ?? s.id} is already with the carrier (${s.status}): it can no longer be canceled. Ask the carrier to stop or return it.`,
        );
      }
      await this.client.cancel({ shipment_id: shipmentId });
      this.deps.ledger.recordTracking(shipmentId, {
        id: null,
        status: 'CANCELED',
        description: 'Canceled at this station',
        location: null,
        occurredAt: this.now().toISOString(),
        url: null,
      });
      // Every label of it not yet at the printer is void now, wherever it waits (queued, being
      // fetched, fetched behind a busy or paused printer, in a batch): recorded in the ledger,
      // so End of day counts it after a restart and a spool about to start checks it first.
      // A label still held by the spooler (a stopped queue) is withdrawn there: waited for, so the
      // line and the view say what is left at the printer.
      const { canceled, withdrawn } = this.deps.pipeline.cancelShipment(shipmentId, 'station');
      const atSpooler = await withdrawn;
      this.deps.log.info(
        `pack: ${shipmentId} canceled; ` +
          describeCancel({
            waiting: canceled.length,
            withdrawn: atSpooler.withdrawn.length,
            atPrinter: atSpooler.atPrinter.length,
          }),
      );
      return this.view(await this.client.getShipment(shipmentId));
    });
  }

  /** True when the station knows the shipment was canceled (here, or by a CANCELED event). */
  isCanceled(shipmentId: string): boolean {
    if (this.deps.ledger.cancelOf(shipmentId)) return true;
    return this.deps.ledger.trackingFor(shipmentId).some((e) => e.status.toUpperCase() === 'CANCELED');
  }

  async shippingRules(): Promise<ShippingRuleView[]> {
    const answer = await this.client.shippingRules();
    return answer.shipping_rules.map((r) => ({ id: r.id, name: r.name ?? r.id, type: r.type ?? null, enabled: r.enabled === true }));
  }

  // ---- internals ----------------------------------------------------------------------

  private get client(): ServiceClient {
    return this.deps.client();
  }

  private async view(s: Shipment): Promise<DraftView> {
    const remote = await this.client.tracking(s.id).catch(() => []);
    const events = [...remote, ...(s.tracking_status ? [s.tracking_status] : [])]
      .map(toTrackingEventView)
      .filter((e): e is TrackingEventView => e !== null);
    const tracking = mergeTracking(events, this.deps.ledger.trackingFor(s.id));
    const stage = shipmentStage({ status: s.status, trackingId: s.tracking_id ?? null, availableDocuments: s.available_documents_types });
    if (stage !== 'draft') return toDraftView(s, tracking, []);
    return this.withMissing(s, tracking);
  }

  /**
   * What booking still needs, from the service itself: an update that only turns on
   * bookable validation answers 422 with the field map when something is missing (and
   * stores nothing), or succeeds when the shipment is complete.
   */
  private async withMissing(s: Shipment, tracking: readonly TrackingEventView[]): Promise<DraftView> {
    try {
      const checked = await this.client.updateShipment(s.id, { enable_bookable_validation: true });
      return toDraftView(checked, tracking, []);
    } catch (error) {
      if (error instanceof ApiError && error.code === API_ERROR_CODES.UNPROCESSABLE && Object.keys(error.fieldErrors).length > 0) {
        return toDraftView(s, tracking, toFieldProblems(error.fieldErrors));
      }
      throw error;
    }
  }

  private requireDraft(s: Shipment, verb: string): void {
    const stage = shipmentStage({ status: s.status, trackingId: s.tracking_id ?? null, availableDocuments: s.available_documents_types });
    if (stage !== 'draft')
      throw new PackError('PACK_NOT_DRAFT', `Shipment ${s.reference_id ?? s.id} is ${stage}: it can no longer be ${verb}.`);
  }

  private async favorites(refresh: boolean): Promise<readonly FavoritePackage[]> {
    if (refresh || !this.presets) this.presets = await this.client.favoritePackages();
    return this.presets;
  }
}

/** The stored package's own facts that a packer's dimensions and weight do not replace. */
function carried(p: Shipment['packages'][number]): Record<string, unknown> {
  const keep: Record<string, unknown> = {};
  for (const key of ['description', 'type', 'stackable', 'loading_meters', 'dangerous_goods_type', 'favorite_package_id'] as const) {
    const v = p[key];
    if (v !== null && v !== undefined) keep[key] = v;
  }
  return keep;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
function numberOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}
