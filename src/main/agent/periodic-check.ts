/**
 * A look taken every `intervalMs` and whenever asked, never two at once: a call while one
 * runs shares that run. The timer never keeps the process alive; stop() waits for a run in
 * progress, so nothing is looked at after the agent closed what the look reads.
 */
export class PeriodicCheck {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly look: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  /** Starts the timer (again after stop()); `now` also takes a first look at once. */
  start(now = false): void {
    if (this.timer) return;
    if (now) void this.run();
    this.timer = setInterval(() => void this.run(), this.intervalMs);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One look; concurrent calls share one run. */
  run(): Promise<void> {
    this.running ??= this.look().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
