import os from 'node:os';
import { TAG, decodeIppResponse, encodeIppRequest, type Attr, type Value } from './ipp-codec';
import { ippPost } from './ipp-connection';

export { TAG, decodeIppResponse, encodeIppRequest, type Attr, type IppResponse, type Value } from './ipp-codec';

/**
 * The IPP operations (RFC 8011) the agent asks a printer: job names and states, a printer's
 * state and what it supports (Print-Job is in ipp-print.ts, the codec in ipp-codec.ts), over
 * a keep-alive connection (ipp-connection.ts). A CUPS queue is an IPP printer at
 * `/printers/QUEUE` on its scheduler; an IPP Everywhere printer is one at its own path: the
 * same requests serve both (IppPrinterRef says where).
 * lpstat prints neither a job's title nor whether it ended completed, aborted or canceled,
 * and ipptool is a separate package (cups-ipp-utils) that a client machine may lack, so
 * the agent asks over HTTP itself.
 */

const OP_GET_JOB_ATTRIBUTES = 0x0009;
const OP_GET_JOBS = 0x000a;
const OP_GET_PRINTER_ATTRIBUTES = 0x000b;
const STATUS_NOT_FOUND = 0x0406;

export type IppJobState =
  'pending' | 'pending-held' | 'processing' | 'processing-stopped' | 'canceled' | 'aborted' | 'completed' | 'unknown';
const JOB_STATES: Record<number, IppJobState> = {
  3: 'pending',
  4: 'pending-held',
  5: 'processing',
  6: 'processing-stopped',
  7: 'canceled',
  8: 'aborted',
  9: 'completed',
};

export interface IppJob {
  readonly id: number;
  readonly name: string;
  readonly state: IppJobState;
  readonly printerUri: string | null;
}

export interface IppClientOptions {
  /**
   * `host:port`, `host`, or a Unix socket path, as in CUPS_SERVER or `lpstat -H`; or an
   * origin (`http://host:port`, `https://host:port` for ipps).
   */
  readonly server: string;
  /** @default os.userInfo().username: CUPS hides other users' job names. */
  readonly user?: string;
  /** @default 10000 */
  readonly timeoutMs?: number;
}

export function baseAttrs(): Attr[] {
  return [
    { tag: TAG.charset, name: 'attributes-charset', values: ['utf-8'] },
    { tag: TAG.language, name: 'attributes-natural-language', values: ['en'] },
  ];
}

export function userAttr(options: IppClientOptions): Attr {
  return { tag: TAG.name, name: 'requesting-user-name', values: [options.user ?? os.userInfo().username] };
}

/** Where an IPP printer answers: the connection, the HTTP path, and the printer-uri it is asked by. */
export interface IppPrinterRef extends IppClientOptions {
  /** The HTTP path requests are POSTed to: `/printers/Q` on cupsd, `/ipp/print` on many printers. */
  readonly resource: string;
  /** `printer-uri` in each request. */
  readonly printerUri: string;
}

/** A CUPS queue as an IPP printer: `/printers/QUEUE` on the scheduler. */
export function cupsQueueRef(options: IppClientOptions, queue: string): IppPrinterRef {
  const resource = `/printers/${encodeURIComponent(queue)}`;
  return { ...options, resource, printerUri: `ipp://localhost${resource}` };
}

/**
 * An `ipp://HOST[:PORT]/PATH` or `ipps://…` printer URI as a connection and path: plain HTTP
 * (port 631 by default) for ipp, TLS for ipps. Null for anything else.
 */
export function ippUriRef(uri: string, options: Omit<IppClientOptions, 'server'> = {}): IppPrinterRef | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if ((url.protocol !== 'ipp:' && url.protocol !== 'ipps:') || url.hostname === '') return null;
  const port = url.port || '631';
  const origin = `${url.protocol === 'ipps:' ? 'https' : 'http'}://${url.hostname}:${port}`;
  return { ...options, server: origin, resource: url.pathname || '/', printerUri: uri };
}

const JOB_ATTRS: Attr = { tag: TAG.keyword, name: 'requested-attributes', values: ['job-id', 'job-name', 'job-state', 'job-printer-uri'] };

/** What a printer says about a job beside its state: why it is where it is, in its own words. */
const JOB_REPORT_ATTRS = [
  'job-id',
  'job-state',
  'job-state-reasons',
  'job-state-message',
  'job-printer-state-reasons',
  'job-printer-state-message',
];

