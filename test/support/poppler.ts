import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Independent readings of a PDF by poppler-utils (pdfinfo, pdftotext, pdfimages). */
export class Poppler {
  private constructor(private readonly dir: string) {}

  static async create(): Promise<Poppler> {
    return new Poppler(await mkdtemp(join(tmpdir(), 'ps-documents-')));
  }

  private counter = 0;

  async save(pdf: Uint8Array): Promise<string> {
    const file = join(this.dir, `doc-${(this.counter += 1)}.pdf`);
    await writeFile(file, pdf);
    return file;
  }

  /** Page count and each page's size in points, as pdfinfo reports them. */
  async info(file: string): Promise<{ pages: number; sizes: Array<[number, number]> }> {
    const { stdout: summary } = await run('pdfinfo', [file]);
    const pages = Number(/^Pages:\s+(\d+)/m.exec(summary)?.[1]);
    const { stdout } = await run('pdfinfo', ['-f', '1', '-l', String(pages), file]);
    const sizes = [...stdout.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map(
      (m) => [Number(m[1]), Number(m[2])] as [number, number],
    );
    return { pages, sizes };
  }

  /** The text of one page (1-based), or of the whole document. */
  async text(file: string, page?: number): Promise<string> {
    const range = page ? ['-f', String(page), '-l', String(page)] : [];
    const { stdout } = await run('pdftotext', [...range, file, '-']);
    return stdout;
  }

  /** Images drawn per page (pdfimages lists each placement; soft masks left out). */
  async imagesPerPage(file: string): Promise<Map<number, Array<{ width: number; height: number }>>> {
    const { stdout } = await run('pdfimages', ['-list', file]);
    const perPage = new Map<number, Array<{ width: number; height: number }>>();
    for (const line of stdout.split('\n').slice(2)) {
      const cols = line.trim().split(/\s+/);
      if (cols[2] !== 'image') continue;
      const page = Number(cols[0]);
      perPage.set(page, [...(perPage.get(page) ?? []), { width: Number(cols[3]), height: Number(cols[4]) }]);
    }
    return perPage;
  }

  /**
   * The barcodes a scanner reads on one page (1-based): the page rendered by pdftoppm at
   * 200 dpi, decoded by zbarimg (zbar-tools). Values as `TYPE:text`, e.g. `CODE-128:0037...`.
   */
  async barcodes(file: string, page: number): Promise<string[]> {
    const prefix = join(this.dir, `page-${(this.counter += 1)}`);
    await run('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', '-f', String(page), '-l', String(page), file, prefix]);
    // zbarimg exits 4 when it finds no barcode: that is an empty answer, not an error.
    // --nodbus: by default zbarimg also sends each result over the D-Bus system bus, and where
    // there is none (CI, containers) libzbar writes "Connection Error (Failed to connect to
    // socket /run/dbus/system_bus_socket …)" and "Connection Null" to stderr, stray lines in
    // the suite's output. Anything else on stderr is a real problem, so it fails the read.
    const { stdout, stderr } = await run('zbarimg', ['--quiet', '--nodbus', `${prefix}.png`]).catch(
      (error: { code?: number; stdout?: string; stderr?: string }) => {
        if (error.code === 4) return { stdout: '', stderr: error.stderr ?? '' };
        throw error;
      },
    );
    if (stderr.trim() !== '') throw new Error(`zbarimg wrote to stderr: ${stderr.trim()}`);
    return stdout.split('\n').filter(Boolean);
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
