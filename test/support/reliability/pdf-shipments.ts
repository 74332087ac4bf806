/**
 * Counting shipments inside spooled PDFs: a batch (src/main/jobs/batching.ts) spools one
 * document for several shipments, so the file name names none of them. Every label the
 * service renders says `Shipment: <id>`; pdftotext (poppler-utils) reads them back in
 * page order.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The shipment ids printed in one PDF, in page order (one entry per label printed). */
export async function shipmentsInPdf(file: string): Promise<string[]> {
  const { stdout } = await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return [...stdout.matchAll(/Shipment:\s*(\S+)/g)].map((m) => m[1]!);
}

/** The shipments printed across many outputs, in output order then page order. */
export async function shipmentsInPdfs(files: readonly string[]): Promise<string[]> {
  const all: string[] = [];
  for (const file of files) all.push(...(await shipmentsInPdf(file)));
  return all;
}

/** Pages of a PDF (pdfinfo). */
export async function pdfPages(file: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [file]);
  const pages = /^Pages:\s+(\d+)/m.exec(stdout);
  if (!pages) throw new Error(`pdfinfo gave no page count for ${file}`);
  return Number(pages[1]);
}

/**
 * Shipments printed so far across a queue's outputs, reading each whole PDF once (a file
 * still being written is read again next time): the progress of a batched burst, where
 * one output holds several labels.
 */
export class PrintedShipments {
  private readonly read = new Map<string, string[]>();

  async update(files: readonly string[]): Promise<string[]> {
    for (const file of files) {
      if (this.read.has(file)) continue;
      const bytes = await fs.readFile(file);
      if (
        !bytes
          .subarray(Math.max(0, bytes.length - 1024))
          .toString('latin1')
          .includes('%%EOF')
      )
        continue;
      this.read.set(file, await shipmentsInPdf(file));
    }
    return files.flatMap((f) => this.read.get(f) ?? []);
  }
}
