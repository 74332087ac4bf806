/**
 * The first way a `cups:` job reaches the scheduler: an IPP Print-Job from this process on the
 * scheduler's keep-alive connection (about 1 ms on loopback). A scheduler that refuses it
 * (HTTP 401/403, an IPP authentication or policy status) is noted, said once, and lp
 * (cups-lp-driver.ts, which can authenticate) takes the jobs for `retryMs`.
 */
import { agentMessage } from '../../../shared/agent-messages';
import type { PrinterMedia } from '../../../shared/domain';
import { logField } from '../../log-text';
import { PRINT_ERROR_CODES, PrintError } from '../errors';
import { IppHttpError, neverSent } from '../ipp/ipp-connection';
import { IPP_STATUS, ippPrintJob, type IppPrintAnswer } from '../ipp/ipp-print';
import { MEDIA_NAMES } from '../media';
import type { SpoolRequest, SpoolResult } from '../target';
import type { CupsDriverHost } from './cups-driver';

/** IPP `media` and `print-scaling` per media: the same page as cupsMediaArgs asks lp for. */
export function ippMedia(media: PrinterMedia, labelMedia = 'oe_4x6-label_4x6in'): { media: string; printScaling: 'none' | 'fit' } {
  const names = MEDIA_NAMES[media];
  return { media: media === 'label' ? labelMedia : names.ipp, printScaling: names.scaling };
}

export interface CupsIppDriverOptions {
  /** The IPP media keyword for 4x6 labels. @default 'oe_4x6-label_4x6in' */
  readonly labelMedia?: string;
  /** How long lp prints after a refusal before IPP is tried again. @default 60000 */
  readonly retryMs?: number;
  /** Where the one line saying why IPP printing fell back to lp goes. @default process.stderr */
  readonly log?: (line: string) => void;
  /** @default Date.now */
  readonly nowMs?: () => number;
}

function hex(status: number): string {
  return status.toString(16).padStart(4, '0');
}

export class CupsIppDriver {
  private readonly labelMedia: string;
  private readonly retryMs: number;
  private readonly log: (line: string) => void;
  private readonly nowMs: () => number;
  /** When the scheduler last refused a Print-Job: lp prints until retryMs later. */
  private refusedAt: number | null = null;
  /** The refusal last logged, so a scheduler that keeps refusing is named once, not per label. */
  private loggedRefusal: string | null = null;

  constructor(
    private readonly host: CupsDriverHost,
    options: CupsIppDriverOptions = {},
  ) {
    this.labelMedia = options.labelMedia ?? 'oe_4x6-label_4x6in';
    this.retryMs = options.retryMs ?? 60_000;
    this.log = options.log ?? ((line) => void process.stderr.write(`${line}\n`));
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** False while a recent refusal sends the jobs through lp. */
  available(): boolean {
    return this.refusedAt === null || this.nowMs() - this.refusedAt >= this.retryMs;
  }

  /**
   * The PDF goes in the Print-Job request body, whole: cupsd creates the job only once it has
   * the complete request, so a job is at the spooler whole or not at all. Null when the
   * scheduler refused it and lp is to try instead.
   */
  async spool(queue: string, request: SpoolRequest, pdf: Uint8Array): Promise<SpoolResult | null> {
    const { uri } = this.host;
    let answer: IppPrintAnswer;
    try {
      const media = ippMedia(request.media, this.labelMedia);
      answer = await ippPrintJob({ server: await this.host.scheduler() }, queue, {
        name: request.title,
        pdf,
        copies: request.copies,
        ...media,
      });
    } catch (error) {
      if (error instanceof PrintError) throw error;
      if (error instanceof IppHttpError) return this.refused(queue, `HTTP ${error.status}`);
      if (neverSent(error)) throw this.host.unreachable(error);
      // Written, then broken off: the job may exist. It stays "may be at the spooler", and the
      // print queue looks it up by title (findSpooled) before it is ever sent again.
      throw new PrintError(
        PRINT_ERROR_CODES.SPOOL_FAILED,
        `The connection to CUPS broke off while handing a job to "${queue}" (${(error as Error).message}); ` +
          'the job is looked up by its title before it is sent again.',
        { cause: error, target: uri },
      );
    }
    if (answer.jobId !== null) {
      this.refusedAt = null;
      this.loggedRefusal = null;
      return { spoolerJobId: `${queue}-${answer.jobId}`, completed: false };
    }
    if (answer.status < 0x0100) {
      const message = `CUPS accepted a job for "${queue}" but named no job id (IPP status 0x${hex(answer.status)}).`;
      // The job was queued: a blind retry would print twice.
      throw new PrintError(PRINT_ERROR_CODES.SPOOL_FAILED, message, { target: uri, retryable: false });
    }
    if (answer.status === IPP_STATUS.notFound) {
      throw new PrintError(PRINT_ERROR_CODES.PRINTER_NOT_FOUND, agentMessage('printer.cupsNotFound', { queue }), { target: uri });
    }
    if (answer.status === IPP_STATUS.notAcceptingJobs) throw this.host.rejecting(queue, null);
    const status = `IPP status 0x${hex(answer.status)}`;
    return this.refused(queue, answer.message ? `${answer.message}, ${status}` : status);
  }

  /** Notes a refused Print-Job (nothing was queued) and says why once; lp takes the job. */
  private refused(queue: string, why: string): null {
    this.refusedAt = this.nowMs();
    if (this.loggedRefusal !== why) {
      this.loggedRefusal = why;
      const retry = Math.round(this.retryMs / 1000);
      // The status message is the scheduler's text: escaped and capped like any outside text.
      const line = `${logField(this.host.uri)}: CUPS refused the IPP print request for "${logField(queue)}" (${logField(why)}); printing through lp instead, trying IPP again in ${retry} s.`;
      this.log(line);
    }
    return null;
  }
}
