import { constants as fsConstants, promises as nodeFs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { makeDir } from '../../fs/make-dir';
import { fsPrintError, PRINT_ERROR_CODES, PrintError } from '../errors';
import { notReady, type PrinterTarget, type Readiness, type SpoolerJobState, type SpoolRequest, type SpoolResult } from '../target';

/**
 * The file-system calls the folder target makes; tests inject failures (ENOSPC). `statfs`
 * is optional: without it readiness does not look at free space (the probe write still does).
 */
export type FolderFs = Pick<typeof nodeFs, 'mkdir' | 'open' | 'rename' | 'unlink' | 'readdir' | 'access' | 'stat'> &
  Partial<Pick<typeof nodeFs, 'statfs'>>;

/** Free space a folder printer needs to count as ready, before any save has failed for lack of it. */
export const FOLDER_MIN_FREE_BYTES = 1024 * 1024;

export interface FolderTargetOptions {
  readonly uri: string;
  /** Absolute directory; created when missing. */
  readonly dir: string;
  /**
   * Files (and a folder it creates) readable by other accounts: a hot folder another program
   * reads (`folder:DIR?shared`). @default false: 0600 files and 0700 folders on POSIX (labels
   * carry names and addresses), as the data directory
   */
  readonly shared?: boolean;
  /** @default node:fs/promises */
  readonly fs?: FolderFs;
  /**
   * Readiness needs at least this much free space on the folder's disk (statfs), and after a
   * save failed for lack of space, twice that document's size as well. @default 1 MiB (FOLDER_MIN_FREE_BYTES)
   */
  readonly minFreeBytes?: number;
}

/** How long a probe write that went through vouches for the folder (see probedAt). */
const PROBE_EVERY_MS = 60_000;

const UNSAFE = /[^A-Za-z0-9._-]+/g;

/** What a folder printer URI ends with when its files are for other programs too. */
export const SHARED_FOLDER_SUFFIX = '?shared';
const PRIVATE_MODES = { file: 0o600, dir: 0o700 } as const;
const SHARED_MODES = { file: 0o644, dir: 0o755 } as const;

/** Characters of a reference kept in a file name (references are short; a long one is cut, not refused). */
const MAX_REFERENCE_IN_NAME = 40;

/**
 * `<shipmentId>_<documentType>_<layout>[_<reference>]_<jobId>.pdf`: the shipment id first (tools
 * that read a hot folder take it from there), the reference so a person finds an order's label
 * (`DEMO-0001`), and the job id last, which lets findSpooled reconcile.
 */
export function folderFileName(
  request: Pick<SpoolRequest, 'shipmentId' | 'documentType' | 'layout' | 'jobId'> & Pick<Partial<SpoolRequest>, 'reference'>,
): string {
  const part = (s: string) => s.replace(UNSAFE, '-');
  // No underscore inside it: the name's fields stay split by `_`.
  const reference = request.reference ? part(request.reference).replace(/_/g, '-').slice(0, MAX_REFERENCE_IN_NAME) : '';
  return `${part(request.shipmentId)}_${part(request.documentType)}_${part(request.layout)}_${reference ? `${reference}_` : ''}${part(request.jobId)}.pdf`;
}

/**
 * Saves each document as a PDF in a folder. A temp file in the same directory is written,
 * fsynced and renamed into place, so a reader (or a crash) never sees half a file.
 * One file per document: copies mean nothing to a folder.
 */
export class FolderTarget implements PrinterTarget {
  readonly kind = 'folder' as const;
  readonly needsPdf = true;
  readonly uri: string;
  readonly dir: string;
  private readonly fs: FolderFs;
  private readonly modes: { readonly file: number; readonly dir: number };
  private readonly minFreeBytes: number;
  /** Bytes a save that failed for lack of space needed: readiness waits for room for it. */
  private needBytes = 0;
  /**
   * When a probe file last went through (performance.now()); 0 after any failure. Readiness
   * is asked every few seconds for the tray and the state bar: a real write, sync and remove
   * each time would keep the disk busy all day, so a folder that took one recently and still
   * has room and write access is taken at its word for a minute.
   */
  private probedAt = 0;

  constructor(options: FolderTargetOptions) {
    this.uri = options.uri;
    this.dir = options.dir;
    this.fs = options.fs ?? nodeFs;
    this.modes = options.shared ? SHARED_MODES : PRIVATE_MODES;
    this.minFreeBytes = Math.max(0, options.minFreeBytes ?? FOLDER_MIN_FREE_BYTES);
  }

  async spool(request: SpoolRequest): Promise<SpoolResult> {
    if (!request.pdf) {
      throw new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, `${this.uri} saves PDFs: fetch the document with output_format file first.`, {
        target: this.uri,
      });
    }
    const finalPath = path.join(this.dir, folderFileName(request));
    const tempPath = path.join(this.dir, `.${path.basename(finalPath)}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await makeDir(this.dir, { mode: this.modes.dir }, this.fs);
    } catch (error) {
      throw fsPrintError(error, this.dir, this.uri, true);
    }
    try {
      const handle = await this.fs.open(tempPath, 'wx', this.modes.file);
      try {
        await handle.writeFile(request.pdf);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.fs.rename(tempPath, finalPath);
    } catch (error) {
      await this.fs.unlink(tempPath).catch(() => undefined);
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (code === 'ENOSPC' || code === 'EDQUOT') this.needBytes = Math.max(this.needBytes, 2 * request.pdf.byteLength);
      this.probedAt = 0;
      throw fsPrintError(error, finalPath, this.uri);
    }
    this.needBytes = 0;
    await this.syncDir();
    return { spoolerJobId: finalPath, completed: true };
  }

  /** Makes the rename itself durable; some platforms (Windows) cannot open a directory. */
  private async syncDir(): Promise<void> {
    try {
      const dir = await this.fs.open(this.dir, 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch {
      // best effort
    }
  }

  async jobState(spoolerJobId: string): Promise<SpoolerJobState> {
    try {
      await this.fs.stat(spoolerJobId);
      return 'completed';
    } catch {
      return 'unknown';
    }
  }

  async findSpooled(jobId: string): Promise<{ spoolerJobId: string; state: SpoolerJobState } | null> {
    let names: string[];
    try {
      names = await this.fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw fsPrintError(error, this.dir, this.uri);
    }
    // Temp files (dot-prefixed) left by a crash were never renamed: not spooled.
    const suffix = `_${jobId.replace(UNSAFE, '-')}.pdf`;
    const name = names.find((n) => !n.startsWith('.') && n.endsWith(suffix));
    return name ? { spoolerJobId: path.join(this.dir, name), state: 'completed' } : null;
  }

  async readiness(): Promise<Readiness> {
    const problem = await this.check();
    return problem ? notReady(problem) : { ready: true, detail: null };
  }

  /**
   * Why no file can be saved in the folder now (created when missing), or null. Write access
   * is not enough: a full disk, a read-only remount or a share that stopped answering lets
   * access() pass and fails the save, so the free space is read (statfs) and a small file is
   * really written, synced and removed.
   */
  async check(): Promise<PrintError | null> {
    try {
      await makeDir(this.dir, { mode: this.modes.dir }, this.fs);
      await this.fs.access(this.dir, fsConstants.W_OK);
      if (this.fs.statfs) {
        const stats = await this.fs.statfs(this.dir);
        const free = Number(stats.bavail) * Number(stats.bsize);
        if (free < Math.max(this.minFreeBytes, this.needBytes)) {
          throw Object.assign(new Error(`${free} bytes free`), { code: 'ENOSPC' });
        }
      }
      if (this.probedAt === 0 || performance.now() - this.probedAt >= PROBE_EVERY_MS) {
        await this.probeWrite();
        this.probedAt = performance.now();
      }
      return null;
    } catch (error) {
      this.probedAt = 0;
      return fsPrintError(error, this.dir, this.uri, true);
    }
  }

  /** A dot file (never taken for a label by findSpooled) written, synced and removed. */
  private async probeWrite(): Promise<void> {
    const probe = path.join(this.dir, `.print-station-probe.${randomBytes(4).toString('hex')}.tmp`);
    try {
      const handle = await this.fs.open(probe, 'wx', 0o600);
      try {
        await handle.writeFile('ok');
        await handle.sync();
      } finally {
        await handle.close();
      }
    } finally {
      await this.fs.unlink(probe).catch(() => undefined);
    }
  }
}
