/**
 * How the agent runs Windows PowerShell: always by its full path under the system root
 * (`%SystemRoot%\System32\WindowsPowerShell\v1.0\powershell.exe`), never by name, so a
 * `powershell.exe` placed earlier on PATH (a writable folder on the service's PATH, the
 * working directory) is never what runs. execFile, never a shell; fixed scripts, with
 * outside values passed through environment variables.
 */
import path from 'node:path';

/** Where Windows keeps itself when the environment does not say (SystemRoot unset). */
const DEFAULT_SYSTEM_ROOT = 'C:\\Windows';

/** Windows PowerShell 5.1 under the environment's SystemRoot (C:\Windows when unset). */
export function defaultPowershellPath(env: NodeJS.ProcessEnv): string {
  const root = env.SystemRoot ?? env.SYSTEMROOT ?? DEFAULT_SYSTEM_ROOT;
  return path.win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
}

/** The command line before the script: no profile (fast, predictable), never a prompt. */
export const POWERSHELL_ARGS = ['-NoProfile', '-NonInteractive', '-Command'] as const;
