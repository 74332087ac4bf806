/** The CUPS queues this machine's scheduler has, for the printer picker (`lpstat` under LANG=C). */
import { agentMessage, englishOf } from '../../../shared/agent-messages';
import type { PrinterInfo } from '../../../shared/domain';
import { cLocaleEnv, runExecFile } from '../../process/exec';
import { guessMedia } from '../media-guess';
import type { DiscoveryDeps } from '../printer-kind-entry';
import { parseLpstatAccepting, parseLpstatPrinters } from './lpstat';

export async function cupsPrinters(deps: DiscoveryDeps): Promise<PrinterInfo[]> {
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
