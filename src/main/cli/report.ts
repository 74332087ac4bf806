/**
 * `npm run agent -- report --day YYYY-MM-DD [--csv FILE] [--lang L] [agent options]`: the
 * end-of-day report on the command line, with the same service and data-dir options as the
 * agent, in English (the default, the documented lines and CSV header) or a UI language.
 *
 * The ledger has one owner at a time (ledger-lock.ts), and SQLite's exclusive mode shuts out
 * readers too: while the agent runs on the same data directory, the report asks that agent
 * through its loopback UI bridge (web/bridge-file.ts), the same operation the End of day view
 * calls. An agent that serves no UI (started without --ui-port, or the desktop app) cannot be
 * asked: the report then says, in one line, where to get it. It never prints: "print what is
 * missing" is in the UI.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EndOfDayReport } from '../../shared/domain';
import { endOfDayCountsLine, endOfDayCsv } from '../../shared/end-of-day-csv';
import { REPORT_LANGUAGES, isReportLanguage, reportWord, stateWord, type ReportLanguage } from '../../shared/report-words';
import { ServiceClient } from '../api/client';
import { CodedError } from '../errors';
import { logField } from '../log-text';
import { JOB_ERROR_CODES } from '../ledger/errors';
import { Ledger } from '../ledger/ledger';
import { silentLogger, type Logger } from '../log';
import { endOfDayReport } from '../report/end-of-day-service';
import { createConfSettingsStore } from '../settings/conf-settings-store';
import { AGENT_UNREACHABLE, callAgentBridge } from '../web/bridge-call';
import { readBridgeFile } from '../web/bridge-file';
import { commandHelp } from './command-help';
import { OptionsError, parseAgentOptions } from './options';

export const REPORT_USAGE = commandHelp({
  usage: 'report --day YYYY-MM-DD [--csv FILE] [--lang L] [OPTIONS]',
  about: `The end-of-day report: the day's bookings (the service's list, filtered by this station's
rules, and the ledger) and whether each printed. Reads the ledger; while an agent runs on
--data-dir it asks that agent instead (through its UI, so the agent needs --ui-port).`,
  options: `  --day YYYY-MM-DD         the day, in this computer's time zone
  --csv FILE               also write the report as CSV to FILE
  --lang ${REPORT_LANGUAGES.join('|')}    the report's words (default en); other than en, the CSV is
                           laid out for a spreadsheet of that language (; between cells, local times)`,
  agentOptions: '--api-url, --data-dir and --config (the key in PRINT_STATION_API_KEY)',
});

export interface ReportRun {
  readonly text: string;
  readonly report: EndOfDayReport | null;
}

/** Runs the report for argv (after `report`); throws OptionsError or a coded error. */
export async function runReport(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  log: Logger = silentLogger,
): Promise<ReportRun> {
  const { day, csv, lang, help, rest } = splitReportArgs(argv);
  if (help) return { text: `${REPORT_USAGE}\n`, report: null };
  if (!day) throw new OptionsError('report needs --day YYYY-MM-DD (npm run agent -- report --help lists its options)');
  const options = parseAgentOptions(rest, env);
  const ledgerPath = join(options.dataDir, 'ledger.sqlite');
  if (!existsSync(ledgerPath)) {
    throw new CodedError('NO_LEDGER', `No ledger in ${options.dataDir}: give the agent's --data-dir (or dataDir in --config).`);
  }
  let ledger: Ledger;
  try {
    ledger = Ledger.open({ path: ledgerPath, pruneIntervalMs: 0 });
  } catch (error) {
    if ((error as { code?: string }).code !== JOB_ERROR_CODES.LEDGER_LOCKED) throw error;
    const report = await askRunningAgent(options.dataDir, day);
    if (csv) writePrivateFile(csv, endOfDayCsv(report, { language: lang }));
    return { text: reportText(report, csv, lang), report };
  }
  const client = options.apiUrl && options.apiKey ? new ServiceClient({ baseUrl: options.apiUrl, apiKey: options.apiKey }) : null;
  try {
    // Only the station rules are read; the address is a placeholder when none is given (ledger only).
    const apiUrl = options.apiUrl ?? 'https://invalid.example/external/v1';
    const settings = createConfSettingsStore({ dataDir: options.dataDir, apiUrl, logger: log });
    const report = await endOfDayReport(day, {
      ledger,
      shipments: client,
      stationRules: () => settings.get().stationRules,
      logger: { info: log.info, warn: log.warn, error: log.error },
    });
    if (csv) writePrivateFile(csv, endOfDayCsv(report, { language: lang }));
    return { text: reportText(report, csv, lang), report };
  } finally {
    await client?.close();
    ledger.close();
  }
}

/**
 * Writes the CSV readable by its owner only (it lists references, tracking ids and printers):
 * 0600 on POSIX, also when the file was there before with a wider mode (a mode given to
 * writeFileSync applies only to a file it creates).
 */
function writePrivateFile(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  if (process.platform !== 'win32') chmodSync(file, 0o600);
}

