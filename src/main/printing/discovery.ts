import { agentMessage, englishOf } from '../../shared/agent-messages';
import type { PrinterInfo } from '../../shared/domain';
import { cLocaleEnv, runExecFile, type ExecFileRunner } from './exec';
import { parseLpstatAccepting, parseLpstatPrinters } from './cups/lpstat';
import type { PdfToPrinterModule } from './windows/windows-target';

/** GET /printers through the service client (ServiceClient.printers fits). */
export interface ServicePrintersPort {
  printers(): Promise<{ printers: ReadonlyArray<{ id: string; name?: string | null; description?: string | null }> }>;
}

export interface DiscoveryDeps {
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** For lpstat (CUPS_SERVER). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default execFile without a shell */
  readonly exec?: ExecFileRunner;
  /** Windows printers; required on win32 to list them. */
  readonly pdfToPrinter?: Pick<PdfToPrinterModule, 'getPrinters'>;
  /** The service's connected printers; omitted = none listed. */
  readonly service?: ServicePrintersPort;
  /** Told about a source that could not be listed; discovery goes on with the others. */
  readonly onError?: (source: 'cups' | 'windows' | 'service', error: unknown) => void;
}

const LABEL_HINTS =
  /label|zebra|\b4 ?x ?6\b|\b4x6|\bZ[DTQ]\d{2,}|\bG[KX]\d{3}|\bLP ?2844|\bTLP|dymo|rollo|thermal|\bQL-?\d|citizen cl|tsc t[ad]|godex/i;
const A4_HINTS = /\bA4\b/i;

/** Guesses the media from a printer's name and description: label printers often say so. */
export function guessMedia(...texts: ReadonlyArray<string | null | undefined>): 'label' | 'a4' | 'unknown' {
  const text = texts.filter(Boolean).join(' ');
  if (LABEL_HINTS.test(text)) return 'label';
  if (A4_HINTS.test(text)) return 'a4';
  return 'unknown';
}

async function cupsPrinters(deps: DiscoveryDeps): Promise<PrinterInfo[]> {
  const exec = deps.exec ?? runExecFile;
  const env = cLocaleEnv(deps.env ?? process.env);
  const [printers, accepting] = await Promise.all([exec('lpstat', ['-l', '-p'], { env }), exec('lpstat', ['-a'], { env })]);
  // No queues at all is exit code 1 with "No destinations added."; a dead scheduler too.
  if (printers.code !== 0 && !/No destinations/i.test(printers.stderr)) {
    throw new Error(`lpstat failed: ${printers.stderr.trim() || `exit code ${printers.code}`}`);
  }
  const acceptingByName = parseLpstatAccepting(accepting.stdout);
  return parseLpstatPrinters(printers.stdout).map((queue) => {
    const acc = acceptingByName.get(queue.name);
    const isAccepting = acc?.accepting ?? true;
    const message = !queue.enabled
      ? agentMessage('printer.listDisabled', { queue: queue.name, reason: queue.reason })
      : !isAccepting
        ? agentMessage('printer.listRejecting', { queue: queue.name, reason: acc?.reason ?? null })
        : null;
    return {
      uri: `cups:${queue.name}`,
      name: queue.description ?? queue.name,
      kind: 'cups' as const,
      media: guessMedia(queue.name, queue.description),
      ready: queue.enabled && isAccepting,
      detail: message ? englishOf(message) : null,
      ...(message ? { detailMessage: message } : {}),
    };
  });
}

async function windowsPrinters(deps: DiscoveryDeps): Promise<PrinterInfo[]> {
  if (!deps.pdfToPrinter) throw new Error('pdf-to-printer is not loaded');
  const printers = await deps.pdfToPrinter.getPrinters();
  return printers.map((p) => ({
    uri: `windows:${p.name}`,
    name: p.name,
    kind: 'windows' as const,
    media: guessMedia(
      p.name,
      ...(p.paperSizes?.length && p.paperSizes.every((s) => LABEL_HINTS.test(s) || /\b4(\.0+)?\s*x\s*6/i.test(s)) ? ['4x6'] : []),
    ),
    // pdf-to-printer lists printers but not whether they are paused or offline.
    ready: true,
    detail: null,
  }));
}

async function servicePrinters(service: ServicePrintersPort): Promise<PrinterInfo[]> {
  const { printers } = await service.printers();
  return printers.map((p) => ({
    uri: `service:${p.id}`,
    name: p.name || p.id,
    kind: 'service' as const,
    media: guessMedia(p.name, p.description),
    ready: null,
    detail: p.description || null,
  }));
}

/**
 * Local printers (CUPS on macOS and Linux, Windows printers on win32) followed by the
 * service's connected printers. A source that fails is reported through onError and left
 * out, so one dead source never hides the others.
 */
export async function discoverPrinters(deps: DiscoveryDeps = {}): Promise<PrinterInfo[]> {
  const platform = deps.platform ?? process.platform;
  const local: 'cups' | 'windows' = platform === 'win32' ? 'windows' : 'cups';
  const sources: Array<['cups' | 'windows' | 'service', Promise<PrinterInfo[]>]> = [
    [local, local === 'windows' ? windowsPrinters(deps) : cupsPrinters(deps)],
  ];
  if (deps.service) sources.push(['service', servicePrinters(deps.service)]);
  const results: PrinterInfo[] = [];
  for (const [source, promise] of sources) {
    try {
      results.push(...(await promise));
    } catch (error) {
      deps.onError?.(source, error);
    }
  }
  return results;
}
