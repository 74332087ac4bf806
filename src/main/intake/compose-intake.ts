import type { IntakeParts } from './intake-parts';
import type { IntakeSink, IntakeSource } from './intake-source';
import { INTAKE_SOURCES } from './sources';

/**
 * The one composition of intake that the agent (create-agent.ts) and the relay
 * (site/relay/relay.ts) both use: every source of INTAKE_SOURCES the parts turn on, then `also`
 * (the site station, a test's own source), all feeding the one sink they are started with.
 */
export function composeIntake(parts: IntakeParts, also: readonly IntakeSource[] = []): Intake {
  const built = INTAKE_SOURCES.map((factory) => factory(parts)).filter((source): source is IntakeSource => source !== null);
  return new Intake([...built, ...also]);
}

export class Intake {
  constructor(readonly sources: readonly IntakeSource[]) {}

  /** The first source of this class, if composed (the agent's webhook address, its poller). */
  find<T extends IntakeSource>(kind: abstract new (...args: never[]) => T): T | null {
    return (this.sources.find((source) => source instanceof kind) as T | undefined) ?? null;
  }

  async start(sink: IntakeSink): Promise<void> {
    for (const source of this.sources) await source.start(sink);
  }

  /** Settings changed: each source that depends on them applies them. */
  async refresh(): Promise<void> {
    for (const source of this.sources) await source.refresh?.();
  }

  async stop(): Promise<void> {
    for (const source of [...this.sources].reverse()) await source.stop();
  }
}
