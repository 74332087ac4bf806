import {
  TAG,
  baseAttrs,
  cupsQueueRef,
  decodeIppResponse,
  encodeIppRequest,
  nextRequestId,
  userAttr,
  type Attr,
  type IppClientOptions,
  type IppPrinterRef,
} from './ipp';
import { ippPost } from './ipp-connection';
import { pwgMediaSize } from '../media';

/**
 * IPP Print-Job (RFC 8011 §4.2.1): one PDF to one IPP printer (a CUPS queue, an IPP
 * Everywhere printer) in one HTTP request on its keep-alive connection, instead of an `lp`
 * process per label (12–20 ms).
 */

const OP_PRINT_JOB = 0x0002;

/** IPP status codes the CUPS target tells apart (RFC 8011 §B). */
export const IPP_STATUS = {
  forbidden: 0x0401,
  notAuthenticated: 0x0402,
  notAuthorized: 0x0403,
  notFound: 0x0406,
  notAcceptingJobs: 0x0506,
} as const;

export interface IppPrintJob {
  /** `job-name`: the agent's job title, which holds the ledger job id (crash reconciliation). */
  readonly name: string;
  readonly pdf: Uint8Array;
  readonly copies: number;
  /** A `media` keyword as CUPS takes it, e.g. `oe_4x6-label_4x6in`, `iso_a4_210x297mm`. */
  readonly media: string;
  readonly printScaling: 'none' | 'fit' | 'auto' | 'fill' | 'auto-fit';
  /**
   * Send the media as `media-col` (its size from the `media` name, in hundredths of a mm)
   * instead of the `media` keyword: `borderless` adds zero margins (a label printed edge to
   * edge at its exact size), `size` leaves the margins to the printer (sheets).
   * @default the `media` keyword (what cupsd takes)
   */
  readonly mediaCol?: 'borderless' | 'size';
}

/** The job's media attribute: the keyword, or a media-col with the keyword's size. */
function mediaAttr(job: IppPrintJob): Attr {
  const size = job.mediaCol ? pwgMediaSize(job.media) : null;
  if (!job.mediaCol || !size) return { tag: TAG.keyword, name: 'media', values: [job.media] };
  const margins: Attr[] =
    job.mediaCol === 'borderless'
      ? ['media-bottom-margin', 'media-left-margin', 'media-right-margin', 'media-top-margin'].map((name) => ({
          tag: TAG.integer,
          name,
          values: [0],
        }))
      : [];
  const mediaSize: Attr = {
    tag: TAG.begCollection,
    name: 'media-size',
    values: [
      [
        { tag: TAG.integer, name: 'x-dimension', values: [Math.round(size.w * 100)] },
        { tag: TAG.integer, name: 'y-dimension', values: [Math.round(size.h * 100)] },
      ],
    ],
  };
  return { tag: TAG.begCollection, name: 'media-col', values: [[mediaSize, ...margins]] };
}

export interface IppPrintAnswer {
  /** The IPP status-code; below 0x0100 the job was created. */
  readonly status: number;
  /** `job-id` from the response; null when the scheduler refused the job. */
  readonly jobId: number | null;
  /** `status-message` when the scheduler gave one ('' otherwise). */
  readonly message: string;
}

/**
 * Sends Print-Job and resolves the scheduler's answer, refusals included (the caller decides
 * what a status means). Rejects as ippPost does: IppHttpError for a non-200 HTTP answer, a
 * socket error with a string `code` when the scheduler could not be reached or the request
 * broke off (then the job may or may not have been created).
 */
export function ippPrintJob(options: IppClientOptions, queue: string, job: IppPrintJob): Promise<IppPrintAnswer> {
  return ippPrintJobAt(cupsQueueRef(options, queue), job);
}

/** Print-Job to any IPP printer (a CUPS queue, an IPP Everywhere printer); answers as ippPrintJob. */
export async function ippPrintJobAt(ref: IppPrinterRef, job: IppPrintJob): Promise<IppPrintAnswer> {
  const head = encodeIppRequest(
    OP_PRINT_JOB,
    nextRequestId(),
    [
      ...baseAttrs(),
      { tag: TAG.uri, name: 'printer-uri', values: [ref.printerUri] },
      userAttr(ref),
      { tag: TAG.name, name: 'job-name', values: [job.name] },
      { tag: TAG.mimeMediaType, name: 'document-format', values: ['application/pdf'] },
    ],
    [
      {
        tag: TAG.job,
        attrs: [
          { tag: TAG.integer, name: 'copies', values: [job.copies] },
          mediaAttr(job),
          { tag: TAG.keyword, name: 'print-scaling', values: [job.printScaling] },
        ],
      },
    ],
  );
  const res = decodeIppResponse(await ippPost(ref.server, ref.resource, Buffer.concat([head, job.pdf]), ref.timeoutMs ?? 30_000));
  const jobAttrs = res.groups.find((g) => g.tag === TAG.job)?.attrs;
  const id = jobAttrs?.get('job-id')?.[0];
  const message = res.groups.find((g) => g.tag === TAG.operation)?.attrs.get('status-message')?.[0];
  return {
    status: res.status,
    jobId: res.status < 0x0100 && typeof id === 'number' ? id : null,
    message: typeof message === 'string' ? message : '',
  };
}
