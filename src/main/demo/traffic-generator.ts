/**
 * The demo's traffic: a shipment every few seconds on the embedded sandbox, the way a
 * warehouse sees them. Bookings alternate between the full API flow (create, rates, book:
 * SHIPMENT_BOOKED with source API) and the sandbox's admin route, which books "in the web
 * application" (source APP). Every third shipment is left as a draft with a gap (no weight,
 * no parcel size, a non-EU parcel without customs data), referenced DRAFT-000N, for the
 * packer to scan, finish and ship at the station.
 */
import { request } from 'undici';
import type { ServiceClient } from '../api/client';
import type { Logger } from '../log';

export interface TrafficGeneratorOptions {
  readonly client: ServiceClient;
  /** Sandbox origin (http://127.0.0.1:N), for the admin route. */
  readonly sandboxOrigin: string;
  readonly apiKey: string;
  /** Seconds between shipments. @default 4 */
  readonly everySeconds?: number;
  /** Every Nth shipment is left unbooked as a draft; 0 = none. @default 3 */
  readonly draftEvery?: number;
  /** Told about each draft left for the station, instead of logging it (the CLI prints it). @default logged */
  readonly onDraft?: (draft: DemoDraft) => void;
  /**
   * Called with each booking's reference before it is booked (a site demo scans some at a
   * station, so the site prints them there). @default none
   */
  readonly beforeBook?: (referenceId: string, count: number) => Promise<void>;
  readonly log: Logger;
}

export interface DemoShipment {
  readonly shipmentId: string;
  readonly referenceId: string;
  readonly source: 'API' | 'APP' | 'DRAFT';
}

export interface DemoDraft extends DemoShipment {
  readonly source: 'DRAFT';
  /** What the packer has to add, in words. */
  readonly gap: string;
}

/**
 * The drafts' gaps in turn (sandbox POST /admin/drafts). Each one's words are what booking
 * asks for, and booking without it is refused naming that field: the weight and the parcel
 * size by bookable validation (the station's pack form fills them), the customs invoice by
 * the booking (documents_missing; the station's upload sends it). A receiver phone is not
 * offered: the service takes any contact, so a draft "without a phone" books as it is.
 */
const DRAFT_KINDS = [
  { gaps: ['weight'], destination: 'domestic', words: 'no weight yet' },
  { gaps: ['dimensions'], destination: 'domestic', words: 'no parcel size yet' },
  { gaps: ['customs'], destination: 'non_eu', words: 'to Norway without customs data: upload a customs invoice' },
] as const;

const RECEIVERS = [
  { name: 'Nordic Outdoor AB', city: 'Göteborg', postal_code: '41103', address_line_1: 'Kungsgatan 12' },
  { name: 'Café Lindqvist', city: 'Malmö', postal_code: '21122', address_line_1: 'Stortorget 3' },
  { name: 'Aurora Bikes', city: 'Uppsala', postal_code: '75310', address_line_1: 'Dragarbrunnsgatan 40' },
];

export class TrafficGenerator {
  private timer: NodeJS.Timeout | null = null;
  private count = 0;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly options: TrafficGeneratorOptions) {}

  start(): void {
    const everyMs = (this.options.everySeconds ?? 4) * 1000;
    const tick = (): void => {
      this.inFlight = this.next().then(
        () => undefined,
        (error: unknown) => this.options.log.warn(`demo traffic: booking failed: ${(error as Error).message}`),
      );
    };
    tick();
    this.timer = setInterval(tick, everyMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  /** The next shipment: every `draftEvery`th a draft, else a booking. */
  async next(): Promise<DemoShipment> {
    const draftEvery = this.options.draftEvery ?? 3;
    if (draftEvery > 0 && (this.count + 1) % draftEvery === 0) return this.leaveDraft();
    return this.bookOne();
  }

  /** Book one shipment; odd ones through the API flow, even ones as the web app would. */
  async bookOne(): Promise<DemoShipment> {
    this.count += 1;
    const referenceId = `DEMO-${String(this.count).padStart(4, '0')}`;
    const source = this.count % 2 === 1 ? 'API' : 'APP';
    await this.options.beforeBook?.(referenceId, this.count);
    const shipmentId = source === 'API' ? await this.bookThroughApi(referenceId) : await this.bookAsApp(referenceId);
    this.options.log.info(`demo traffic: booked ${referenceId} (${source}) shipment ${shipmentId}`);
    return { shipmentId, referenceId, source };
  }

  private async bookThroughApi(referenceId: string): Promise<string> {
    const { client } = this.options;
    const receiver = RECEIVERS[this.count % RECEIVERS.length]!;
    const created = await client.createShipment({
      reference_id: referenceId,
      enable_bookable_validation: true,
      sender_reference: `PICK-${this.count}`,
      system: 'print-station-demo',
      to: {
        name: receiver.name,
        address: { ...receiver, country_code: 'SE' },
        contact: { name: 'Receiving desk', phone: '+46 31 123 45 67', email: 'goods@example.com' },
      },
      packages: [
        {
          weight_kg: 1.2 + (this.count % 5),
          depth_cm: 30,
          width_cm: 20,
          height_cm: 15,
          quantity: 1 + (this.count % 3),
          type: 'PACKAGE',
          description: 'Demo goods',
        },
      ],
    });
    const { rates } = await client.rates({ shipment_id: created.id, required_addons: { without_pickup: true } });
    const rate = rates.find((r) => !r.require_delivery_service_point && (r.required_documents ?? []).length === 0);
    if (!rate) throw new Error(`no bookable rate for ${referenceId}`);
    const booked = await client.book({ booking_token: rate.booking_token });
    return booked.shipment_id;
  }

  /** A shipment created but not booked, with one gap: the station finishes it (scan, pack, book, print). */
  async leaveDraft(): Promise<DemoDraft> {
    this.count += 1;
    const referenceId = `DRAFT-${String(this.count).padStart(4, '0')}`;
    const kind = DRAFT_KINDS[(this.count / (this.options.draftEvery ?? 3) - 1) % DRAFT_KINDS.length] ?? DRAFT_KINDS[0];
    const shipmentId = await this.admin('/admin/drafts', 201, {
      reference_id: referenceId,
      destination: kind.destination,
      gaps: kind.gaps,
      sender_reference: `PICK-${this.count}`,
      system: 'print-station-demo',
    });
    const draft: DemoDraft = { shipmentId, referenceId, source: 'DRAFT', gap: kind.words };
    // Announced once: by the caller when it prints drafts itself (the demo), else in the log.
    if (this.options.onDraft) this.options.onDraft(draft);
    else this.options.log.info(`demo traffic: left ${referenceId} unbooked (${kind.words}): scan ${referenceId} to pack and ship it`);
    return draft;
  }

  private async bookAsApp(referenceId: string): Promise<string> {
    return this.admin('/admin/book', 200, { source: 'APP', reference_id: referenceId, packages: 1 + (this.count % 2) });
  }

  private async admin(path: string, expected: number, payload: unknown): Promise<string> {
    const response = await request(`${this.options.sandboxOrigin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.options.apiKey },
      body: JSON.stringify(payload),
    });
    const body = (await response.body.json()) as { shipmentId?: string; message?: string };
    if (response.statusCode !== expected || !body.shipmentId) {
      throw new Error(`${path} answered ${response.statusCode}: ${body.message ?? 'no message'}`);
    }
    return body.shipmentId;
  }
}
