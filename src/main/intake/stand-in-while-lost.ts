import type { IntakeSink, IntakeSource } from './intake-source';

/**
 * A source with a stand-in: `main` feeds the sink, and while it says it is lost
 * (`lost(true)`, a site out of reach) `standIn` feeds the same sink too, until `lost(false)`.
 * A station in a site polls the service this way while the site is gone.
 */
export class StandInWhileLost implements IntakeSource {
  private sink: IntakeSink | null = null;
  private isLost = false;
  // Lost and found may follow each other quickly: each change waits for the one before.
  private changing: Promise<void> = Promise.resolve();

  constructor(
    readonly main: IntakeSource,
    readonly standIn: IntakeSource,
  ) {}

  async start(sink: IntakeSink): Promise<void> {
    this.sink = sink;
    await this.main.start(sink);
  }

  /** The main source is out of reach (true) or back (false). */
  lost(lost: boolean): Promise<void> {
    this.isLost = lost;
    this.changing = this.changing.then(async () => {
      await this.standIn.stop();
      if (this.isLost && this.sink) await this.standIn.start(this.sink);
    });
    return this.changing;
  }

  async refresh(): Promise<void> {
    await this.main.refresh?.();
    if (this.isLost) await this.standIn.refresh?.();
  }

  async stop(): Promise<void> {
    this.sink = null;
    await this.main.stop();
    await this.changing;
    await this.standIn.stop();
  }
}
