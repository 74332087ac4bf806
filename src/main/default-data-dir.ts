/**
 * Where the headless agent keeps its ledger, settings and logs when no `--data-dir` is
 * given: the user's application-data folder, as the desktop app keeps its own there, so the
 * station is the same whatever folder it is started from (a data dir relative to the
 * current folder made a second, fresh station of every other folder).
 *
 *   Windows  %APPDATA%\Print Station
 *   macOS    ~/Library/Application Support/Print Station
 *   Linux    $XDG_DATA_HOME/print-station, else ~/.local/share/print-station
 *
 * The demo keeps its own (src/main/demo/demo-data-dir.ts).
 */
import { homedir } from 'node:os';
import path from 'node:path';

export interface DefaultDataDirContext {
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default os.homedir() */
  readonly home?: string;
}

export function defaultDataDir(context: DefaultDataDirContext = {}): string {
  const platform = context.platform ?? process.platform;
  const env = context.env ?? process.env;
  const home = context.home ?? homedir();
  if (platform === 'win32') return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), 'Print Station');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Print Station');
  // XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME && path.posix.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.posix.join(home, '.local', 'share');
  return path.posix.join(xdg, 'print-station');
}

/** The relay's own ledger (webhook ids, poll mark), beside the station's: a relay and a station may share a machine. */
export function defaultRelayDataDir(context: DefaultDataDirContext = {}): string {
  const base = defaultDataDir(context);
  return (context.platform ?? process.platform) === 'win32' ? path.win32.join(base, 'relay') : path.posix.join(base, 'relay');
}

/** How --help names the default: the folder for this machine. */
export const DEFAULT_DATA_DIR_HELP =
  'the per-user application-data folder: %APPDATA%\\Print Station, ~/Library/Application Support/Print Station, or $XDG_DATA_HOME/print-station (~/.local/share/print-station)';
