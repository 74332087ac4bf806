/**
 * `npm run agent -- ui-address [--rotate] [--ui-port N] [--data-dir DIR] [--config FILE]`:
 * prints the headless agent's full `ui:` address for a data dir, so a packer gets it back
 * after a reboot without reading the journal. The token is the one kept in the data dir
 * (web/ui-token-file.ts); the port is the running agent's (its ui-bridge.json), else
 * --ui-port (or uiPort in --config), the port the service starts the agent with.
 *
 * `--rotate` makes a new token (every bookmark and open tab of the old address stops
 * working): a running agent is asked through its bridge (rotateUiAddress), so it takes the
 * new token at once; with no agent running, the kept token is replaced for its next start.
 */
import { callAgentBridge } from '../web/bridge-call';
import { readBridgeFile } from '../web/bridge-file';
import { loadOrCreateUiToken, rotateUiToken, uiAddress } from '../web/ui-token-file';
import { commandHelp } from './command-help';
import { OptionsError, parseAgentOptions } from './options';

export const UI_ADDRESS_USAGE = commandHelp({
  usage: 'ui-address [--rotate] [OPTIONS]',
  about: `Prints the web UI's full address (ui: http://127.0.0.1:PORT/?token=...) for --data-dir: the
same address after every restart, so a bookmark keeps working. Without a running agent the
port comes from --ui-port (or uiPort in --config).`,
  options: `  --rotate                 make a new address: every bookmark and open tab of the old one stops working`,
  agentOptions: '--data-dir, --ui-port and --config',
});

export interface UiAddressRun {
  /** Lines for stdout (the `ui:` line). */
  readonly text: string;
  /** Lines for stderr (notes). */
  readonly notes: string;
}

export async function runUiAddress(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<UiAddressRun> {
  const rotate = argv.includes('--rotate');
  const rest = argv.filter((arg) => arg !== '--rotate');
  if (rest.includes('--help')) return { text: `${UI_ADDRESS_USAGE}\n`, notes: '' };
  const options = parseAgentOptions(rest, env, () => undefined);
  const running = readBridgeFile(options.dataDir);
  if (running) {
    if (rotate) {
      const { url } = await callAgentBridge(running, 'rotateUiAddress', {}, { timeoutMs: 10_000 });
      return { text: `ui: ${url}\n`, notes: '' };
    }
    return { text: `ui: ${uiAddress(running.origin, running.token)}\n`, notes: '' };
  }
  if (options.uiPort === null || options.uiPort === 0) {
    throw new OptionsError(
      options.uiPort === 0
        ? `no agent is running on ${options.dataDir}, and --ui-port 0 picks a new port at each start: give the agent a fixed --ui-port N (or uiPort in --config) so its address lasts`
        : `no agent is running on ${options.dataDir}: give the port it serves the UI on, --ui-port N (or the --config FILE it starts with)`,
    );
  }
  const token = rotate ? rotateUiToken(options.dataDir) : loadOrCreateUiToken(options.dataDir);
  return {
    text: `ui: ${uiAddress(`http://127.0.0.1:${options.uiPort}`, token)}\n`,
    notes: `note: no agent is running on ${options.dataDir} now; this address opens once it starts with --ui-port ${options.uiPort}\n`,
  };
}

/** For agent.ts: true when argv is the ui-address command (run and printed). */
export async function runUiAddressSubcommand(argv: readonly string[]): Promise<boolean> {
  if (argv[0] !== 'ui-address') return false;
  const { text, notes } = await runUiAddress(argv.slice(1));
  process.stdout.write(text);
  if (notes) process.stderr.write(notes);
  return true;
}
