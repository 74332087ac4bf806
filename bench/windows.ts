/**
 * Windows: what one SumatraPDF run per batch saves. Windows printing cannot
 * run here, so the real WindowsTarget runs against a fake SumatraPDF: an executable (a node
 * script, the pattern of test/fixtures/windows/fake-powershell.mjs) that takes the
 * arguments pdf-to-printer passes and sleeps like the real one, a fixed start-up cost plus a
 * cost per page (SUMATRA_START_MS, SUMATRA_PAGE_MS below: assumptions, not Windows
 * measurements). The pipeline prints the same labels with batching off and on, and the time
 * per label is measured end to end (process start, temp file, the target's own work included).
 */
import { execFile } from 'node:child_process';
import { chmodSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { Ledger } from '../src/main/ledger/ledger';
import { PrintPipeline } from '../src/main/jobs/pipeline';
import type { PdfFetcher } from '../src/main/jobs/ports';
import { WindowsTarget, type PdfToPrinterModule } from '../src/main/printing/windows/windows-target';

const run = promisify(execFile);
/** SumatraPDF start-up, print-dialog-free spool and exit for one run (assumed). */
export const SUMATRA_START_MS = 400;
/** Rendering one label page to the spooler (assumed). */
export const SUMATRA_PAGE_MS = 10;

export interface WindowsResult {
  readonly labels: number;
  readonly sumatra_start_ms: number;
  readonly sumatra_page_ms: number;
  readonly alone_s: number;
  readonly alone_runs: number;
  readonly batched_s: number;
  readonly batched_runs: number;
  readonly batch_max: number;
  /** Seconds per label, batching off. */
  readonly per_label_alone_ms: number;
  readonly per_label_batched_ms: number;
}

const FAKE = `#!/usr/bin/env node
// Fake SumatraPDF: -print-to PRINTER [-print-settings S] -silent FILE; sleeps like the real one.
const fs = require('node:fs');
const file = process.argv[process.argv.length - 1];
const pages = (fs.readFileSync(file, 'latin1').match(/\\/Type\\s*\\/Page(?!s)/g) || []).length;
fs.appendFileSync(process.env.FAKE_SUMATRA_LOG, JSON.stringify({ args: process.argv.slice(2, -1), pages }) + '\\n');
setTimeout(() => process.exit(0), ${SUMATRA_START_MS} + pages * ${SUMATRA_PAGE_MS});
`;

export async function runWindows(options: {
  readonly labels: number;
  readonly batchMax: number;
  readonly workDir: string;
  readonly log: (l: string) => void;
}): Promise<WindowsResult> {
  const dir = path.join(options.workDir, 'windows');
  await fs.mkdir(dir, { recursive: true });
  const exe = path.join(dir, 'SumatraPDF.js');
  await fs.writeFile(exe, FAKE);
  chmodSync(exe, 0o755);
  const label = await onePageLabel();
  const alone = await printAll(options.labels, 1, dir, exe, label);
  options.log(`windows: ${options.labels} labels alone ${alone.seconds.toFixed(1)} s in ${alone.runs} SumatraPDF runs`);
  const batched = await printAll(options.labels, options.batchMax, dir, exe, label);
  options.log(`windows: batched (${options.batchMax}) ${batched.seconds.toFixed(1)} s in ${batched.runs} runs`);
  return {
    labels: options.labels,
    sumatra_start_ms: SUMATRA_START_MS,
    sumatra_page_ms: SUMATRA_PAGE_MS,
    alone_s: alone.seconds,
    alone_runs: alone.runs,
    batched_s: batched.seconds,
    batched_runs: batched.runs,
    batch_max: options.batchMax,
    per_label_alone_ms: (alone.seconds * 1000) / options.labels,
    per_label_batched_ms: (batched.seconds * 1000) / options.labels,
  };
}

async function printAll(
  labels: number,
  batchMax: number,
  dir: string,
  exe: string,
  label: PDFDocument,
): Promise<{ seconds: number; runs: number }> {
  const logFile = path.join(dir, `sumatra-${batchMax}.log`);
  await fs.writeFile(logFile, '');
  process.env.FAKE_SUMATRA_LOG = logFile;
  // pdf-to-printer's call: SumatraPDF -print-to PRINTER -print-settings ... -silent FILE.
  const module: PdfToPrinterModule = {
    print: async (file, o) => {
      const settings = [`paper=${o?.paperSize ?? ''}`, o?.scale ?? 'noscale', `${o?.copies ?? 1}x`].join(',');
      await run(exe, ['-print-to', o?.printer ?? '', '-print-settings', settings, '-silent', file]);
    },
    getPrinters: async () => [{ deviceId: 'Bench', name: 'Bench' }],
  };
  const target = new WindowsTarget({
    uri: 'windows:Bench',
    name: 'Bench',
    pdfToPrinter: module,
    tempDir: dir,
    spooler: null,
    checkReadiness: false,
  });
  // The service's answer to a batch: one PDF, a page per shipment.
  const fetcher: PdfFetcher = {
    printFile: async (req) => {
      const doc = await PDFDocument.create();
      for (const page of await doc.copyPages(
        label,
        req.shipment_ids.map(() => 0),
      ))
        doc.addPage(page);
      return { pdf: await doc.save(), requestId: null };
    },
  };
  const ledger = Ledger.open({ path: path.join(dir, `ledger-${batchMax}.sqlite`), pruneIntervalMs: 0 });
  const pipeline = new PrintPipeline({
    ledger,
    fetcher,
    targetFor: () => target,
    route: () => ({ target: 'windows:Bench', layout: 'printer', media: 'label' }),
    batchMax,
  });
  await pipeline.start();
  const t0 = Date.now();
  for (let i = 0; i < labels; i++) {
    pipeline.submitBooking({
      shipmentId: `win-${batchMax}-${i}`,
      referenceId: null,
      trackingId: null,
      bookedAt: new Date(t0 + i).toISOString(),
      trigger: 'webhook',
    });
  }
  await pipeline.idle();
  const seconds = (Date.now() - t0) / 1000;
  await pipeline.stop();
  ledger.close();
  const runs = (await fs.readFile(logFile, 'utf8')).trim().split('\n').filter(Boolean).length;
  return { seconds, runs };
}

async function onePageLabel(): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  doc.addPage([288, 432]).drawText('label', { x: 20, y: 400 });
  return doc;
}
