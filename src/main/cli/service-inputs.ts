/**
 * The paths and the account install-service writes into a service definition, checked before
 * any is written. A line break would add a line of its own to the definition (a root
 * `ExecStartPre=+…` in a systemd unit), so every control character is refused with the option
 * named; the rest is quoted for each place it lands (service-quoting.ts). Paths must be
 * absolute, as systemd, launchd and WinSW need them (a relative path starting with `-` would
 * also change what a systemd setting means).
 */
import { OptionsError } from './options';
import type { ServiceOs } from './service-definitions';

export type PathOption = 'node' | 'app-dir' | 'config' | 'data-dir' | 'env-file';

// C0 and C1 controls, DEL and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// POSIX user names as useradd and dscl take them.
const POSIX_ACCOUNT = /^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/;

function refuseControls(option: string, value: string): void {
  if (CONTROL.test(value)) {
    const what = /[\n\r\u2028\u2029]/.test(value) ? 'a line break' : 'a control character';
    throw new OptionsError(`--${option} holds ${what}: give it on one line, without control characters`);
  }
}

/** A path option's value as the definition writes it: checked, trailing separators dropped. */
export function checkedPath(option: PathOption, value: string, os: ServiceOs): string {
  refuseControls(option, value);
  if (value.trim() !== value || value === '') {
    throw new OptionsError(`--${option} "${value}" starts or ends with a space: give the path without them`);
  }
  const absolute = os === 'windows' ? /^([A-Za-z]:\\|\\\\)/.test(value) : value.startsWith('/');
  if (!absolute) {
    const example = os === 'windows' ? 'C:\\ProgramData\\Print Station' : '/var/lib/print-station';
    throw new OptionsError(`--${option} "${value}" is not an absolute path: give the full path (like ${example})`);
  }
  if (os === 'windows' && /%[^%]+%/.test(value)) {
    throw new OptionsError(`--${option} "${value}" holds %NAME%, which WinSW replaces by an environment variable: give the path itself`);
  }
  const root = os === 'windows' ? /^([A-Za-z]:\\|\\\\[^\\]+\\[^\\]+\\?)$/ : /^\/$/;
  return root.test(value) ? value : value.replace(os === 'windows' ? /\\+$/ : /\/+$/, '');
}

/** The --user value: one line; on Linux and macOS an account name useradd / dscl would take. */
export function checkedUser(value: string, os: ServiceOs): string {
  refuseControls('user', value);
  if (value.trim() === '') throw new OptionsError('--user is empty: give the account the service runs as');
  if (os !== 'windows' && !POSIX_ACCOUNT.test(value)) {
    throw new OptionsError(
      `--user "${value}" is not an account name: use letters, digits, "_", "." and "-" (at most 32, not starting with a digit or "-")`,
    );
  }
  return value;
}
