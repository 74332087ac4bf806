/**
 * The burst's limit: what the service and the spooler allow at best, each measured alone on
 * the same sandbox and queue, in the same run as the agent.
 * - fetch-only: POST /shipments/print (output_format file) for every shipment, calls made
 *   `concurrency` at a time;
 * - spool-only: every pre-fetched PDF handed over in booking order with IPP Print-Job on one
 *   keep-alive connection (the way the agent spools), or with `lp` for reference.
 * Calls are grouped the way the agent groups a burst (printCalls): the first shipment alone,
 * then up to `batchMax` a call; batchMax 1 is every shipment alone (the unbatched limit).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { closeIppConnections } from '../src/main/printing/ipp/ipp-connection';
import { ippPrintJob } from '../src/main/printing/ipp/ipp-print';
import type { PrivateCups } from '../test/support/cups';
import { mapConcurrent } from '../test/support/reliability/webhook-sender';
import type { SandboxProcess } from './sandbox-process';

const execFileAsync = promisify(execFile);
const LP_LABEL_ARGS = ['-o', 'media=Custom.4x6in', '-o', 'print-scaling=none'];

/**
 * The print calls the agent makes for a burst at best: the first shipment alone (the agent
 * never holds the first label of a burst back to fill a batch), then `batchMax` a call, in
 * booking order (src/main/jobs/batching.ts takes the jobs already waiting behind the first,
 * up to batchMax). batchMax 1: one call a shipment.
 */
export function printCalls<T>(items: readonly T[], batchMax: number): T[][] {
  if (!Number.isInteger(batchMax) || batchMax < 1) throw new Error(`batchMax must be a whole number ≥ 1, got ${batchMax}`);
  if (items.length === 0) return [];
  const calls: T[][] = [[items[0]!]];
  for (let i = 1; i < items.length; i += batchMax) calls.push(items.slice(i, i + batchMax));
  return calls;
}

export interface FetchRun {
  readonly seconds: number;
  /** One PDF a call, in call order. */
  readonly pdfs: Buffer[];
}

/** POST /shipments/print for each call (its shipment ids, one PDF back), `concurrency` calls at a time. */
export async function fetchCalls(
  sandbox: SandboxProcess,
  calls: readonly (readonly string[])[],
  concurrency: number,
  layout = 'printer',
): Promise<FetchRun> {
  const url = new URL(sandbox.baseUrl);
  const pool = new Pool(url.origin, { connections: 32 });
  const fetchOne = async (ids: readonly string[]): Promise<Buffer> => {
    const res = await pool.request({
      method: 'POST',
      path: `${url.pathname}/shipments/print`,
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json', accept: 'application/pdf' },
      body: JSON.stringify({ shipment_ids: ids, document_type: 'label', label_layout: layout, output_format: 'file' }),
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) throw new Error(`print ${ids.join(',')}: ${res.statusCode} ${body.toString('utf8').slice(0, 200)}`);
    return body;
  };
  try {
    const t = performance.now();
    const pdfs = await mapConcurrent(calls, concurrency, fetchOne);
    return { seconds: (performance.now() - t) / 1000, pdfs };
  } finally {
    await pool.close();
  }
}

export interface FetchLimit extends FetchRun {
  readonly concurrency: number;
  /** Seconds for the whole set at each concurrency tried (only for the batched limit; the alone one tries on a sample). */
  readonly byConcurrency: Readonly<Record<string, number>>;
}

/**
 * Fetch-only with batching: the calls are few (9 for 200 shipments at 25), too few for a
 * sample to tell concurrencies apart, so each concurrency fetches the whole set and the
 * fastest is the limit.
 */
export async function fetchLimitBatched(
  sandbox: SandboxProcess,
  calls: readonly (readonly string[])[],
  concurrencies: readonly number[],
): Promise<FetchLimit> {
  let best: FetchLimit | null = null;
  const byConcurrency: Record<string, number> = {};
  for (const concurrency of concurrencies) {
    const run = await fetchCalls(sandbox, calls, concurrency);
    byConcurrency[String(concurrency)] = run.seconds;
    if (!best || run.seconds < best.seconds) best = { ...run, concurrency, byConcurrency };
  }
  if (!best) throw new Error('no concurrency to try');
  return best;
}

/**
 * Fetch-only, every shipment alone (the limit before batching, kept as it was measured):
 * the best concurrency is picked on the first 100 shipments, then the whole set is fetched at it.
 */
export async function fetchLimitAlone(
  sandbox: SandboxProcess,
  ids: readonly string[],
  concurrencies: readonly number[],
): Promise<FetchLimit> {
  const calls = printCalls(ids, 1);
  const sample = calls.slice(0, Math.min(100, calls.length));
  let best = { concurrency: concurrencies[0]!, seconds: Infinity };
  const byConcurrency: Record<string, number> = {};
  for (const concurrency of concurrencies) {
    const { seconds } = await fetchCalls(sandbox, sample, concurrency);
    byConcurrency[String(concurrency)] = seconds;
    if (seconds < best.seconds) best = { concurrency, seconds };
  }
  const run = await fetchCalls(sandbox, calls, best.concurrency);
  return { ...run, concurrency: best.concurrency, byConcurrency };
}

/** IPP Print-Job for each PDF, one after another in order on one keep-alive connection; seconds until the last was accepted. */
export async function spoolIpp(cups: PrivateCups, queue: string, pdfs: readonly Buffer[], names: readonly string[]): Promise<number> {
  const t = performance.now();
  try {
    for (let i = 0; i < pdfs.length; i++) {
      const name = names[i]!;
      const answer = await ippPrintJob({ server: cups.server }, queue, {
        name,
        pdf: pdfs[i]!,
        copies: 1,
        media: 'oe_4x6-label_4x6in',
        printScaling: 'none',
      });
      if (answer.jobId === null) throw new Error(`Print-Job for ${name} refused: IPP status 0x${answer.status.toString(16)}`);
    }
    return (performance.now() - t) / 1000;
  } finally {
    await closeIppConnections();
  }
}

/** Writes each PDF to `dir` as NAME.pdf (for lp); returns the paths in order. */
export async function writePdfs(dir: string, pdfs: readonly Buffer[], names: readonly string[]): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < pdfs.length; i++) {
    const file = path.join(dir, `${names[i]}.pdf`);
    await fs.writeFile(file, pdfs[i]!);
    files.push(file);
  }
  return files;
}

/** lp for every file, `concurrency` at a time; seconds until the last lp returned. */
export async function spoolLp(cups: PrivateCups, queue: string, files: readonly string[], concurrency: number): Promise<number> {
  const env = cups.env;
  const t = performance.now();
  await mapConcurrent(files, concurrency, (file) =>
    execFileAsync('lp', ['-d', queue, '-t', `limit ${path.basename(file, '.pdf')}`, ...LP_LABEL_ARGS, file], { env }),
  );
  return (performance.now() - t) / 1000;
}
