/**
 * Windows: the data directory for the service account and Administrators only. It holds the
 * ledger (receivers' names and addresses), the logs and the UI's token file (the whole agent
 * API), and a directory made under ProgramData inherits "Users: read" from it. The install
 * steps (install-service --print) set the ACL with icacls; every start reads it back (Get-Acl
 * through Windows PowerShell by its full path) and warns in one line, with the icacls command
 * that fixes it, when anyone else may read it. POSIX systems get 0700 from data-dir.ts.
 */
import { runExecFile, type ExecFileRunner } from './process/exec';
import { defaultPowershellPath, POWERSHELL_ARGS } from './windows-powershell';

/** Well-known SIDs, so the ACL works on every language of Windows ("Administratörer"). */
export const SYSTEM_SID = 'S-1-5-18';
export const ADMINISTRATORS_SID = 'S-1-5-32-544';
/** Applies to whoever creates a file (the service account, for what the agent writes). */
const CREATOR_OWNER_SID = 'S-1-3-0';

const KNOWN_NAMES: Readonly<Record<string, string>> = {
  'S-1-1-0': 'Everyone',
  'S-1-5-11': 'Authenticated Users',
  'S-1-5-32-545': 'Users',
  'S-1-5-32-546': 'Guests',
  'S-1-5-4': 'INTERACTIVE',
  'S-1-5-32-547': 'Power Users',
};

/** The environment variable the fixed script reads the directory from (no path can change the script). */
export const DATA_DIR_ENV = 'PRINT_STATION_DATA_DIR';

/**
 * The directory's access rules as SIDs (GetAccessRules: explicit and inherited), and the SID
 * this process runs as (the service account).
 */
export const GET_DATA_DIR_ACL_SCRIPT =
  `$ErrorActionPreference = 'Stop'; [Console]::OutputEncoding = [Text.Encoding]::UTF8; $d = $env:${DATA_DIR_ENV}; ` +
  '$a = Get-Acl -LiteralPath $d; ' +
  'ConvertTo-Json -Compress -Depth 4 -InputObject @{ me = [Security.Principal.WindowsIdentity]::GetCurrent().User.Value; ' +
  'rules = @($a.GetAccessRules($true, $true, [Security.Principal.SecurityIdentifier]) | ForEach-Object { ' +
  "@{ sid = $_.IdentityReference.Value; allow = ([string]$_.AccessControlType -eq 'Allow'); inherited = $_.IsInherited } }) }";

/**
 * The icacls arguments that leave `dir` to SYSTEM, Administrators and `account` (a name,
 * or `*SID`; null when the service runs as LocalSystem): inherited entries removed, each grant
 * inherited by what is created inside.
 */
export function dataDirAclArgs(dir: string, account: string | null): string[] {
  const grants = [`*${SYSTEM_SID}:(OI)(CI)F`, `*${ADMINISTRATORS_SID}:(OI)(CI)F`];
  if (account && account !== `*${SYSTEM_SID}`) grants.push(`${account}:(OI)(CI)M`);
  return [dir, '/inheritance:r', '/grant:r', ...grants];
}

/** The icacls command line for PowerShell or cmd (each argument in double quotes). */
export function icaclsCommand(args: readonly string[]): string {
  return `icacls ${args.map((a) => (/^\/[a-z]+:[a-z]$/.test(a) ? a : `"${a}"`)).join(' ')}`;
}

export interface DataDirAclOptions {
  readonly dataDir: string;
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** @default process.env (its SystemRoot places PowerShell) */
  readonly env?: NodeJS.ProcessEnv;
  /** @default defaultPowershellPath(env) */
  readonly powershellPath?: string;
  /** @default execFile, never a shell */
  readonly exec?: ExecFileRunner;
  /** @default 15000 */
  readonly timeoutMs?: number;
}

interface AclReading {
  readonly me: string;
  readonly rules: ReadonlyArray<{ readonly sid: string; readonly allow: boolean; readonly inherited: boolean }>;
}

/**
 * One warning line when the data directory is open to more than SYSTEM, Administrators and
 * this process's account (or when it could not be read); null when it is private or the OS
 * is not Windows.
 */
export async function dataDirAclWarning(options: DataDirAclOptions): Promise<string | null> {
  if ((options.platform ?? process.platform) !== 'win32') return null;
  const env = options.env ?? process.env;
  const exec = options.exec ?? runExecFile;
  const powershell = options.powershellPath ?? defaultPowershellPath(env);
  let reading: AclReading;
  try {
    const result = await exec(powershell, [...POWERSHELL_ARGS, GET_DATA_DIR_ACL_SCRIPT], {
      env: { ...env, [DATA_DIR_ENV]: options.dataDir },
      timeoutMs: options.timeoutMs ?? 15_000,
    });
    if (result.code !== 0) throw new Error((result.stderr.trim() || result.stdout.trim()).split(/\r?\n/)[0] || `exit code ${result.code}`);
    reading = parseReading(result.stdout);
  } catch (error) {
    return (
      `warning: could not read who may open the data directory ${options.dataDir} (${(error as Error).message}); ` +
      `check it is for the service account and Administrators only: ${icaclsCommand(dataDirAclArgs(options.dataDir, null))}`
    );
  }
  const allowed = new Set([SYSTEM_SID, ADMINISTRATORS_SID, CREATOR_OWNER_SID, reading.me]);
  const others = reading.rules.filter((r) => r.allow && !allowed.has(r.sid));
  if (others.length === 0) return null;
  const who = [...new Set(others.map((r) => `${KNOWN_NAMES[r.sid] ?? r.sid}${r.inherited ? ' (inherited)' : ''}`))].join(', ');
  const fix = icaclsCommand(dataDirAclArgs(options.dataDir, `*${reading.me}`));
  return (
    `warning: the data directory ${options.dataDir} is open to ${who}: it holds the ledger, the logs and the UI's token, ` +
    `so keep it to the service account and Administrators; in an elevated PowerShell: ${fix}`
  );
}

function parseReading(stdout: string): AclReading {
  const json = JSON.parse(stdout.replace(/^\uFEFF/, '').trim()) as { me?: unknown; rules?: unknown };
  const rules = (Array.isArray(json.rules) ? json.rules : json.rules ? [json.rules] : []) as Array<Record<string, unknown>>;
  if (typeof json.me !== 'string') throw new Error('PowerShell did not say which account this is');
  return {
    me: json.me,
    rules: rules.map((r) => ({ sid: String(r.sid ?? ''), allow: r.allow === true, inherited: r.inherited === true })),
  };
}
