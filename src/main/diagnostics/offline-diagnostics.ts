/**
 * The bundle as `npm run agent -- diagnostics OUT` writes it, from the data directory
 * alone. The ledger is opened only when no agent holds it: a running agent keeps SQLite's
 * exclusive lock (and the lock file), so then the counts are omitted and the bundle says
 * to use Settings → Save diagnostics in that agent instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { JobError, JOB_ERROR_CODES } from '../ledger/errors';
import { Ledger } from '../ledger/ledger';
import { readLogTail } from '../log-file';
import { discoverPrinters } from '../printing/discovery';
import { createTarget } from '../printing/create-target';
import { parsePrinterUri } from '../printing/uri';
import { BUNDLE_KIND, DEFAULT_LOG_LINES, collectVersions, withoutSecrets, type DiagnosticsBundle } from './bundle';
import { logsDir } from './agent-diagnostics';

export interface OfflineDiagnosticsOptions {
  readonly dataDir: string;
  /** @default DEFAULT_LOG_LINES (500) */
  readonly logLines?: number;
  /** For `cups:` readiness and discovery (CUPS_SERVER). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

export const RUNNING_AGENT_NOTE =
  'ledger counts omitted: an agent is running on this data directory and holds the ledger exclusively; ' +
  'use Settings → Save diagnostics in that agent for counts, printer states and the last request ids';
const REQUEST_IDS_NOTE =
  'recent request ids are kept by the running agent only (Settings → Save diagnostics); failed calls also log theirs';

function readSettings(dataDir: string, notes: string[]): Record<string, unknown> | null {
  const file = path.join(dataDir, 'settings.json');
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    notes.push(`settings: cannot read ${file}: ${(error as Error).message}`);
    return null;
  }
}

function readCounts(dataDir: string, notes: string[]): Record<string, number> | null {
  const file = path.join(dataDir, 'ledger.sqlite');
  if (!fs.existsSync(file)) {
    notes.push(`ledger counts omitted: no ledger at ${file} yet`);
    return null;
  }
  let ledger: Ledger;
  try {
    ledger = Ledger.open({ path: file, openBusyTimeoutMs: 0 });
  } catch (error) {
    const locked = error instanceof JobError && error.code === JOB_ERROR_CODES.LEDGER_LOCKED;
    notes.push(locked ? RUNNING_AGENT_NOTE : `ledger: ${(error as Error).message}`);
    return null;
  }
  try {
    return ledger.counts();
  } finally {
    ledger.close();
  }
}

async function readPrinters(settings: Record<string, unknown> | null, env: NodeJS.ProcessEnv, notes: string[]): Promise<unknown[]> {
  const routing = (settings?.routing ?? {}) as Record<string, unknown>;
  const configured = [...new Set([routing.labelPrinter, routing.documentPrinter].filter((u): u is string => typeof u === 'string'))];
  const listed = await Promise.all(
    configured.map(async (uri) => {
      try {
        const { kind } = parsePrinterUri(uri);
        if (kind === 'service') {
          return { uri, kind, configured: true, ready: null, detail: 'a service printer: its state needs the running agent' };
        }
        const readiness = await createTarget(uri, { env }).readiness();
        return { uri, kind, configured: true, ready: readiness.ready, detail: readiness.detail };
      } catch (error) {
        return { uri, configured: true, ready: false, detail: (error as Error).message };
      }
    }),
  );
  const discovered = await discoverPrinters({
    env,
    onError: (source, error) => notes.push(`printers (${source}): ${(error as Error).message}`),
  });
  return [...listed, ...discovered.filter((p) => !configured.includes(p.uri))];
}

export async function collectOfflineDiagnostics(options: OfflineDiagnosticsOptions): Promise<DiagnosticsBundle> {
  const notes: string[] = [];
  const env = options.env ?? process.env;
  const settings = readSettings(options.dataDir, notes);
  const ledgerCounts = readCounts(options.dataDir, notes);
  const printers = await readPrinters(settings, env, notes);
  notes.push(REQUEST_IDS_NOTE);
  return {
    kind: BUNDLE_KIND,
    formatVersion: 1,
    createdAt: new Date().toISOString(),
    source: 'cli',
    versions: collectVersions(),
    dataDir: options.dataDir,
    notes,
    status: null,
    printers,
    settings: withoutSecrets(settings),
    ledgerCounts,
    recentRequests: [],
    logTail: readLogTail(logsDir(options.dataDir), options.logLines ?? DEFAULT_LOG_LINES),
  };
}
