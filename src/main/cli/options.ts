/**
 * Options of `npm run agent` and `npm run demo` (docs/INTERFACES.md). Precedence: command line,
 * then environment (PRINT_STATION_API_KEY, PRINT_STATION_WEBHOOK_SECRET), then the `--config` JSON
 * file, then defaults.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { CodedError } from '../errors';
import { DEFAULT_DATA_DIR_HELP, defaultDataDir } from '../default-data-dir';
import { didYouMean } from './did-you-mean';

export class OptionsError extends CodedError {
  constructor(message: string) {
    super('INVALID_OPTIONS', message);
  }
}

export interface AgentCliOptions {
  readonly apiUrl: string | null;
  readonly apiKey: string | null;
  readonly printer: string | null;
  readonly documentPrinter: string | null;
  readonly webhookPort: number | null;
  readonly webhookHost: string;
  readonly webhookSecrets: readonly string[];
  readonly pollIntervalSeconds: number | null;
  readonly uiPort: number | null;
  /** Most shipments per print call and spool job (src/main/jobs/batching.ts); null = the pipeline's default, 25. */
  readonly batchMax: number | null;
  /** The station's scale URI (`--scale`, `scale` in --config); null = the one saved in --data-dir (none by default). */
  readonly scale: string | null;
  readonly dataDir: string;
  /** `--catch-up MINUTES`: print, once, what was booked this long before the station's first start; null = none. */
  readonly catchUpMinutes: number | null;
  readonly help: boolean;
}

/**
 * The shortest webhook secret the agent takes. The service's endpoint secrets are far
 * longer; a short one is guessable, and in a log it cannot be told from ordinary text.
 */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;

const configFileSchema = z
  .object({
    apiUrl: z.string().url().optional(),
    apiKey: z.string().min(1).optional(),
    printer: z.string().min(1).optional(),
    documentPrinter: z.string().min(1).optional(),
    webhookPort: z.number().int().min(0).max(65535).optional(),
    webhookHost: z.string().min(1).optional(),
    webhookSecrets: z.array(z.string().min(1)).max(10).optional(),
    pollIntervalSeconds: z.number().min(0).max(3600).optional(),
    uiPort: z.number().int().min(0).max(65535).optional(),
    batchMax: z.number().int().min(1).max(25).optional(),
    scale: z.string().min(1).optional(),
    dataDir: z.string().min(1).optional(),
  })
  .strict();

/** What labels go to when neither --printer nor the data dir's settings name a printer (settings-store.ts). */
export const DEFAULT_PRINTER = 'folder:./prints';

/**
 * Every command of `npm run agent -- COMMAND`, for --help: one line each. A new command adds
 * its line here (the order is the order shown), and `agent.ts` dispatches it.
 */
export const AGENT_COMMANDS: ReadonlyArray<readonly [usage: string, summary: string]> = [
  ['report --day YYYY-MM-DD', 'the end-of-day report for this station (--csv FILE, --lang L)'],
  ['diagnostics OUT', 'write a diagnostics bundle (one JSON file, no secrets) for support'],
  ['install-service --print', 'print the systemd unit / launchd plist / Windows service XML that runs this agent'],
  ['ui-address [--rotate]', "print the web UI's full address for --data-dir (the same after restarts); --rotate makes a new one"],
  ['relay --site nats://…', "a site's intake: takes the service's webhooks and/or polls, publishes each booking once; prints nothing"],
  ['site-setup --out DIR', 'write a protected site\'s nats-server.conf and one .creds file per relay and station (--stations "A,B")'],
];

const commandLines = (): string => AGENT_COMMANDS.map(([usage, summary]) => `  ${usage.padEnd(24)} ${summary}`).join('\n');

export const AGENT_USAGE = `Commands (npm run agent -- COMMAND --help for each):
${commandLines()}
Options:
  --api-url URL            the service's base address including /external/v1
  --api-key K              the API key; never printed or logged. Prefer env PRINT_STATION_API_KEY or apiKey
                           in --config (chmod 600): on the command line it shows in \`ps\`
  --printer URI            where labels go: zpl://HOST[:PORT][?dpi=N] | ipp[s]://HOST[:PORT]/PATH
                           | cups:QUEUE[@HOST:PORT] | zpl-cups:QUEUE | windows:NAME | zpl-windows:NAME
                           | folder:DIR | service:ID
                           (default: the printer saved in --data-dir, else ${DEFAULT_PRINTER}: PDFs in ./prints)
  --document-printer URI   where A4 documents go (default: same as --printer)
  --webhook-port N         receive webhooks on 127.0.0.1:N at /webhooks
  --webhook-host ADDR      bind address for webhooks (default 127.0.0.1; set for a reverse proxy)
  --webhook-secret S       secret to verify Service-Signature, at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (repeatable: several endpoints), or env
                           PRINT_STATION_WEBHOOK_SECRET (comma-separated for several) or webhookSecrets in --config
                           (on the command line it shows in \`ps\`: prefer the env or --config)
  --poll-interval SECONDS  poll GET /shipments every SECONDS (0 = no polling; default 5: 12 requests a minute)
  --ui-port N              serve the web UI on 127.0.0.1:N
  --batch-max N            fetch and spool up to N waiting labels of one printer as one job (1-25; default 25; 1 = each label alone)
  --scale URI              the station's scale: serial:PATH[?protocol=sics|toledo&baud=N&parity=none|even|odd&bits=7|8]
                           | hid:VVVV:PPPP | none (default: the scale saved in --data-dir, else none)
  --catch-up MINUTES       on a fresh station, also print what was booked in the MINUTES before its first start,
                           once (default: only what is booked after the first start prints by itself; the UI
                           offers the hour before)
  --data-dir DIR           where the ledger, settings and logs/ live (default: ${DEFAULT_DATA_DIR_HELP})
  --config FILE            JSON file with the same options in camelCase (apiUrl, apiKey, ...); one holding
                           apiKey or webhookSecrets must be readable by its owner only (chmod 600 FILE)
  --help                   this text`;

