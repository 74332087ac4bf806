/**
 * The start-up check of a printer URI (`npm run agent`, `npm run demo`): one line that
 * says what is wrong, and whether the agent can work at all. A printer that cannot exist
 * as configured (a CUPS queue the scheduler does not have, a folder that cannot be
 * written) stops the start; one that may come back by itself (a scheduler not running
 * yet, a queue paused for paper) only warns, and its labels wait for it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { printerKindOf } from '../../shared/printer-kinds';
import { API_ERROR_CODES } from '../api/errors';
import { CodedError } from '../errors';
import { createTarget, type TargetDeps } from './create-target';
import { CupsTarget } from './cups/cups-target';
import { PRINT_ERROR_CODES, PrintError } from './errors';
import { IppTarget } from './ipp/ipp-target';
import { FolderTarget } from './folder/folder-target';
import { PRINTER_KIND_REGISTRY } from './printer-kinds';
import type { PrinterTarget } from './target';
import type { PrinterMedia } from '../../shared/domain';
import { ZplCupsTarget } from './zpl/zpl-cups-target';

export interface PrinterCheck {
  /** The agent cannot print to this URI as configured: stop the start with this line. */
  readonly fatal: string | null;
  /** The printer is not ready now but may become so: say it, keep running. */
  readonly warning: string | null;
}

const OK: PrinterCheck = { fatal: null, warning: null };

export async function checkPrinterAtStart(target: PrinterTarget, media?: PrinterMedia | null): Promise<PrinterCheck> {
  if (target instanceof CupsTarget) {
    const check = await checkCups(target, await target.check());
    return check.fatal || check.warning || !media ? check : mediaCheck(target, media);
  }
  if (target instanceof IppTarget) {
    // A printer that answers at another path exists nowhere as configured; one that is
    // off, busy, lacks the media or does not take PDF warns with what it says and offers.
    const problem = await target.check(media).catch((error: unknown) => error as Error);
    if (!problem) return OK;
    if (problem instanceof PrintError && problem.code === PRINT_ERROR_CODES.PRINTER_NOT_FOUND) {
      return { fatal: `printer ${target.uri}: ${problem.message}`, warning: null };
    }
    return { fatal: null, warning: `printer ${target.uri}: ${problem.message}` };
  }
  // A raw ZPL queue is a CUPS queue: a missing one stops the start the same way.
  if (target instanceof ZplCupsTarget) return checkCups(target.queue, await target.queue.check());
  if (target instanceof FolderTarget) {
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
    if (!problem) return OK;
    // A full disk or a share that is gone comes back by itself: the printer is down, its
    // labels wait (issue 19). No access or a file in the way needs a person: stop the start.
    if (problem.code === PRINT_ERROR_CODES.DISK_FULL || problem.agentMessage?.code === 'printer.folderUnavailable') {
      return { fatal: null, warning: `printer ${target.uri} is not ready: ${problem.message} Its labels wait for it.` };
    }
    return { fatal: `printer ${target.uri}: ${problem.message}`, warning: null };
  }
  // Windows and service printers: their readiness can change with the machine or the
  // account; a start is never refused on their word.
  try {
    const readiness = await target.readiness();
    return readiness.ready ? OK : { fatal: null, warning: `printer ${target.uri} is not ready: ${readiness.detail ?? 'reason unknown'}` };
  } catch (error) {
    return { fatal: null, warning: `printer ${target.uri} could not be checked: ${(error as Error).message}` };
  }
}

/**
 * A printer that can say which media it takes (an IPP printer, or the one behind a CUPS
 * queue) and lacks the one it is configured for: a warning naming what it offers (its
 * labels would be refused), never a refused start (the stock may be loaded later).
 */
async function mediaCheck(target: PrinterTarget, media: PrinterMedia): Promise<PrinterCheck> {
  const readiness = await target.readiness(media).catch(() => null);
  return readiness && !readiness.ready && readiness.detail ? { fatal: null, warning: `printer ${target.uri}: ${readiness.detail}` } : OK;
}

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

async function checkCups(target: CupsTarget, problem: PrintError | null): Promise<PrinterCheck> {
  if (!problem) return OK;
  if (problem.code === PRINT_ERROR_CODES.PRINTER_NOT_FOUND) {
    const queues = await target.knownQueues().catch(() => []);
    const known = queues.length > 0 ? `the queues that exist: ${queues.join(', ')}` : 'this scheduler has no queues';
    return { fatal: `printer ${target.uri}: ${problem.message.replace(/\.$/, '')} (${known})`, warning: null };
  }
  if (problem.printerDown) {
    return { fatal: null, warning: `printer ${target.uri}: ${problem.message.replace(/\.$/, '')}; labels wait until it can print` };
  }
  return { fatal: `printer ${target.uri}: ${problem.message}`, warning: null };
}

