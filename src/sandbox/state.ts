/** Everything one running sandbox knows: the team, its shipments, tokens, files, faults. */
import { randomUUID, randomBytes } from 'node:crypto';
import { teamNamed, type Team } from './catalog';
import { DEFAULT_FAULTS, seededRandom, type FaultSettings } from './faults';
import { HttpError, requireUuid } from './http';
import { ShipmentStore, type StoredShipment } from './store';
import type { WebhookDispatcher } from './webhooks/dispatcher';

/** What a rate's booking token remembers about the search that issued it. */
export interface IssuedRate {
  readonly token: string;
  readonly shipmentId: string;
  readonly carrier: string;
  readonly product: string;
  readonly ownAgreement: boolean;
  readonly receiverPays: boolean;
  readonly price: number;
  readonly currency: string;
  readonly servicePoint: boolean;
  readonly thirdPartyCustomsPayer: boolean;
  readonly requiredDocuments: readonly string[];
  readonly nonEu: boolean;
  readonly incoterms: string | null;
  /** Each package's dangerous_goods_type at search time, to detect later changes. */
  readonly dangerousGoods: string;
  readonly adrApprovedAtIssue: boolean;
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
}

export interface ServicePointToken {
  readonly carrier: string;
  readonly name: string;
  readonly countryCode: string;
}

export interface PrinterJob {
  readonly printerId: string;
  readonly shipmentIds: string[];
  readonly documentType: string;
  readonly layout: string;
  readonly at: string;
}

export interface Defaults {
  senderAddress: string | null;
  receiverAddress: string | null;
  package: string | null;
}

export class SandboxState {
  readonly store = new ShipmentStore();
  readonly rates = new Map<string, IssuedRate>();
  readonly servicePoints = new Map<string, ServicePointToken>();
  /** Print URLs: bytes until expiry, then a tombstone so the URL answers 410, not 404. */
  readonly files = new Map<string, { bytes: Uint8Array | null; expiresAtMs: number }>();
  readonly printerJobs: PrinterJob[] = [];
  readonly defaults: Defaults = { senderAddress: null, receiverAddress: null, package: null };
  readonly team: Team;
  faults: FaultSettings;
  adrApproved: boolean;
  origin = '';
  readonly random: () => number;
  private nanoCounter = 0;

  constructor(
    teamName: string,
    readonly now: () => Date,
    readonly dispatcher: WebhookDispatcher,
    options: { faults: FaultSettings; adrApproved: boolean; seed: number },
  ) {
    this.team = teamNamed(teamName);
    this.faults = options.faults ?? DEFAULT_FAULTS;
    this.adrApproved = options.adrApproved;
    this.random = seededRandom(options.seed);
  }

  nowMs(): number {
    return this.now().getTime();
  }

  nowIso(): string {
    return this.now().toISOString();
  }

  /**
   * RFC 3339 with a nanosecond fraction (`...29.754885247Z`), as the real service sends on
   * tracking events; the extra digits only ever grow so events stay ordered.
   */
  nanoIso(date: Date): string {
    this.nanoCounter = (this.nanoCounter + 1) % 1_000_000;
    return date.toISOString().replace('Z', `${String(this.nanoCounter).padStart(6, '0')}Z`);
  }

  /**
   * Forgets booking tokens and output files an hour past their expiry, so a long demo does
   * not grow without bound while recent expiries still answer "expired" (422/410).
   */
  sweep(): void {
    const horizon = this.nowMs() - 60 * 60 * 1000;
    for (const [token, rate] of this.rates) if (rate.expiresAtMs < horizon) this.rates.delete(token);
    for (const [name, file] of this.files) {
      if (file.expiresAtMs < horizon) this.files.delete(name);
      else if (file.expiresAtMs <= this.nowMs()) file.bytes = null;
    }
  }

  newId(): string {
    return randomUUID();
  }

  token(): string {
    return randomBytes(18).toString('base64url');
  }

  /** 400 for a malformed id, 404 for an unknown one. */
  shipment(id: string): StoredShipment {
    requireUuid(id);
    const shipment = this.store.get(id);
    if (!shipment) throw new HttpError(404, 'shipment_not_found', `No shipment ${id} in this team. Check the id.`);
    return shipment;
  }
}