function strings(values: readonly Value[] | undefined): string[] {
  return (values ?? []).filter((v): v is string => typeof v === 'string');
}

function toJob(attrs: Map<string, Value[]>): IppJob | null {
  const id = attrs.get('job-id')?.[0];
  if (typeof id !== 'number') return null;
  const state = attrs.get('job-state')?.[0];
  const printerUri = attrs.get('job-printer-uri')?.[0];
  return {
    id,
    name: String(attrs.get('job-name')?.[0] ?? ''),
    state: (typeof state === 'number' && JOB_STATES[state]) || 'unknown',
    printerUri: typeof printerUri === 'string' ? printerUri : null,
  };
}

/** A job's state with the printer's reasons and words (RFC 8011 §5.3.8, CUPS's job-printer-state-*). */
export interface IppJobReport {
  readonly id: number;
  readonly state: IppJobState;
  /** `job-state-reasons`, `none` left out, e.g. `job-canceled-by-user`, `aborted-by-system`. */
  readonly reasons: readonly string[];
  /** `job-state-message` ('' when none). */
  readonly message: string;
  /**
   * CUPS: the device's `printer-state-reasons` while it had the job, e.g.
   * `cups-ipp-missing-job-history` (the printer lost the job); `none` left out.
   */
  readonly printerReasons: readonly string[];
  /** CUPS: the device's last words about the job (`job-printer-state-message`), '' when none. */
  readonly printerMessage: string;
}

function toReport(attrs: Map<string, Value[]>): IppJobReport | null {
  const job = toJob(attrs);
  if (!job) return null;
  return {
    id: job.id,
    state: job.state,
    reasons: strings(attrs.get('job-state-reasons')).filter((r) => r !== 'none'),
    message: strings(attrs.get('job-state-message'))[0] ?? '',
    printerReasons: strings(attrs.get('job-printer-state-reasons')).filter((r) => r !== 'none'),
    printerMessage: strings(attrs.get('job-printer-state-message'))[0] ?? '',
  };
}

let requestIds = 1;

/** A fresh request-id for an IPP message (RFC 8011: 1 to 2^31-1). */
export function nextRequestId(): number {
  requestIds = requestIds >= 0x7fffffff ? 1 : requestIds + 1;
  return requestIds;
}

/** An IPP error status as an Error naming the operation and where it was asked. */
export class IppStatusError extends Error {
  readonly code = 'IPP_STATUS';
  constructor(
    readonly status: number,
    operation: string,
    where: string,
    statusMessage = '',
  ) {
    super(
      `${where} refused ${operation} (IPP status 0x${status.toString(16).padStart(4, '0')}${statusMessage ? `: ${statusMessage}` : ''})`,
    );
    this.name = 'IppStatusError';
  }
}

async function ask(
  ref: IppPrinterRef,
  operation: number,
  attrs: readonly Attr[],
): Promise<{ status: number; groups: ReturnType<typeof decodeIppResponse>['groups'] }> {
  const body = encodeIppRequest(operation, nextRequestId(), [
    ...baseAttrs(),
    { tag: TAG.uri, name: 'printer-uri', values: [ref.printerUri] },
    userAttr(ref),
    ...attrs,
  ]);
  return decodeIppResponse(await ippPost(ref.server, ref.resource, body, ref.timeoutMs));
}

function statusMessage(groups: ReturnType<typeof decodeIppResponse>['groups']): string {
  return strings(groups.find((g) => g.tag === TAG.operation)?.attrs.get('status-message'))[0] ?? '';
}

/** Get-Jobs on one printer: every job it still remembers (`which-jobs` all), with names. */
export async function ippGetJobsAt(ref: IppPrinterRef, which: 'all' | 'not-completed' | 'completed' = 'all'): Promise<IppJob[]> {
  const res = await ask(ref, OP_GET_JOBS, [{ tag: TAG.keyword, name: 'which-jobs', values: [which] }, JOB_ATTRS]);
  if (res.status === STATUS_NOT_FOUND) return [];
  if (res.status >= 0x0400) throw new IppStatusError(res.status, 'Get-Jobs', ref.printerUri, statusMessage(res.groups));
  return res.groups.filter((g) => g.tag === TAG.job).flatMap((g) => toJob(g.attrs) ?? []);
}

