/**
 * A ZPL printer on USB behind a raw CUPS queue (`zpl-cups:QUEUE`): the labels, rendered to
 * ZPL here, go to the queue with `lp -o raw`, so no CUPS filter rasterizes or scales them.
 * The queue's readiness and the jobs' states are CUPS's, asked as for a `cups:` printer.
 */
import { PRINT_ERROR_CODES, PrintError, fsPrintError } from '../errors';
import { cLocaleEnv, runExecFile, type ExecFileRunner } from '../../process/exec';
import { CupsTarget } from '../cups/cups-target';
import { parseLpRequestId } from '../cups/lpstat';
import { withSpoolFile } from '../spool-temp';
import type { PrinterTarget, Readiness, SpoolerJobState, SpoolRequest, SpoolResult } from '../target';
import { labelsFor } from './zpl-labels';
import type { ZplDpi } from './zpl-raster';

export interface ZplCupsTargetOptions {
  readonly uri: string;
  readonly queue: string;
  /** @default 203 (a raw queue cannot be asked the printer's resolution) */
  readonly dpi?: ZplDpi;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default runExecFile (execFile, never a shell) */
  readonly exec?: ExecFileRunner;
  /** @default 'lp' */
  readonly lpPath?: string;
  /** Where the CupsTarget that answers readiness and job states logs. @default process.stderr */
  readonly log?: (line: string) => void;
}

export class ZplCupsTarget implements PrinterTarget {
  readonly kind = 'zpl-cups' as const;
  readonly needsPdf = true;
  readonly reconcilable = true;
  readonly uri: string;
  private readonly dpi: ZplDpi;
  /** The raw queue as a CUPS printer: its readiness, its jobs, the start-up check. */
  readonly queue: CupsTarget;
  private readonly env: NodeJS.ProcessEnv;
  private readonly exec: ExecFileRunner;
  private readonly lp: string;

  constructor(options: ZplCupsTargetOptions) {
    this.uri = options.uri;
    this.dpi = options.dpi ?? 203;
    this.env = cLocaleEnv(options.env ?? process.env);
    this.exec = options.exec ?? runExecFile;
    this.lp = options.lpPath ?? 'lp';
    this.queue = new CupsTarget({ uri: options.uri, queue: options.queue, env: options.env, exec: options.exec, log: options.log });
  }

  async spool(request: SpoolRequest): Promise<SpoolResult> {
    const problem = await this.queue.check();
    if (problem) throw problem;
    const queue = await this.queue.queue();
    const zpl = await labelsFor(request, { dpi: this.dpi, uri: this.uri, identity: null });
    const args = ['-d', queue, '-t', request.title, '-o', 'raw'];
    const result = await withSpoolFile(
      zpl,
      async (file) => {
        try {
          return await this.exec(this.lp, [...args, '--', file], { env: this.env });
        } catch (error) {
          throw new PrintError(PRINT_ERROR_CODES.SPOOLER_UNAVAILABLE, `${this.lp} failed for ${this.uri}: ${(error as Error).message}`, {
            cause: error,
            target: this.uri,
          });
        }
      },
      (error, where) => fsPrintError(error, where, this.uri),
    );
    const id = result.code === 0 ? parseLpRequestId(result.stdout) : null;
    if (!id) {
      const said = (result.stderr.trim() || result.stdout.trim()).split('\n')[0] ?? '';
      throw new PrintError(
        PRINT_ERROR_CODES.SPOOL_FAILED,
        `CUPS did not take the labels for ${this.uri} (${said}): check the queue with lpstat -p.`,
        {
          target: this.uri,
          retryable: result.code !== 0,
        },
      );
    }
    return { spoolerJobId: id, completed: false };
  }

  jobState(spoolerJobId: string): Promise<SpoolerJobState> {
    return this.queue.jobState(spoolerJobId);
  }

  jobStates(spoolerJobIds: readonly string[]): Promise<ReadonlyMap<string, SpoolerJobState>> {
    return this.queue.jobStates(spoolerJobIds);
  }

  findSpooled(jobId: string): Promise<{ readonly spoolerJobId: string; readonly state: SpoolerJobState } | null> {
    return this.queue.findSpooled(jobId);
  }

  readiness(): Promise<Readiness> {
    return this.queue.readiness();
  }
}
