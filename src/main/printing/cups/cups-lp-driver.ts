/**
 * The fallback way a `cups:` job reaches the scheduler: the `lp` command (12–20 ms a job for
 * the process), used when the scheduler refuses IPP Print-Job or when a target is set to
 * always use lp (CupsTargetOptions.spool).
 */
import type { PrinterMedia } from '../../../shared/domain';
import { PRINT_ERROR_CODES, PrintError, fsPrintError } from '../errors';
import type { ExecResult } from '../../process/exec';
import { MEDIA_NAMES } from '../media';
import { withSpoolFile } from '../spool-temp';
import type { SpoolRequest, SpoolResult } from '../target';
import type { CupsDriverHost } from './cups-driver';
import { parseLpRequestId } from './lpstat';

/** lp `-o` options per media; the layout fetched from the service matches (see routing.ts). */
export function cupsMediaArgs(media: PrinterMedia, labelMedia = 'Custom.4x6in'): string[] {
  const names = MEDIA_NAMES[media];
  return ['-o', `media=${media === 'label' ? labelMedia : names.lp}`, '-o', `print-scaling=${names.scaling}`];
}

export interface CupsLpDriverOptions {
  /** @default 'lp' */
  readonly lpPath?: string;
  /** The CUPS media name for 4x6 labels. @default 'Custom.4x6in' */
  readonly labelMedia?: string;
}

function firstLine(result: ExecResult): string {
  return (result.stderr.trim() || result.stdout.trim()).split('\n')[0] ?? '';
}

export class CupsLpDriver {
  private readonly lp: string;
  private readonly labelMedia: string;

  constructor(
    private readonly host: CupsDriverHost,
    options: CupsLpDriverOptions = {},
  ) {
    this.lp = options.lpPath ?? 'lp';
    this.labelMedia = options.labelMedia ?? 'Custom.4x6in';
  }

  /**
   * The PDF is written whole to a private temp file first, and lp gets its path. Piped on
   * stdin instead, a PDF larger than the pipe buffer could reach the spooler cut short if the
   * agent died mid-write: lp would see end-of-file and queue half a document under the job's
   * title, which reconciliation would then adopt as printed.
   */
  async spool(queue: string, request: SpoolRequest, pdf: Uint8Array): Promise<SpoolResult> {
    const { uri } = this.host;
    const args = ['-d', queue, '-t', request.title, '-n', String(request.copies), ...cupsMediaArgs(request.media, this.labelMedia)];
    const result = await withSpoolFile(
      pdf,
      (path) => this.host.run(this.lp, [...args, '--', path]),
      (error, where) => fsPrintError(error, where, uri),
    );
    if (result.code === 0) {
      const id = parseLpRequestId(result.stdout);
      if (!id) {
        throw new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, `lp printed no job id for ${uri} (got "${result.stdout.trim()}").`, {
          target: uri,
          // The job may have been queued: a blind retry could print twice.
          retryable: false,
        });
      }
      return { spoolerJobId: id, completed: false };
    }
    const message = firstLine(result);
    if (/does not exist|Invalid destination|not found/i.test(message)) throw await this.host.notFound(queue);
    if (/not accepting jobs/i.test(message)) {
      throw new PrintError(
        PRINT_ERROR_CODES.PRINTER_REJECTING,
        `CUPS queue "${queue}" is not accepting jobs: run \`cupsaccept '${queue}'\` or accept jobs in printer settings.`,
        { target: uri },
      );
    }
    if (/Forbidden|not authorized|Unauthorized/i.test(message)) {
      throw new PrintError(
        PRINT_ERROR_CODES.PERMISSION_DENIED,
        `CUPS refused the job for "${queue}" (${message}): allow this user to print to the queue.`,
        {
          target: uri,
        },
      );
    }
    throw new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, `lp could not print to "${queue}": ${message || `exit code ${result.code}`}.`, {
      target: uri,
    });
  }
}
