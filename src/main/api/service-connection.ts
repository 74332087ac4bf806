import { plainMessage } from '../../shared/agent-messages';
/**
 * The agent's handle on the service. Settings can change the address or the key while
 * the agent runs, so the rest of the agent holds this stable object and the client
 * behind it is replaced.
 */
import { AGENT_ERROR_CODES } from '../../shared/agent-error-codes';
import { ServiceClient, type ServiceClientOptions } from './client';
import { RecentRequestIds } from './request-ids';
import { ServiceClock } from './service-clock';
import { CodedError } from '../errors';
import { JOB_FETCH } from '../retry/policies';

/**
 * How long a replaced client may finish its calls: longer than a call with all its
 * retries (4 attempts of up to 15 s, plus backoff).
 */
const RETIRE_GRACE_MS = 120_000;

export class NotConnectedError extends CodedError {
  constructor() {
    super(AGENT_ERROR_CODES.NOT_CONNECTED, plainMessage('agent.notConnected'));
  }
}

export interface ServiceConnectionOptions {
  readonly apiUrl: string;
  readonly apiKey: string | null;
  /** Extra client options (timeouts, retries); tests shorten them. */
  readonly client?: Partial<Omit<ServiceClientOptions, 'baseUrl' | 'apiKey'>>;
}

export class ServiceConnection {
  private client: ServiceClient | null = null;
  private printClient: ServiceClient | null = null;
  /** Clients replaced by reconfigure() that may still have calls in flight. */
  private readonly retiring = new Set<ServiceClient>();
  private apiUrl: string;
  // A #private field: util.inspect(connection) cannot print the key.
  #apiKey: string | null;
  private readonly clientOptions: Partial<Omit<ServiceClientOptions, 'baseUrl' | 'apiKey'>>;
  /** The last request ids of every client made here, for diagnostics. */
  readonly recentRequests = new RecentRequestIds();
  /** The service's clock, from its answers' Date headers (for rules that compare with its times). */
  readonly clock = new ServiceClock();

  constructor(options: ServiceConnectionOptions) {
    this.apiUrl = options.apiUrl;
    this.#apiKey = options.apiKey;
    this.clientOptions = { ...options.client, onRequestId: this.recentRequests.add, onServiceDate: this.clock.observe };
  }

  get url(): string {
    return this.apiUrl;
  }

  get configured(): boolean {
    return this.#apiKey !== null;
  }

  /** The current client; throws NotConnectedError when no key is set. */
  get current(): ServiceClient {
    if (this.#apiKey === null) throw new NotConnectedError();
    this.client ??= new ServiceClient({ ...this.clientOptions, baseUrl: this.apiUrl, apiKey: this.#apiKey });
    return this.client;
  }

  /**
   * The client the print pipeline fetches PDFs with: no retries of its own (one layer owns a
   * job fetch's retries: retry/policies.ts JOB_FETCH), so the job itself waits and retries, showing why ("label not ready yet; retrying in 2 s") and
   * freeing its fetch slot meanwhile.
   */
  get printing(): ServiceClient {
    if (this.#apiKey === null) throw new NotConnectedError();
    this.printClient ??= new ServiceClient({
      ...this.clientOptions,
      baseUrl: this.apiUrl,
      apiKey: this.#apiKey,
      retries: JOB_FETCH.clientRetries,
    });
    return this.printClient;
  }

  /**
   * Point at another address or key. The old clients get a grace period to finish their
   * calls before they close: closing at once would abort a print in flight, and for a
   * service printer that would leave a job that "may have printed".
   */
  reconfigure(apiUrl: string, apiKey: string | null): boolean {
    if (apiUrl === this.apiUrl && apiKey === this.#apiKey) return false;
    for (const client of [this.client, this.printClient]) if (client) this.retire(client);
    this.client = null;
    this.printClient = null;
    this.apiUrl = apiUrl;
    this.#apiKey = apiKey;
    return true;
  }

  private retire(client: ServiceClient): void {
    this.retiring.add(client);
    const timer = setTimeout(() => {
      this.retiring.delete(client);
      void client.close().catch(() => undefined);
    }, RETIRE_GRACE_MS);
    timer.unref();
  }

  /** A client for a one-off check (Settings → Test connection) that leaves this one alone. */
  probe(apiUrl: string, apiKey: string): ServiceClient {
    return new ServiceClient({ ...this.clientOptions, baseUrl: apiUrl, apiKey, retries: 0 });
  }

  async close(): Promise<void> {
    const old = [this.client, this.printClient, ...this.retiring];
    this.client = null;
    this.printClient = null;
    this.retiring.clear();
    await Promise.all(old.map((client) => client?.close()));
  }
}
