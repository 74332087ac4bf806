/**
 * The bundle as the running agent writes it (Settings → Save diagnostics): everything the
 * CLI can read from the data directory, plus what only the live agent knows (printer
 * readiness through its targets, the status, the last service request ids).
 */
import path from 'node:path';
import { readLogTail } from '../log-file';
import { BUNDLE_KIND, DEFAULT_LOG_LINES, collectVersions, withoutSecrets, writeBundle, type WrittenBundle } from './bundle';
import type { RecentRequest } from '../api/request-ids';

export interface AgentDiagnosticsSources {
  readonly dataDir: string;
  readonly status: () => unknown;
  readonly printers: () => Promise<unknown>;
  readonly settings: () => unknown;
  readonly counts: () => Readonly<Record<string, number>>;
  readonly recentRequests: () => readonly RecentRequest[];
  /** Scrubbed from the finished text in every spelling (the API key, webhook secrets). */
  readonly secrets: readonly (string | null | undefined)[];
  /** @default DEFAULT_LOG_LINES (500) */
  readonly logLines?: number;
  /** @default () => new Date() */
  readonly now?: () => Date;
}

/** Where the agent writes bundles: `<dataDir>/diagnostics/`. */
export const diagnosticsDir = (dataDir: string): string => path.join(dataDir, 'diagnostics');
/** Where the log files are: `<dataDir>/logs/`. */
export const logsDir = (dataDir: string): string => path.join(dataDir, 'logs');

export async function saveAgentDiagnostics(sources: AgentDiagnosticsSources): Promise<WrittenBundle> {
  const notes: string[] = [];
  let printers: unknown;
  try {
    printers = await sources.printers();
  } catch (error) {
    printers = null;
    notes.push(`printers: ${(error as Error).message}`);
  }
  const bundle = {
    kind: BUNDLE_KIND,
    formatVersion: 1,
    createdAt: (sources.now ?? (() => new Date()))().toISOString(),
    source: 'agent',
    versions: collectVersions(),
    dataDir: sources.dataDir,
    notes,
    status: sources.status(),
    printers,
    settings: withoutSecrets(sources.settings()),
    ledgerCounts: sources.counts(),
    recentRequests: sources.recentRequests(),
    logTail: readLogTail(logsDir(sources.dataDir), sources.logLines ?? DEFAULT_LOG_LINES),
  } as const;
  return writeBundle(bundle, `${diagnosticsDir(sources.dataDir)}${path.sep}`, sources.secrets);
}
