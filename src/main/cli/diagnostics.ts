/**
 * `npm run agent -- diagnostics OUT [--data-dir DIR] [--config FILE]`: writes one JSON
 * file for support from the data directory (src/main/diagnostics/offline-diagnostics.ts).
 * The API key and webhook secrets of the options are scrubbed from it in every spelling.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeBundle } from '../diagnostics/bundle';
import { collectOfflineDiagnostics } from '../diagnostics/offline-diagnostics';
import { commandHelp } from './command-help';
import { OptionsError, optionsErrorOf, parseAgentOptions } from './options';

export const DIAGNOSTICS_USAGE = commandHelp({
  usage: 'diagnostics OUT [OPTIONS]',
  about: `Writes one readable JSON file for support: versions, OS, printers and their state, settings
without secrets, job counts, the last log lines. OUT is a file, or a directory to put it in.
While an agent runs on the data directory the job counts are omitted (it holds the ledger):
use Settings → Save diagnostics in that agent instead. Never contains the API key.`,
  options: `  --data-dir DIR           the agent's data directory (default: the agent's, or the --config file's dataDir)
  --config FILE            the agent's JSON config file (its dataDir; its secrets are kept out)
  --lines N                log lines to include (default 500)`,
});
const DIAGNOSTICS_OPTIONS = ['--data-dir', '--config', '--lines', '--help'];

/** Writes the bundle; returns its path (null for --help). Throws OptionsError on bad options. */
export async function runDiagnostics(
  argv: readonly string[],
  write: (text: string) => void = (t) => process.stdout.write(t),
): Promise<string | null> {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: { 'data-dir': { type: 'string' }, config: { type: 'string' }, lines: { type: 'string' }, help: { type: 'boolean' } },
    }));
  } catch (error) {
    throw optionsErrorOf(error, DIAGNOSTICS_OPTIONS, 'npm run agent -- diagnostics --help lists its options');
  }
  if (values.help) {
    write(`${DIAGNOSTICS_USAGE}\n`);
    return null;
  }
  if (positionals.length !== 1) throw new OptionsError('diagnostics needs one OUT (a file or directory): npm run agent -- diagnostics OUT');
  const lines = values.lines === undefined ? undefined : Number(values.lines);
  if (lines !== undefined && (!Number.isInteger(lines) || lines < 0 || lines > 100_000)) {
    throw new OptionsError(`--lines must be a whole number from 0 to 100000, got "${values.lines}"`);
  }
  const agentArgs = [
    ...(values.config ? ['--config', values.config] : []),
    ...(values['data-dir'] ? ['--data-dir', values['data-dir']] : []),
  ];
  const options = parseAgentOptions(agentArgs);
  if (!existsSync(options.dataDir)) {
    throw new OptionsError(`no data directory at ${options.dataDir}: pass the agent's --data-dir DIR (or its --config FILE)`);
  }
  const bundle = await collectOfflineDiagnostics({ dataDir: options.dataDir, logLines: lines });
  const written = writeBundle(bundle, positionals[0]!, [options.apiKey, ...options.webhookSecrets]);
  write(`diagnostics: ${written.path}\n`);
  for (const note of bundle.notes) write(`note: ${note}\n`);
  return written.path;
}