function integer(name: string, raw: string | undefined, min: number, max: number): number | null {
  if (raw === undefined) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new OptionsError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/**
 * A config file holding the key or a webhook secret is as secret as they are: one every
 * user of the machine can read is refused, one its group can read is warned about; both
 * name the file and the fix. (Windows: the ACLs of the folder decide; modes mean little.)
 */
function checkConfigPrivate(path: string, file: z.infer<typeof configFileSchema>, warn: (line: string) => void): void {
  if (process.platform === 'win32') return;
  const held = [file.apiKey !== undefined ? 'apiKey' : null, file.webhookSecrets?.length ? 'webhookSecrets' : null].filter(
    (k): k is string => k !== null,
  );
  if (held.length === 0) return;
  const mode = statSync(path).mode;
  const what = held.join(' and ');
  if ((mode & 0o004) !== 0) {
    throw new OptionsError(
      `--config ${path} holds ${what} and every user of this machine can read it: run chmod 600 ${path} (owned by the user the agent runs as), then start again`,
    );
  }
  if ((mode & 0o040) !== 0) {
    warn(
      `warning: --config ${path} holds ${what} and its group can read it: chmod 600 ${path} unless that group is the agent's user alone`,
    );
  }
}

function readConfigFile(path: string): z.infer<typeof configFileSchema> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new OptionsError(`cannot read --config ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new OptionsError(`--config ${path} is not valid JSON`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OptionsError(`--config ${path}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * The pipeline tuning the agent and the demo pass to startHeadlessAgent: none unless
 * --batch-max (or batchMax in --config) was given, so the pipeline's default holds (25).
 */
export function pipelineTuning(options: Pick<AgentCliOptions, 'batchMax'>): { pipeline: { batchMax: number } } | undefined {
  return options.batchMax === null ? undefined : { pipeline: { batchMax: options.batchMax } };
}

/** Every address of the service ends in the version prefix (the service's spec, base URL). */
const API_PREFIX = '/external/v1';

/**
 * A base address without the prefix answers 404 to everything, which would surface later
 * as one confusing error per request: name it at start, with the address to use instead.
 */
export function checkApiPrefix(apiUrl: string): void {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new OptionsError(`--api-url "${apiUrl}" is not a valid address: use http://host:port${API_PREFIX}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_PREFIX)) return;
  const shown = apiUrl.replace(/\/+$/, '');
  const suggested = `${url.origin}${path}${API_PREFIX}`;
  throw new OptionsError(`--api-url ${shown} has no ${API_PREFIX}: use ${suggested}`);
}

/** The one line written when the key comes on the command line (any user on the machine can read it with `ps`). */
export const API_KEY_FLAG_WARNING =
  'warning: --api-key is visible to every user of this machine (ps); set PRINT_STATION_API_KEY or apiKey in a --config file instead';

/** The one line written when a webhook secret comes on the command line (readable with `ps`, like the key). */
export const WEBHOOK_SECRET_FLAG_WARNING =
  'warning: --webhook-secret is visible to every user of this machine (ps); set PRINT_STATION_WEBHOOK_SECRET ' +
  '(comma-separated for several) or webhookSecrets in a --config file instead';

/** `a,b` → ['a', 'b']; blanks dropped; undefined or empty → null. */
function envSecrets(raw: string | undefined): string[] | null {
  const secrets = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return secrets.length > 0 ? secrets : null;
}

/** Defaults that differ per entry point (the demo keeps its own data dir). */
export interface OptionDefaults {
  /** @default the per-user application-data folder (default-data-dir.ts) */
  readonly dataDir?: string;
  /** Options another parser takes from the same command line (the site's), offered in "did you mean". @default none */
  readonly alsoKnown?: readonly string[];
}

/** Every option this parser takes, as typed. */
const AGENT_OPTION_NAMES = [
  '--api-url',
  '--api-key',
  '--printer',
  '--document-printer',
  '--webhook-port',
  '--webhook-host',
  '--webhook-secret',
  '--poll-interval',
  '--ui-port',
  '--batch-max',
  '--scale',
  '--catch-up',
  '--data-dir',
  '--config',
  '--help',
];

/** The command names of AGENT_COMMANDS (`report`, `relay`, …). */
export const AGENT_COMMAND_NAMES: readonly string[] = AGENT_COMMANDS.map(([usage]) => usage.split(' ')[0]!);

/**
 * parseArgs' own messages (`Unknown option '--printer-uri'. To specify a positional …`)
 * turned into one line that says what to do: the option or command meant, and where the list is.
 */
export function optionsErrorOf(
  error: unknown,
  knownOptions: readonly string[] = AGENT_OPTION_NAMES,
  help = 'npm run agent -- --help lists every option',
): OptionsError {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return new OptionsError(`unknown option ${quoted}${didYouMean(quoted, knownOptions)} (${help})`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const known = AGENT_COMMAND_NAMES.join(', ');
    return new OptionsError(`unknown command ${quoted}${didYouMean(quoted, AGENT_COMMAND_NAMES)} (the commands: ${known}; ${help})`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = /'(--[a-z-]+)/.exec(message)?.[1] ?? quoted;
    return new OptionsError(`${option} needs a value (${help})`);
  }
  return new OptionsError(`${message} (${help})`);
}

/** Refuses a webhook secret too short to be one, saying why and where the real one is; never prints the secret. */
function checkWebhookSecrets(secrets: readonly string[]): void {
  for (const [index, secret] of secrets.entries()) {
    if (secret.length >= MIN_WEBHOOK_SECRET_LENGTH) continue;
    const which = secrets.length > 1 ? `webhook secret ${index + 1} of ${secrets.length}` : 'the webhook secret';
    throw new OptionsError(
      `${which} has ${secret.length} character${secret.length === 1 ? '' : 's'}; at least ${MIN_WEBHOOK_SECRET_LENGTH} are needed ` +
        `(a short secret is easy to guess): use the endpoint secret from the service's API settings`,
    );
  }
}

export function parseAgentOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  defaults: OptionDefaults = {},
): AgentCliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'api-url': { type: 'string' },
        'api-key': { type: 'string' },
        printer: { type: 'string' },
        'document-printer': { type: 'string' },
        'webhook-port': { type: 'string' },
        'webhook-host': { type: 'string' },
        'webhook-secret': { type: 'string', multiple: true },
        'poll-interval': { type: 'string' },
        'ui-port': { type: 'string' },
        'batch-max': { type: 'string' },
        scale: { type: 'string' },
        'catch-up': { type: 'string' },
        'data-dir': { type: 'string' },
        config: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw optionsErrorOf(error, [...AGENT_OPTION_NAMES, ...(defaults.alsoKnown ?? [])]);
  }
  if (values['api-key'] !== undefined) warn(API_KEY_FLAG_WARNING);
  if (values['webhook-secret'] !== undefined) warn(WEBHOOK_SECRET_FLAG_WARNING);
  const file = values.config ? readConfigFile(values.config) : {};
  if (values.config) checkConfigPrivate(values.config, file, warn);
  const apiUrl = values['api-url'] ?? file.apiUrl ?? null;
  if (apiUrl !== null && !/^https?:\/\//.test(apiUrl)) {
    throw new OptionsError(`--api-url must start with http:// or https://, got "${apiUrl}"`);
  }
  if (apiUrl !== null) checkApiPrefix(apiUrl);
  const webhookSecrets = values['webhook-secret'] ?? envSecrets(env.PRINT_STATION_WEBHOOK_SECRET) ?? file.webhookSecrets ?? [];
  checkWebhookSecrets(webhookSecrets);
  return {
    apiUrl,
    apiKey: values['api-key'] ?? env.PRINT_STATION_API_KEY ?? file.apiKey ?? null,
    printer: values.printer ?? file.printer ?? null,
    documentPrinter: values['document-printer'] ?? file.documentPrinter ?? null,
    webhookPort: integer('--webhook-port', values['webhook-port'], 0, 65535) ?? file.webhookPort ?? null,
    webhookHost: values['webhook-host'] ?? file.webhookHost ?? '127.0.0.1',
    webhookSecrets,
    pollIntervalSeconds: integer('--poll-interval', values['poll-interval'], 0, 3600) ?? file.pollIntervalSeconds ?? null,
    uiPort: integer('--ui-port', values['ui-port'], 0, 65535) ?? file.uiPort ?? null,
    batchMax: integer('--batch-max', values['batch-max'], 1, 25) ?? file.batchMax ?? null,
    scale: values.scale ?? file.scale ?? null,
    dataDir: resolve(values['data-dir'] ?? file.dataDir ?? defaults.dataDir ?? defaultDataDir()),
    catchUpMinutes: integer('--catch-up', values['catch-up'], 0, 7 * 24 * 60),
    help: values.help ?? false,
  };
}
