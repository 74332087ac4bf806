/** The `folder:DIR[?shared]` kind: each label a PDF file in a folder (a hot folder another program reads, or an archive). */
import fs from 'node:fs';
import path from 'node:path';
import type { PrinterMedia } from '../../../shared/domain';
import { PRINTER_KIND_FIELDS } from '../../../shared/printer-kinds';
import { PRINT_ERROR_CODES } from '../errors';
import { CHECK_OK, readinessCheck, type PrinterCheck } from '../printer-check';
import { printerKindEntryOf } from '../printer-kind-entry';
import type { PrinterTarget } from '../target';
import { FolderTarget, SHARED_FOLDER_SUFFIX } from './folder-target';

/** The folder's parent when it does not exist (the folder itself may be created), else null. */
function missingParentOf(dir: string): string | null {
  const parent = path.dirname(dir);
  if (parent === dir) return null;
  try {
    fs.statSync(parent);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? parent : null;
  }
}

async function checkFolderAtStart(target: PrinterTarget, _media: PrinterMedia | null): Promise<PrinterCheck> {
  if (!(target instanceof FolderTarget)) return readinessCheck(target);
  // The folder itself is made when missing, but never a tree: a mistyped path would
  // otherwise grow directories from / (folder:/nonexistent/dir/x made /nonexistent).
  const missingParent = missingParentOf(target.dir);
  if (missingParent) {
    return {
      fatal: `printer ${target.uri}: ${missingParent} does not exist: create it first (mkdir -p ${missingParent}) or choose another folder`,
      warning: null,
    };
  }
  const problem = await target.check();
  if (!problem) return CHECK_OK;
  // A full disk or a share that is gone comes back by itself: the printer is down, its
  // labels wait. No access or a file in the way needs a person: stop the start.
  if (problem.code === PRINT_ERROR_CODES.DISK_FULL || problem.agentMessage?.code === 'printer.folderUnavailable') {
    return { fatal: null, warning: `printer ${target.uri} is not ready: ${problem.message} Its labels wait for it.` };
  }
  return { fatal: `printer ${target.uri}: ${problem.message}`, warning: null };
}

export const folderKind = printerKindEntryOf({
  forms: ['folder:DIR', `folder:DIR${SHARED_FOLDER_SUFFIX}`],
  parse(rest, { cwd, fail }): { readonly dir: string; readonly shared: boolean } {
    // `?shared`: a hot folder another program (another account) reads; private otherwise.
    const shared = rest.endsWith(SHARED_FOLDER_SUFFIX);
    const folder = shared ? rest.slice(0, -SHARED_FOLDER_SUFFIX.length) : rest;
    if (folder.trim() === '') fail('no folder');
    return { dir: path.resolve(cwd, folder), shared };
  },
  format: (address) => `${address.dir}${address.shared ? SHARED_FOLDER_SUFFIX : ''}`,
  create: ({ dir, shared }, { uri, deps }) => new FolderTarget({ uri, dir, shared, fs: deps.fs }),
  reconcilable: true,
  // One file per shipment and document.
  batches: false,
  readinessMinIntervalMs: 0,
  checkedAtStart: true,
  checkAtStart: checkFolderAtStart,
  fields: PRINTER_KIND_FIELDS.folder,
});