/** Get-Jobs on one CUPS queue (see ippGetJobsAt). */
export function ippGetJobs(
  options: IppClientOptions,
  queue: string,
  which: 'all' | 'not-completed' | 'completed' = 'all',
): Promise<IppJob[]> {
  return ippGetJobsAt(cupsQueueRef(options, queue), which);
}

/** Get-Job-Attributes by printer-uri and job-id; null when the printer no longer knows the job. */
export async function ippGetJobReport(ref: IppPrinterRef, jobId: number): Promise<(IppJobReport & { readonly name: string }) | null> {
  const res = await ask(ref, OP_GET_JOB_ATTRIBUTES, [
    { tag: TAG.integer, name: 'job-id', values: [jobId] },
    { tag: TAG.keyword, name: 'requested-attributes', values: [...JOB_REPORT_ATTRS, 'job-name'] },
  ]);
  if (res.status === STATUS_NOT_FOUND) return null;
  if (res.status >= 0x0400)
    throw new IppStatusError(res.status, `Get-Job-Attributes for job ${jobId}`, ref.printerUri, statusMessage(res.groups));
  const attrs = res.groups.find((g) => g.tag === TAG.job)?.attrs;
  const report = attrs ? toReport(attrs) : null;
  return report && attrs ? { ...report, name: String(attrs.get('job-name')?.[0] ?? '') } : null;
}

/** Printers (by connection and path) that refused Get-Jobs with job-ids: asked the longer way from then on. */
const noJobIds = new Set<string>();

/**
 * The state of each of `jobIds` (the jobs in flight) and how each ended, in one request when
 * the printer takes Get-Jobs with `job-ids` (PWG 5100.7; cupsd does): it answers for exactly
 * those jobs, not its whole history. An asked job left out of the answer is asked alone. A printer that refuses
 * job-ids is asked for its not-completed jobs, then Get-Job-Attributes for each asked job
 * that has left that list (it ended: asked once). A job the printer no longer knows maps to null.
 */
export async function ippGetJobReports(ref: IppPrinterRef, jobIds: readonly number[]): Promise<Map<number, IppJobReport | null>> {
  const key = `${ref.server} ${ref.resource}`;
  const result = new Map<number, IppJobReport | null>();
  if (jobIds.length === 0) return result;
  if (!noJobIds.has(key)) {
    const res = await ask(ref, OP_GET_JOBS, [
      { tag: TAG.integer, name: 'job-ids', values: [...jobIds] },
      { tag: TAG.keyword, name: 'requested-attributes', values: JOB_REPORT_ATTRS },
    ]);
    if (res.status < 0x0400) {
      for (const group of res.groups) {
        if (group.tag !== TAG.job) continue;
        const report = toReport(group.attrs);
        if (report) result.set(report.id, report);
      }
      // A printer that lists only its not-completed jobs whatever the job-ids (ippeveprinter)
      // leaves ended ones out: those are asked alone, so "not listed" never passes for "gone".
      for (const id of jobIds) if (!result.has(id)) result.set(id, await ippGetJobReport(ref, id));
      return result;
    }
    if (res.status === STATUS_NOT_FOUND) {
      for (const id of jobIds) result.set(id, null);
      return result;
    }
    noJobIds.add(key);
  }
  const res = await ask(ref, OP_GET_JOBS, [
    { tag: TAG.keyword, name: 'which-jobs', values: ['not-completed'] },
    { tag: TAG.keyword, name: 'requested-attributes', values: JOB_REPORT_ATTRS },
  ]);
  const active = new Map<number, IppJobReport>();
  if (res.status >= 0x0400 && res.status !== STATUS_NOT_FOUND) {
    throw new IppStatusError(res.status, 'Get-Jobs', ref.printerUri, statusMessage(res.groups));
  }
  for (const group of res.groups) {
    if (group.tag !== TAG.job) continue;
    const report = toReport(group.attrs);
    if (report) active.set(report.id, report);
  }
  for (const id of jobIds) result.set(id, active.get(id) ?? (await ippGetJobReport(ref, id)));
  return result;
}

/** Get-Job-Attributes on a CUPS scheduler (by job-uri: any queue); null when it no longer knows the job. */
export async function ippGetJob(options: IppClientOptions, jobId: number): Promise<IppJob | null> {
  const body = encodeIppRequest(OP_GET_JOB_ATTRIBUTES, nextRequestId(), [
    ...baseAttrs(),
    { tag: TAG.uri, name: 'job-uri', values: [`ipp://localhost/jobs/${jobId}`] },
    userAttr(options),
    JOB_ATTRS,
  ]);
  const res = decodeIppResponse(await ippPost(options.server, '/jobs', body, options.timeoutMs));
  if (res.status === STATUS_NOT_FOUND) return null;
  if (res.status >= 0x0400) throw new Error(`CUPS refused Get-Job-Attributes for job ${jobId} (IPP status 0x${res.status.toString(16)})`);
  const group = res.groups.find((g) => g.tag === TAG.job);
  return group ? toJob(group.attrs) : null;
}

