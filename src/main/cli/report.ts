/**
 * `npm run agent -- report --day YYYY-MM-DD [--csv FILE] [agent options]`: the end-of-day
 * report on the command line, with the same service and data-dir options as the agent.
 *
 * The ledger has one owner at a time (ledger-lock.ts): while the agent runs on the same
 * data directory, the report cannot open it (not even to read: SQLite's exclusive mode
 * shuts out readers too) and says to use the End of day view of the running agent's UI,
 * or to stop the agent first. It never prints: "print what is missing" is in the UI.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EndOfDayReport } from '../../shared/domain';
import { END_OF_DAY_STATE_WORDS, endOfDayCountsLine, endOfDayCsv } from '../../shared/end-of-day-csv';
import { ServiceClient } from '../api/client';
import { CodedError } from '../errors';
import { JOB_ERROR_CODES } from '../jobs/errors';
import { Ledger } from '../agent/ledger';
import { silentLogger, type Logger } from '../log';
import { endOfDayReport } from '../report/end-of-day-service';
import { createConfSettingsStore } from '../settings/conf-settings-store';
import { AGENT_USAGE, OptionsError, parseAgentOptions } from './options';

export const REPORT_USAGE = `Usage: npm run agent -- report --day YYYY-MM-DD [--csv FILE] [OPTIONS]
The end-of-day report: the day's bookings (the service's list, filtered by this station's
rules, and the ledger) and whether each printed. Reads the ledger: stop the agent that uses
--data-dir first, or use the End of day view of its UI.
  --day YYYY-MM-DD         the day, in this computer's time zone
  --csv FILE               also write the report as CSV to FILE
${AGENT_USAGE}`;

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
  const { day, csv, help, rest } = splitReportArgs(argv);
  if (help) return { text: `${REPORT_USAGE}\n`, report: null };
  if (!day) throw new OptionsError(`report needs --day YYYY-MM-DD\n${REPORT_USAGE}`);
  const options = parseAgentOptions(rest, env);
  const ledgerPath = join(options.dataDir, 'ledger.sqlite');
  if (!existsSync(ledgerPath)) {
    throw new CodedError('NO_LEDGER', `No ledger in ${options.dataDir}: give the agent's --data-dir (or dataDir in --config).`);
  }
  let ledger: Ledger;
  try {
    ledger = Ledger.open({ path: ledgerPath, pruneIntervalMs: 0 });
  } catch (error) {
    if ((error as { code?: string }).code === JOB_ERROR_CODES.LEDGER_LOCKED) {
      throw new CodedError(
        'AGENT_RUNNING',
        `The agent is running on ${options.dataDir} and holds its ledger: open the End of day tab in its UI ` +
          '(it has CSV export), or stop the agent and run the report again.',
      );
    }
    throw error;
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
    if (csv) writeFileSync(csv, endOfDayCsv(report), { mode: 0o600 });
    return { text: reportText(report, csv), report };
  } finally {
    await client?.close();
    ledger.close();
  }
}

function splitReportArgs(argv: readonly string[]): { day: string | null; csv: string | null; help: boolean; rest: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: false,
      allowPositionals: true,
      options: { day: { type: 'string' }, csv: { type: 'string' }, help: { type: 'boolean' } },
      tokens: true,
    });
  } catch (error) {
    throw new OptionsError(`${(error as Error).message}\n${REPORT_USAGE}`);
  }
  // Everything but --day, --csv and --help goes on to the agent's own option parser (strict there).
  const rest: string[] = [];
  for (const token of parsed.tokens ?? []) {
    if (token.kind === 'option' && ['day', 'csv', 'help'].includes(token.name)) continue;
    if (token.kind === 'option') rest.push(token.rawName, ...(token.value !== undefined ? [token.value] : []));
    else if (token.kind === 'positional') rest.push(token.value);
    else rest.push('--');
  }
  const value = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  if (parsed.values.day === true || parsed.values.csv === true) {
    throw new OptionsError(`--day and --csv each need a value\n${REPORT_USAGE}`);
  }
  return { day: value(parsed.values.day), csv: value(parsed.values.csv), help: parsed.values.help === true, rest };
}

/** The report as people read it in a terminal. */
export function reportText(report: EndOfDayReport, csv: string | null = null): string {
  const lines = [`End of day ${report.day}`, endOfDayCountsLine(report)];
  if (report.manifests.available > 0) lines.push(`manifests: ${report.manifests.printed} of ${report.manifests.available} printed`);
  if (report.serviceError) {
    const id = report.serviceError.requestId ? ` (request id ${report.serviceError.requestId})` : '';
    lines.push(`warning: the service's list was not read, counts are this station's ledger only: ${report.serviceError.message}${id}`);
  }
  for (const r of report.rows) {
    const state = END_OF_DAY_STATE_WORDS[r.state];
    const where = r.state === 'printed' && r.printedAt ? ` ${clock(r.printedAt)} on ${r.printer}` : r.detail ? `: ${r.detail}` : '';
    lines.push(`${r.reference ?? r.shipmentId}\t${r.carrier ?? '-'}\t${r.trackingId ?? '-'}\t${state}${where}`);
  }
  if (report.counts.not_printed + report.counts.failed > 0) {
    lines.push('To print what is missing: the End of day tab of the agent\'s UI, "Print what is missing".');
  }
  if (csv) lines.push(`csv: ${csv}`);
  return `${lines.join('\n')}\n`;
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
