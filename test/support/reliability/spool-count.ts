/**
 * Counting what came out of a printer: the spooled outputs per shipment. A CUPS sink
 * queue names each file `<job>-<title>.pdf`, and the agent's titles carry the job id and
 * shipment id (`Print Station <job> <shipment> label`); a folder target's file names hold
 * the shipment id too. So the count per shipment is the number of files naming it
 * (countByShipment), when every job holds one label. A batch (on by default for CUPS and
 * Windows printers) holds several and its title names none: countPrinted counts the labels
 * read from the PDFs themselves (pdf-shipments.ts).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface SpoolCount {
  /** Expected shipments with no output. */
  readonly missing: string[];
  /** Expected shipments with more than one output, and how many. */
  readonly duplicated: Array<{ shipmentId: string; count: number }>;
  /** Outputs naming none of the expected shipments. */
  readonly unexpected: string[];
  readonly total: number;
}

export function countByShipment(files: readonly string[], expected: Iterable<string>): SpoolCount {
  const counts = new Map<string, number>();
  for (const id of expected) counts.set(id, 0);
  const ids = [...counts.keys()];
  const unexpected: string[] = [];
  for (const file of files) {
    const name = path.basename(file);
    const id = ids.find((s) => name.includes(s));
    if (id === undefined) unexpected.push(name);
    else counts.set(id, counts.get(id)! + 1);
  }
  return {
    missing: ids.filter((id) => counts.get(id) === 0),
    duplicated: ids.filter((id) => counts.get(id)! > 1).map((shipmentId) => ({ shipmentId, count: counts.get(shipmentId)! })),
    unexpected,
    total: files.length,
  };
}

/** Per shipment from the labels printed (PrintedShipments), not the files: a batch file counts once for each label in it. */
export function countPrinted(printed: readonly string[], expected: Iterable<string>, files: number): SpoolCount {
  const counts = new Map<string, number>();
  for (const id of expected) counts.set(id, 0);
  const unexpected: string[] = [];
  for (const id of printed) {
    if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
    else unexpected.push(id);
  }
  const ids = [...counts.keys()];
  return {
    missing: ids.filter((id) => counts.get(id) === 0),
    duplicated: ids.filter((id) => counts.get(id)! > 1).map((shipmentId) => ({ shipmentId, count: counts.get(shipmentId)! })),
    unexpected,
    total: files,
  };
}

/** Files in `dir` that are whole PDFs (`%PDF-` at the start, `%%EOF` near the end), and those that are not. */
export async function checkPdfs(files: readonly string[]): Promise<{ whole: number; broken: string[] }> {
  const broken: string[] = [];
  for (const file of files) {
    const bytes = await fs.readFile(file);
    const head = bytes.subarray(0, 5).toString('latin1');
    const tail = bytes.subarray(Math.max(0, bytes.length - 1024)).toString('latin1');
    if (head !== '%PDF-' || !tail.includes('%%EOF')) broken.push(path.basename(file));
  }
  return { whole: files.length - broken.length, broken };
}

/** PDF files in a folder target's directory (temp files excluded). */
export async function folderOutputs(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => !n.startsWith('.') && n.endsWith('.pdf'))
    .sort()
    .map((n) => path.join(dir, n));
}

export function describeCount(c: SpoolCount): string {
  const dup = c.duplicated
    .slice(0, 5)
    .map((d) => `${d.shipmentId}×${d.count}`)
    .join(', ');
  return `${c.total} outputs; missing ${c.missing.length}${c.missing.length ? ` (${c.missing.slice(0, 5).join(', ')})` : ''}; duplicated ${c.duplicated.length}${dup ? ` (${dup})` : ''}; unexpected ${c.unexpected.length}`;
}
