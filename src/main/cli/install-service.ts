/**
 * `npm run agent -- install-service --print [--os linux|macos|windows] ...`: prints the
 * service definition for this OS (or another) to review. Writing and enabling it is the
 * operator's step (docs/OPERATIONS.md), so nothing is installed behind their back.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { commandHelp } from './command-help';
import { OptionsError, optionsErrorOf } from './options';
import { serviceDefinition, type ServiceDefinitionOptions, type ServiceOs } from './service-definitions';
import { checkedPath, checkedUser, type PathOption } from './service-inputs';
import { serviceWarnings, tmpWarnings } from './service-warnings';

export const INSTALL_SERVICE_USAGE = commandHelp({
  usage: 'install-service --print [OPTIONS]',
  about: `Prints the service definition that runs this agent (node out/agent/agent.mjs --config FILE):
a systemd unit (linux), a launchd plist (macos) or a WinSW service XML (windows).
The API key never goes in it: it stays in a protected file (see docs/OPERATIONS.md).`,
  options: `  --print                  print the definition (required: installing it is your step)
  --os OS                  linux | macos | windows (default: this machine's)
  --config FILE            the agent's JSON config file (default per OS, e.g. /etc/print-station/agent.json)
  --data-dir DIR           the ledger, settings and logs (default per OS, e.g. /var/lib/print-station)
  --env-file FILE          linux: the root-only file with PRINT_STATION_API_KEY (default /etc/print-station/agent.env)
  --user NAME              the account it runs as (default print-station / _printstation / LocalSystem)
  --node PATH              the node executable (default: this one on this OS, the usual place on another)
  --app-dir DIR            the project directory with out/agent/agent.mjs (default: this one on this OS)`,
});

/** What the running process knows about itself; injectable for tests. */
export interface InstallServiceContext {
  readonly platform: NodeJS.Platform;
  readonly execPath: string;
  /** The project directory this agent runs from. */
  readonly appDir: string;
}

const DEFAULTS: Record<ServiceOs, Omit<ServiceDefinitionOptions, 'os' | 'user'>> = {
  linux: {
    nodePath: '/usr/bin/node',
    appDir: '/opt/print-station',
    configPath: '/etc/print-station/agent.json',
    dataDir: '/var/lib/print-station',
    envFile: '/etc/print-station/agent.env',
  },
  macos: {
    nodePath: '/usr/local/bin/node',
    appDir: '/usr/local/print-station',
    configPath: '/Library/Application Support/Print Station/agent.json',
    dataDir: '/Library/Application Support/Print Station/data',
    envFile: '',
  },
  windows: {
    nodePath: 'C:\\Program Files\\nodejs\\node.exe',
    appDir: 'C:\\Program Files\\Print Station Agent',
    configPath: 'C:\\ProgramData\\Print Station\\agent.json',
    dataDir: 'C:\\ProgramData\\Print Station\\data',
    envFile: '',
  },
};

function osOf(platform: NodeJS.Platform): ServiceOs {
  return platform === 'darwin' ? 'macos' : platform === 'win32' ? 'windows' : 'linux';
}

/** The project directory when running as out/agent/agent.mjs (or from src/main/cli). */
export function projectDirOf(script: string | undefined, cwd: string): string {
  if (!script) return cwd;
  const dir = path.dirname(path.resolve(script));
  if (dir.endsWith(path.join('out', 'agent'))) return path.resolve(dir, '..', '..');
  if (dir.endsWith(path.join('src', 'main', 'cli'))) return path.resolve(dir, '..', '..', '..');
  return cwd;
}

/** The definition's text (stdout) and warnings about this machine (stderr, one line each). */
export interface InstallServiceOutput {
  readonly text: string;
  readonly warnings: readonly string[];
}

/** The definition's text; throws OptionsError on bad options. */
export function installServiceText(argv: readonly string[], context: InstallServiceContext): string {
  return installService(argv, context).text;
}

/** The definition and the warnings; throws OptionsError on bad options. */
export function installService(argv: readonly string[], context: InstallServiceContext): InstallServiceOutput {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        print: { type: 'boolean' },
        os: { type: 'string' },
        config: { type: 'string' },
        'data-dir': { type: 'string' },
        'env-file': { type: 'string' },
        user: { type: 'string' },
        node: { type: 'string' },
        'app-dir': { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    const message = (error as Error).message;
    if (/api-key/.test(message)) {
      throw new OptionsError(
        'install-service never writes the API key into a service definition: put it in the protected file docs/OPERATIONS.md names',
      );
    }
    const known = ['--print', '--os', '--config', '--data-dir', '--env-file', '--user', '--node', '--app-dir', '--help'];
    throw optionsErrorOf(error, known, 'npm run agent -- install-service --help lists its options');
  }
  if (values.help) return { text: `${INSTALL_SERVICE_USAGE}\n`, warnings: [] };
  if (!values.print) {
    throw new OptionsError(
      'install-service only prints the definition: add --print, review it, then install it as docs/OPERATIONS.md says',
    );
  }
  const here = osOf(context.platform);
  const os = (values.os ?? here) as ServiceOs;
  if (!(os in DEFAULTS)) throw new OptionsError(`--os must be linux, macos or windows, got "${values.os}"`);
  const defaults = DEFAULTS[os];
  const given = (option: PathOption, fallback: string): string => {
    const value = values[option];
    return value === undefined ? fallback : checkedPath(option, value, os);
  };
  const options: ServiceDefinitionOptions = {
    os,
    nodePath: given('node', os === here ? context.execPath : defaults.nodePath),
    appDir: given('app-dir', os === here ? context.appDir : defaults.appDir),
    configPath: given('config', defaults.configPath),
    dataDir: given('data-dir', defaults.dataDir),
    envFile: given('env-file', defaults.envFile),
    user: values.user === undefined ? null : checkedUser(values.user, os),
  };
  return { text: serviceDefinition(options).text, warnings: os === here ? serviceWarnings(options) : tmpWarnings(options) };
}

/** Runs the subcommand when argv names one; false when it does not (the agent starts). */
export function runAgentSubcommand(
  argv: readonly string[],
  write: (text: string) => void = (t) => process.stdout.write(t),
  warn: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
): boolean {
  if (argv[0] !== 'install-service') return false;
  const appDir = projectDirOf(process.argv[1], process.cwd());
  const output = installService(argv.slice(1), { platform: process.platform, execPath: process.execPath, appDir });
  // Warnings go to stderr, so `--print > unit.service` keeps only the definition.
  for (const line of output.warnings) warn(line);
  write(output.text);
  return true;
}
