import { TAG, baseAttrs, decodeIppResponse, encodeIppRequest, nextRequestId, userAttr, type IppClientOptions } from './ipp';
import { ippPost } from './ipp-connection';

/**
 * IPP Print-Job (RFC 8011 §4.2.1): one PDF to one CUPS queue in one HTTP request on the
 * scheduler's keep-alive connection, instead of an `lp` process per label (12–20 ms).
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
export async function ippPrintJob(options: IppClientOptions, queue: string, job: IppPrintJob): Promise<IppPrintAnswer> {
  const resource = `/printers/${encodeURIComponent(queue)}`;
  const head = encodeIppRequest(
    OP_PRINT_JOB,
    nextRequestId(),
    [
      ...baseAttrs(),
      { tag: TAG.uri, name: 'printer-uri', values: [`ipp://localhost${resource}`] },
      userAttr(options),
      { tag: TAG.name, name: 'job-name', values: [job.name] },
      { tag: TAG.mimeMediaType, name: 'document-format', values: ['application/pdf'] },
    ],
    [
      {
        tag: TAG.job,
        attrs: [
          { tag: TAG.integer, name: 'copies', values: [job.copies] },
          { tag: TAG.keyword, name: 'media', values: [job.media] },
          { tag: TAG.keyword, name: 'print-scaling', values: [job.printScaling] },
        ],
      },
    ],
  );
  const res = decodeIppResponse(await ippPost(options.server, resource, Buffer.concat([head, job.pdf]), options.timeoutMs ?? 30_000));
  const jobAttrs = res.groups.find((g) => g.tag === TAG.job)?.attrs;
  const id = jobAttrs?.get('job-id')?.[0];
  const message = res.groups.find((g) => g.tag === TAG.operation)?.attrs.get('status-message')?.[0];
  return {
    status: res.status,
    jobId: res.status < 0x0100 && typeof id === 'number' ? id : null,
    message: typeof message === 'string' ? message : '',
  };
}
