/**
 * Process plumbing shared by `npm run agent` and `npm run demo`: the ready lines people
 * and scripts read (docs/INTERFACES.md), and a clean stop on Ctrl-C / SIGTERM. A second signal
 * while stopping exits at once; in-flight jobs are resumable from the ledger.
 */
import { KEY_ADVICE } from '../api/error-mapping';
import { API_ERROR_CODES } from '../api/errors';
import type { HeadlessAgent } from '../headless';
import { headlessWords } from '../headless-words';

export function printReadyLines(
  agent: Pick<HeadlessAgent, 'uiUrl' | 'webhookUrl' | 'printer'> & { documentPrinter?: string },
  write?: (line: string) => void,
): void {
  const lines: string[] = [];
  if (agent.uiUrl) lines.push(`ui: ${agent.uiUrl}`);
  if (agent.webhookUrl) lines.push(`webhooks: ${agent.webhookUrl}`);
  lines.push(`printer: ${agent.printer}`);
  if (agent.documentPrinter) lines.push(`document printer: ${agent.documentPrinter}`);
  // One write: a reader that acts on `printer:` (sends SIGTERM) gets the lines together, once.
  if (write) for (const line of lines) write(line);
  else process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * A wrapper (npm run, a shell, a terminal's process group) often delivers one Ctrl-C or
 * SIGTERM twice within milliseconds; only a signal after this long means "stop now".
 */
const REPEAT_SIGNAL_MS = 1000;

export function stopOnSignals(stop: () => Promise<void>, log: (line: string) => void): void {
  // A service runs until it is told to stop. Its own timers are unref'd (so tests and
  // embedders can exit), and with polling off and no servers nothing else would hold it.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  let stoppingSince: number | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stoppingSince !== null) {
      if (Date.now() - stoppingSince < REPEAT_SIGNAL_MS) return;
      log(`${signal} again: exiting now; unfinished jobs resume on the next start`);
      process.exit(130);
    }
    stoppingSince = Date.now();
    log(`${signal}: stopping (letting the current spool finish)…`);
    stop().then(
      () => {
        // Held until the stop is complete: some of what it waits for holds no handle.
        clearInterval(keepAlive);
        process.exit(0);
      },
      (error: unknown) => {
        log(`error while stopping: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A bug that escapes as a stray rejection must not take the station down mid-shift: the
  // ledger keeps every job, so log it loudly and keep printing.
  process.on('unhandledRejection', (reason) => {
    log(`internal error (please report it): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  });
}

/** The advice for a rejected key where there is no Settings window: where the headless agent takes its key. */
export const HEADLESS_KEY_ADVICE = 'check PRINT_STATION_API_KEY / --config apiKey';

/** Print a fatal error (never a stack for expected, coded errors) and exit non-zero. */
export function fail(error: unknown): never {
  const coded = error as { code?: string; message?: string };
  let message = coded.message ?? String(error);
  if (coded.code === API_ERROR_CODES.UNAUTHORIZED) message = message.replace(KEY_ADVICE, HEADLESS_KEY_ADVICE);
  // No window to send anyone to: flags, environment and --config keys instead.
  message = headlessWords(message);
  process.stderr.write(`error: ${message}${coded.code ? ` [${coded.code}]` : ''}\n`);
  process.exit(1);
}
