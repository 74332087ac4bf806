/**
 * "Try the demo" from the first-run screen: the embedded sandbox runs in the agent's
 * process, and a traffic generator books a shipment every few seconds. Nothing about it is
 * stored: the next start is a normal start. The agent sees only the connection provider
 * interface; the entry points that offer the demo (the desktop app, headless.ts's `demo`
 * option) hand it this.
 */
import type { Sandbox } from '../../sandbox/server';
import type { DemoConnectionProvider, SessionConnection } from '../api/session-connection';
import { ServiceClient } from '../api/client';
import type { Logger } from '../log';
import { TrafficGenerator } from './traffic-generator';

/** The in-app demo has no webhook endpoint the sandbox could reach: it polls briskly instead. */
const DEMO_POLL_SECONDS = 2;

export class DemoMode implements DemoConnectionProvider {
  private sandbox: Sandbox | null = null;
  private client: ServiceClient | null = null;
  private traffic: TrafficGenerator | null = null;

  constructor(private readonly log: Logger) {}

  /** Starts the sandbox (once) and returns where the agent should connect. */
  async start(): Promise<SessionConnection> {
    if (!this.sandbox) {
      // The sandbox (and its PDF and barcode libraries) loads only when a demo starts: an
      // agent connected to a real account never holds it in memory.
      const { startSandbox } = await import('../../sandbox/server');
      const sandbox = await startSandbox({ simulateCarrier: true });
      this.sandbox = sandbox;
      this.client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
      this.traffic = new TrafficGenerator({ client: this.client, sandboxOrigin: sandbox.origin, apiKey: sandbox.apiKey, log: this.log });
      this.traffic.start();
      this.log.info(`demo: embedded sandbox at ${sandbox.baseUrl}; booking a shipment every few seconds`);
    }
    return { apiUrl: this.sandbox.baseUrl, apiKey: this.sandbox.apiKey, environment: 'sandbox', pollIntervalSeconds: DEMO_POLL_SECONDS };
  }

  async stop(): Promise<void> {
    await this.traffic?.stop();
    await this.client?.close();
    await this.sandbox?.close();
    this.traffic = null;
    this.client = null;
    this.sandbox = null;
  }
}
