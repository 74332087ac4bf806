import type { PipelineTarget, PrinterDirectory } from './ports';

/** The pipeline's printers: made once per URI by the caller's factory, then kept. */
export class TargetCache implements PrinterDirectory {
  private readonly targets = new Map<string, PipelineTarget>();

  constructor(private readonly targetFor: (uri: string) => PipelineTarget) {}

  /** Errors are not cached: a target that cannot be made now (no API key yet) may work later. */
  resolve(uri: string): PipelineTarget | Error {
    const cached = this.targets.get(uri);
    if (cached) return cached;
    try {
      const target = this.targetFor(uri);
      this.targets.set(uri, target);
      return target;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}