/** The report from the agent that holds the ledger, through its UI bridge; one clear line when it cannot be asked. */
async function askRunningAgent(dataDir: string, day: string): Promise<EndOfDayReport> {
  const running = (why: string): CodedError =>
    new CodedError(
      'AGENT_RUNNING',
      `The agent is running on ${dataDir} and holds its ledger, and ${why}: open the End of day tab in its UI ` +
        '(it has CSV export), or stop the agent and run the report again.',
    );
  const bridge = readBridgeFile(dataDir);
  if (!bridge) throw running('serves no UI to ask (start it with --ui-port N)');
  try {
    return await callAgentBridge(bridge, 'endOfDay', { day });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === AGENT_UNREACHABLE) throw running((error as Error).message);
    // The bridge itself refused (a token of an earlier run, a host it does not serve): not the report's fault.
    if (code.startsWith('UI_')) throw running(`its UI refused the request (${(error as Error).message})`);
    throw error;
  }
}

interface ReportArgs {
  readonly day: string | null;
  readonly csv: string | null;
  readonly lang: ReportLanguage;
  readonly help: boolean;
  readonly rest: string[];
}

function splitReportArgs(argv: readonly string[]): ReportArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: false,
      allowPositionals: true,
      options: { day: { type: 'string' }, csv: { type: 'string' }, lang: { type: 'string' }, help: { type: 'boolean' } },
      tokens: true,
    });
  } catch (error) {
    throw new OptionsError(`${(error as Error).message} (npm run agent -- report --help lists its options)`);
  }
  // Everything but --day, --csv, --lang and --help goes on to the agent's own option parser (strict there).
  const rest: string[] = [];
  for (const token of parsed.tokens ?? []) {
    if (token.kind === 'option' && ['day', 'csv', 'lang', 'help'].includes(token.name)) continue;
    if (token.kind === 'option') rest.push(token.rawName, ...(token.value !== undefined ? [token.value] : []));
    else if (token.kind === 'positional') rest.push(token.value);
    else rest.push('--');
  }
  const value = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  if (parsed.values.day === true || parsed.values.csv === true || parsed.values.lang === true) {
    throw new OptionsError('--day, --csv and --lang each need a value (npm run agent -- report --help lists its options)');
  }
  const lang = value(parsed.values.lang) ?? 'en';
  if (!isReportLanguage(lang)) throw new OptionsError(`--lang ${lang}: use one of ${REPORT_LANGUAGES.join(', ')}`);
  return { day: value(parsed.values.day), csv: value(parsed.values.csv), lang, help: parsed.values.help === true, rest };
}

/**
 * A printer as docs/OPERATIONS.md names it to people: a folder by its folder (`./prints`,
 * without `folder:` and the `?shared` flag), every other printer by its URI (`cups:Zebra`).
 */
export function printerShown(uri: string): string {
  return uri.startsWith('folder:') ? uri.slice('folder:'.length).replace(/\?shared$/, '') : uri;
}

/** The report as people read it in a terminal, in `lang` (English: the lines scripts read). */
export function reportText(report: EndOfDayReport, csv: string | null = null, lang: ReportLanguage = 'en'): string {
  const word = (key: Parameters<typeof reportWord>[1], params?: Record<string, string | number>): string => reportWord(lang, key, params);
  const lines = [word('report.title', { day: report.day }), endOfDayCountsLine(report, lang)];
  if (report.manifests.available > 0) {
    lines.push(word('report.manifests', { printed: report.manifests.printed, available: report.manifests.available }));
  }
  if (report.serviceError) {
    const id = report.serviceError.requestId ? word('eod.requestId', { id: inert(report.serviceError.requestId) }) : '';
    lines.push(`${word('report.serviceUnread', { error: inert(report.serviceError.message) })}${id}`);
  }
  for (const r of report.rows) {
    const state = stateWord(lang, r.state);
    const printedAt = r.state === 'printed' ? r.printedAt : null;
    const where = printedAt
      ? ` ${word('eod.printedOn', { time: clock(printedAt), printer: inert(printerShown(r.printer ?? '')) })}`
      : r.detail
        ? `: ${inert(r.detail)}`
        : '';
    const cells = [r.reference ?? r.shipmentId, r.carrier ?? '-', r.trackingId ?? '-'].map(inert);
    lines.push(`${cells.join('\t')}\t${state}${where}`);
  }
  if (report.counts.not_printed + report.counts.failed > 0) lines.push(word('report.printMissingHint'));
  if (csv) lines.push(word('report.csvWritten', { file: inert(csv) }));
  return `${lines.join('\n')}\n`;
}

/**
 * Outside text (a reference, a carrier, the service's words) made inert for a terminal as the
 * log file makes it (log-text.ts): ESC, BEL, CR, LF and the other controls are shown escaped,
 * so a reference cannot clear the screen, ring the bell or write a line of its own.
 */
function inert(text: string): string {
  return logField(text);
}

function clock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** Runs `report` when argv names it; false when it does not (the agent starts). */
export async function runReportSubcommand(
  argv: readonly string[],
  write: (text: string) => void = (t) => process.stdout.write(t),
): Promise<boolean> {
  if (argv[0] !== 'report') return false;
  const toStderr = (line: string): void => void process.stderr.write(`${line}\n`);
  const log: Logger = { info: () => undefined, warn: toStderr, error: toStderr, redact: () => undefined };
  write((await runReport(argv.slice(1), process.env, log)).text);
  return true;
}
