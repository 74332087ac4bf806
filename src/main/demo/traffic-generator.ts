/**
 * The demo's traffic: books a shipment every few seconds on the embedded sandbox, the
 * way a warehouse would. Bookings alternate between the full API flow (create, rates,
 * book: SHIPMENT_BOOKED with source API) and the sandbox's admin route, which books "in
 * the web application" (source APP).
 */
import { request } from 'undici';
import type { ServiceClient } from '../api/client';
import type { Logger } from '../log';

export interface TrafficGeneratorOptions {
  readonly client: ServiceClient;
  /** Sandbox origin (http://127.0.0.1:N), for the admin route. */
  readonly sandboxOrigin: string;
  readonly apiKey: string;
  /** Seconds between bookings. @default 4 */
  readonly everySeconds?: number;
  readonly log: Logger;
}

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
      this.inFlight = this.bookOne().then(
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

  /** Book one shipment; odd ones through the API flow, even ones as the web app would. */
  async bookOne(): Promise<{ shipmentId: string; referenceId: string; source: 'API' | 'APP' }> {
    this.count += 1;
    const referenceId = `DEMO-${String(this.count).padStart(4, '0')}`;
    const source = this.count % 2 === 1 ? 'API' : 'APP';
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
      packages: [{ weight_kg: 1.2 + (this.count % 5), depth_cm: 30, width_cm: 20, height_cm: 15, quantity: 1 + (this.count % 3), type: 'PACKAGE', description: 'Demo goods' }],
    });
    const { rates } = await client.rates({ shipment_id: created.id, required_addons: { without_pickup: true } });
    const rate = rates.find((r) => !r.require_delivery_service_point && (r.required_documents ?? []).length === 0);
    if (!rate) throw new Error(`no bookable rate for ${referenceId}`);
    const booked = await client.book({ booking_token: rate.booking_token });
    return booked.shipment_id;
  }

  private async bookAsApp(referenceId: string): Promise<string> {
    const response = await request(`${this.options.sandboxOrigin}/admin/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.options.apiKey },
      body: JSON.stringify({ source: 'APP', reference_id: referenceId, packages: 1 + (this.count % 2) }),
    });
    const body = (await response.body.json()) as { shipmentId?: string; message?: string };
    if (response.statusCode !== 200 || !body.shipmentId) {
      throw new Error(`admin book answered ${response.statusCode}: ${body.message ?? 'no message'}`);
    }
    return body.shipmentId;
  }
}