/** Thrown when a configured printer cannot work as configured; its message is the one line to print. */
export class PrinterUnusableError extends CodedError {
  constructor(message: string) {
    super('PRINTER_UNUSABLE', message);
  }
}

/**
 * Checks each distinct printer URI, except those of kinds not `checkedAtStart` (service
 * printers: they need the connection, which the key check covers). Warnings go to `warn`;
 * the first fatal problem throws.
 * @throws PrinterUnusableError
 */
export async function checkPrintersAtStart(
  uris: readonly string[],
  deps: Omit<TargetDeps, 'service'>,
  warn: (line: string) => void,
  /** The media each printer is configured for (routing.ts printerMediaOf): checked against what it says it takes. @default none checked */
  mediaOf: (uri: string) => PrinterMedia | null = () => null,
): Promise<void> {
  const platform = deps.platform ?? process.platform;
  for (const uri of new Set(uris)) {
    const kind = printerKindOf(uri);
    if (kind && !PRINTER_KIND_REGISTRY[kind].checkedAtStart) continue;
    // A printer of another OS can never print here: every job to it would fail.
    const foreign = foreignPlatformLine(uri, kind, platform);
    if (foreign) throw new PrinterUnusableError(foreign);
    let target: PrinterTarget;
    try {
      target = createTarget(uri, deps);
    } catch (error) {
      // A module not loaded (pdf-to-printer): the other printer may still work, and
      // settings can change it, so the start goes on.
      warn(`printer ${uri} cannot be used here: ${(error as Error).message}`);
      continue;
    }
    const check = await checkPrinterAtStart(target, mediaOf(uri));
    if (check.fatal) throw new PrinterUnusableError(check.fatal);
    if (check.warning) warn(check.warning);
  }
}

/** The one line for a printer kind this OS cannot print to (windows: off Windows, cups: on Windows), else null. */
function foreignPlatformLine(uri: string, kind: string | null, platform: NodeJS.Platform): string | null {
  if (kind === 'windows' && platform !== 'win32') {
    return `printer ${uri}: Windows printers print only on Windows, and this is ${platform}: use cups:QUEUE (lpstat -e lists the queues) or folder:DIR`;
  }
  if (kind === 'cups' && platform === 'win32') {
    return `printer ${uri}: CUPS queues print only on macOS and Linux: use windows:PRINTER NAME (the name as Windows shows it)`;
  }
  return null;
}

/** GET /printers, as the service client answers it. */
export interface ServicePrinterList {
  printers(): Promise<{ readonly printers: readonly { readonly id: string; readonly name?: string | null }[] }>;
}

/**
 * The `service:ID` printers in `uris` must be ones the service lists (GET /printers): an id
 * it does not know fails every job. A list that cannot be read now only warns (the service
 * may be back soon); a rejected key is left to the key check that follows.
 * @throws PrinterUnusableError
 */
export async function checkServicePrintersAtStart(
  uris: readonly string[],
  service: ServicePrinterList,
  warn: (line: string) => void,
): Promise<void> {
  const wanted = [...new Set(uris)].filter((uri) => printerKindOf(uri) === 'service');
  if (wanted.length === 0) return;
  let listed: readonly { readonly id: string }[];
  try {
    listed = (await service.printers()).printers;
  } catch (error) {
    // A rejected key or a wrong address: the key check right after says so, once.
    const code = (error as { code?: string }).code;
    if (code === API_ERROR_CODES.UNAUTHORIZED || code === API_ERROR_CODES.NOT_FOUND) return;
    warn(`the service's printers could not be listed to check ${wanted.join(', ')}: ${(error as Error).message}`);
    return;
  }
  const ids = new Set(listed.map((p) => p.id));
  for (const uri of wanted) {
    const id = uri.slice('service:'.length);
    if (ids.has(id)) continue;
    const known = listed.length > 0 ? `its printers: ${listed.map((p) => `service:${p.id}`).join(', ')}` : 'it lists no printers';
    throw new PrinterUnusableError(
      `printer ${uri}: the service has no printer ${id} (${known}): use one it lists, or connect the printer in the service first`,
    );
  }
}
