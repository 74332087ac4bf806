/**
 * The headless agent as a child process with tuning the CLI does not offer (client
 * timeouts, pipeline backoff), for the fault runs: the same startHeadlessAgent the CLI
 * calls, the same ready lines and signal handling. Options come as JSON in the
 * RELIABILITY_AGENT environment variable (HeadlessAgentOptions without `log`), so the
 * API key never appears in a process listing.
 */
import { startHeadlessAgent, type HeadlessAgentOptions } from '../../../src/main/headless';
import { fail, printReadyLines, stopOnSignals } from '../../../src/main/cli/lifecycle';
import { createLogger } from '../../../src/main/log';

async function main(): Promise<void> {
  const raw = process.env.RELIABILITY_AGENT;
  if (!raw) throw new Error('RELIABILITY_AGENT (JSON options) is not set');
  const options = JSON.parse(raw) as Omit<HeadlessAgentOptions, 'log'>;
  const log = createLogger();
  log.redact(options.apiKey);
  const agent = await startHeadlessAgent({ ...options, log });
  printReadyLines(agent);
  stopOnSignals(() => agent.stop(), log.info);
}

main().catch(fail);
