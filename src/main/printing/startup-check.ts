/**
 * The start-up check of a printer URI (`npm run agent`, `npm run demo`): one line that
 * says what is wrong, and whether the agent can work at all. A printer that cannot exist
 * as configured (a CUPS queue the scheduler does not have, a folder that cannot be
 * written) stops the start; one that may come back by itself (a scheduler not running
 * yet, a queue paused for paper) only warns, and its labels wait for it.
 */
import { printerKindOf } from '../../shared/printer-kinds';
import { API_ERROR_CODES } from '../api/errors';
import { CodedError } from '../errors';
import { createTarget, type TargetDeps } from './create-target';
import { readinessCheck, type PrinterCheck } from './printer-check';
import { PRINTER_KIND_REGISTRY, printerKindFacts } from './printer-kinds';
import type { PrinterTarget } from './target';
import type { PrinterMedia } from '../../shared/domain';

export type { PrinterCheck } from './printer-check';

/** The check of the target's kind (PrinterKindEntry.checkAtStart), else its readiness, which only warns. */
export async function checkPrinterAtStart(target: PrinterTarget, media?: PrinterMedia | null): Promise<PrinterCheck> {
  const check = printerKindFacts(target.kind)?.checkAtStart;
  return check ? check(target, media ?? null) : readinessCheck(target);
}

/** Thrown when a configured printer cannot work as configured; its message is the one line to print. */
export class PrinterUnusableError extends CodedError {
  constructor(message: string) {
    super('PRINTER_UNUSABLE', message);
  }
}

/**
 * How long the start waits for the printers' answers. A printer answers its check in
 * milliseconds (a second or two on a loaded machine); one that hangs or drips its answer (an
 * IPP exchange may take 10 s, a CUPS queue's longer) must not hold the station's start, its
 * UI and its webhooks, for that long.
 */
export const START_CHECK_WAIT_MS = 5000;

/**
 * Checks each distinct printer URI, except those of kinds not `checkedAtStart` (service
 * printers: they need the connection, which the key check covers), all at once. Warnings go
 * to `warn`, in the order of `uris`; the first fatal problem throws. A check not answered
 * within `waitMs` does not hold the start: it is warned about, and its finding is warned
 * when it comes (a fatal one too: the agent runs by then, and its labels wait).
 * @throws PrinterUnusableError
 */
export async function checkPrintersAtStart(
  uris: readonly string[],
  deps: Omit<TargetDeps, 'service'>,
  warn: (line: string) => void,
  /** The media each printer is configured for (routing.ts printerMediaOf): checked against what it says it takes. @default none checked */
  mediaOf: (uri: string) => PrinterMedia | null = () => null,
  /** @default START_CHECK_WAIT_MS */
  waitMs = START_CHECK_WAIT_MS,
): Promise<void> {
  const checks: Array<{ uri: string; check: Promise<PrinterCheck> }> = [];
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
    const check = checkPrinterAtStart(target, mediaOf(uri)).catch((error: unknown) => ({
      fatal: null,
      warning: `printer ${uri} could not be checked: ${(error as Error).message}`,
    }));
    checks.push({ uri, check });
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    for (const { uri, check } of checks) {
      const answer = await Promise.race([check, late]);
      if (answer === null) {
        warn(
          `printer ${uri} has not answered its check within ${waitMs / 1000} s: the agent starts without it; ` +
            'its labels wait until it answers, and what the check finds is logged when it does',
        );
        void check.then((found) => {
          const line = found.fatal ?? found.warning;
          if (line) warn(line);
        });
        continue;
      }
      if (answer.fatal) throw new PrinterUnusableError(answer.fatal);
      if (answer.warning) warn(answer.warning);
    }
  } finally {
    clearTimeout(timer);
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
