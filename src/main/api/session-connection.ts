/**
 * A connection handed to the agent for one session instead of the stored account: the
 * first-run "Try the demo" (AgentApi.startDemo). The agent only knows this interface; the
 * entry points that offer a demo (src/main/cli/demo.ts, headless.ts's `demo` option, the
 * desktop app) inject an implementation, so the agent never loads demo or sandbox code.
 */
import type { SettingsView } from '../../shared/domain';
import { CodedError } from '../errors';

/** Where to connect for the session, and how to present it. */
export interface SessionConnection {
  readonly apiUrl: string;
  readonly apiKey: string;
  /** Shown in the status while the session lasts. @default the stored setting */
  readonly environment?: SettingsView['environment'];
  /** Poll interval while the session lasts (a demo has no reachable webhook endpoint). @default the stored setting */
  readonly pollIntervalSeconds?: number;
}

/** Implemented outside the agent (src/main/demo/). start() may be called again while started. */
export interface DemoConnectionProvider {
  start(): Promise<SessionConnection>;
  stop(): Promise<void>;
}

/** The agent's view of a provided session: active or not, started and ended once. */
export class ProvidedSession {
  private current: SessionConnection | null = null;
  /** A start that failed half-way may still hold resources: stop() then releases them too. */
  private started = false;

  constructor(private readonly provider: DemoConnectionProvider | undefined) {}

  /** The session's connection while one is active, else null. */
  get active(): SessionConnection | null {
    return this.current;
  }

  async start(): Promise<SessionConnection> {
    if (!this.provider) {
      const advice = 'run `npm run demo`, or connect your account in Settings';
      throw new CodedError('DEMO_UNAVAILABLE', `This station was started without the demo: ${advice}.`);
    }
    this.started = true;
    this.current = await this.provider.start();
    return this.current;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.current = null;
    await this.provider?.stop();
  }
}