export type IppPrinterState = 'idle' | 'processing' | 'stopped' | 'unknown';
const PRINTER_STATES: Record<number, IppPrinterState> = { 3: 'idle', 4: 'processing', 5: 'stopped' };

export interface IppPrinter {
  /** The printer's name as it spells it (`printer-name`: a CUPS queue's name). */
  readonly name: string;
  /** `stopped` is what `cupsdisable` leaves and `lpstat -p` calls "disabled". */
  readonly state: IppPrinterState;
  /** `printer-state-reasons` keywords, e.g. `paused`, `media-empty-error`; `none` left out. */
  readonly stateReasons: readonly string[];
  /**
   * `printer-state-message`: the reason given to `cupsdisable -r` or `cupsreject -r`
   * (cupsd fills in "Paused" or "Rejecting Jobs" without one), or the device's own words
   * ("The printer may not exist or is unavailable at this time."); '' when none.
   */
  readonly stateMessage: string;
  readonly acceptingJobs: boolean;
  /** When the state last changed (`printer-state-change-date-time`), null when not said. */
  readonly stateChangedAt: Date | null;
  /** `media-supported` keywords ([] when the printer does not say, e.g. a raw CUPS queue). */
  readonly mediaSupported: readonly string[];
  /** `document-format-supported` MIME types ([] when not said). */
  readonly formatsSupported: readonly string[];
  /** CUPS: the queue's `device-uri` (what it prints to), null when not said. */
  readonly deviceUri: string | null;
}

const PRINTER_ATTRS: Attr = {
  tag: TAG.keyword,
  name: 'requested-attributes',
  values: [
    'printer-name',
    'printer-state',
    'printer-state-reasons',
    'printer-state-message',
    'printer-is-accepting-jobs',
    'printer-state-change-date-time',
    'media-supported',
    'document-format-supported',
    'device-uri',
  ],
};

/**
 * Get-Printer-Attributes: the printer's state, whether it accepts jobs and what media and
 * formats it takes, in one HTTP round trip (under a millisecond on loopback) instead of an
 * `lpstat` process (about 10 ms). Null when there is no such printer (or CUPS queue).
 */
export async function ippGetPrinterAt(ref: IppPrinterRef): Promise<IppPrinter | null> {
  const res = await ask(ref, OP_GET_PRINTER_ATTRIBUTES, [PRINTER_ATTRS]);
  if (res.status === STATUS_NOT_FOUND) return null;
  if (res.status >= 0x0400) throw new IppStatusError(res.status, 'Get-Printer-Attributes', ref.printerUri, statusMessage(res.groups));
  const attrs = res.groups.find((g) => g.tag === TAG.printer)?.attrs;
  if (!attrs) return null;
  const state = attrs.get('printer-state')?.[0];
  const changed = attrs.get('printer-state-change-date-time')?.[0];
  return {
    name: String(attrs.get('printer-name')?.[0] ?? ''),
    state: (typeof state === 'number' && PRINTER_STATES[state]) || 'unknown',
    stateReasons: strings(attrs.get('printer-state-reasons')).filter((r) => r !== 'none'),
    stateMessage: strings(attrs.get('printer-state-message'))[0] ?? '',
    acceptingJobs: attrs.get('printer-is-accepting-jobs')?.[0] === true,
    stateChangedAt: changed instanceof Date ? changed : null,
    mediaSupported: [...new Set(strings(attrs.get('media-supported')))],
    formatsSupported: [...new Set(strings(attrs.get('document-format-supported')))],
    deviceUri: strings(attrs.get('device-uri'))[0] ?? null,
  };
}

/** Get-Printer-Attributes for a CUPS queue (classes too: cupsd answers them under /printers/). */
export async function ippGetPrinter(options: IppClientOptions, queue: string): Promise<IppPrinter | null> {
  const printer = await ippGetPrinterAt(cupsQueueRef(options, queue));
  return printer ? { ...printer, name: printer.name || queue } : null;
}
