/**
 * PDF pages to ZPL on a worker thread (zpl-raster-worker.ts): rendering is most of a raw
 * printer's CPU (about 2 ms a 4x6 label at 203 dpi), and on the main thread a burst's
 * rendering and the agent's intake (webhooks, fetching the next batch, the ledger) take
 * turns on one core. On its own thread the rendering overlaps them.
 *
 * One worker, not a pool per core: MuPDF holds about 120 MB in each thread that loads it,
 * and the worker is the only one that does (the main thread does not load MuPDF while the
 * worker serves). It starts on the first label, so an agent without a raw printer has none,
 * and it does not keep the process alive while idle.
 *
 * Where no worker can run (its file is not beside this module, as in a bundle built without
 * it, or it fails to start) or it dies mid-job, the labels are rendered on the calling
 * thread instead: the same function, the same bytes, only not in parallel.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { LabelPdfRefusedError } from '../label-pdf-limits';
import { mupdfLoaded, pdfToZpl, type ZplLabel, type ZplRasterOptions } from './zpl-raster';

export interface RasterRequest {
  readonly id: number;
  readonly pdf: Uint8Array;
  readonly options: ZplRasterOptions;
}

export type RasterReply =
  | { readonly id: number; readonly labels: ZplLabel[] }
  | { readonly id: number; readonly error: string; readonly code?: 'LABEL_PDF_REFUSED' | undefined };

/** The worker's file beside this module: built JavaScript (the agent bundle, the app), else the TypeScript source (tsx, tests). */
const WORKER_FILES = ['zpl-raster-worker.mjs', 'zpl-raster-worker.js', 'zpl-raster-worker.ts'] as const;

function workerUrl(): URL | null {
  for (const name of WORKER_FILES) {
    const url = new URL(`./${name}`, import.meta.url);
    if (url.protocol === 'file:' && existsSync(url)) return url;
  }
  return null;
}

interface Pending {
  readonly request: RasterRequest;
  readonly resolve: (labels: ZplLabel[]) => void;
  readonly reject: (error: Error) => void;
}

/** A worker rendering failed for the PDF itself (not because the thread died): the same error on any thread. */
export class ZplRasterError extends Error {
  readonly code = 'ZPL_RASTER_FAILED';
}

class RasterWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** It has answered once: a thread that dies before that (a missing loader, a broken build) is not started again. */
  private answered = false;
  /** Ended on purpose (stopRasterWorker): not a sign that threads cannot run here. */
  private stopping = false;
  /** Set once the thread has died or failed to start: what it held is rendered on the calling thread. */
  dead = false;

  constructor(url: URL, onDeath: (worker: RasterWorker, worked: boolean) => void) {
    // TypeScript source (tsx, tests) needs the TypeScript loader in the thread as well.
    const execArgv =
      url.pathname.endsWith('.ts') && !process.execArgv.some((arg) => arg.includes('tsx'))
        ? [...process.execArgv, '--import', 'tsx']
        : undefined;
    this.worker = new Worker(url, { execArgv, name: 'zpl-raster' });
    this.worker.unref();
    this.worker.on('message', (reply: RasterReply) => this.settle(reply));
    const die = (): void => {
      if (this.dead) return;
      this.dead = true;
      onDeath(this, this.answered || this.stopping);
      const left = [...this.pending.values()];
      this.pending.clear();
      for (const job of left) pdfToZpl(job.request.pdf, job.request.options).then(job.resolve, job.reject);
    };
    this.worker.on('error', die);
    this.worker.on('exit', die);
  }

  render(pdf: Uint8Array, options: ZplRasterOptions): Promise<ZplLabel[]> {
    return new Promise((resolve, reject) => {
      const request: RasterRequest = { id: ++this.nextId, pdf, options };
      this.pending.set(request.id, { request, resolve, reject });
      // Referenced while it has work: a command that prints and exits waits for its labels.
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage(request);
    });
  }

  private settle(reply: RasterReply): void {
    this.answered = true;
    const job = this.pending.get(reply.id);
    if (!job) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in reply) job.reject(reply.code ? new LabelPdfRefusedError(reply.error) : new ZplRasterError(reply.error));
    else job.resolve(reply.labels);
  }

  /** Ends the thread; labels it still held are rendered on the calling thread (its exit does that). */
  async terminate(): Promise<void> {
    this.stopping = true;
    await this.worker.terminate();
  }
}

let current: RasterWorker | null = null;
/** No worker for the rest of the process: its file is missing or it could not start. */
let unavailable = false;

function rasterWorker(): RasterWorker | null {
  if (unavailable) return null;
  if (current && !current.dead) return current;
  const url = workerUrl();
  if (!url) {
    unavailable = true;
    return null;
  }
  current = new RasterWorker(url, (worker, worked) => {
    if (!worked) unavailable = true;
    if (current === worker) current = null;
  });
  return current;
}

/** Every page of the PDF as a ZPL label, rendered on the worker thread when there is one. */
export function pdfToZplOffThread(pdf: Uint8Array, options: ZplRasterOptions): Promise<ZplLabel[]> {
  const worker = rasterWorker();
  return worker ? worker.render(pdf, options) : pdfToZpl(pdf, options);
}

/** Whether labels have been rendered (or asked for) in this process: on the worker or here. */
export function rasterizerStarted(): boolean {
  return current !== null || mupdfLoaded();
}

/** Whether a worker thread is rendering (false: labels render on the calling thread). */
export function rasterWorkerRunning(): boolean {
  return current !== null && !current.dead;
}

/** Stops the worker (its MuPDF memory goes with it); the next label starts a new one. */
export async function stopRasterWorker(): Promise<void> {
  const worker = current;
  current = null;
  if (worker && !worker.dead) await worker.terminate();
}
