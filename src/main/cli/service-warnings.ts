/**
 * What install-service can see on this machine that would stop the printed service from
 * starting, one line each on stderr, naming the fix: a project directory the service account
 * cannot read (a checkout in a home directory that is 0700), and a path under /tmp, which the
 * unit's `PrivateTmp=true` replaces with an empty directory of the service's own. Read access
 * is judged from the mode bits (owner, group, others) of each directory on the way, for the
 * account the unit names; an account that does not exist yet is judged as "others". ACLs are
 * not read.
 */
import { spawnSync } from 'node:child_process';
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { agentBundle, type ServiceDefinitionOptions } from './service-definitions';

/** An account's user id and group ids; null when the account does not exist (yet). */
export interface Account {
  readonly uid: number;
  readonly gids: readonly number[];
}

export type AccountLookup = (name: string) => Account | null;

/** The account from `id`, the system's own lookup (passwd, LDAP, ...). */
export const lookupAccount: AccountLookup = (name) => {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gids = spawnSync('id', ['-G', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gids.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gids: gids.stdout.trim().split(/\s+/).map(Number) };
};

const DEFAULT_USER: Readonly<Record<string, string>> = { linux: 'print-station', macos: '_printstation' };

/** Warnings for a definition for this machine: unreadable project directory, paths under /tmp. */
export function serviceWarnings(options: ServiceDefinitionOptions, lookup: AccountLookup = lookupAccount): string[] {
  const warnings = tmpWarnings(options);
  if (options.os === 'windows') return warnings;
  const user = options.user ?? DEFAULT_USER[options.os]!;
  const blocked = unreadableBy(lookup(user), options.appDir, agentBundle(options));
  if (blocked) {
    warnings.push(
      `warning: the service account ${user} cannot read the project directory ${options.appDir} ` +
        `(${blocked.path} is mode ${blocked.mode} to it): install the project where it can (e.g. /opt/print-station) ` +
        `and give --app-dir, or open it with chmod o+rx ${blocked.path}`,
    );
  }
  return warnings;
}

const TMP_DIRS = ['/tmp', '/var/tmp'];

/** Linux: each path the unit uses that lies under /tmp or /var/tmp, which PrivateTmp=true hides. */
export function tmpWarnings(options: ServiceDefinitionOptions): string[] {
  if (options.os !== 'linux') return [];
  const paths: ReadonlyArray<readonly [string, string, string]> = [
    ['the project directory', options.appDir, 'install the project elsewhere (e.g. /opt/print-station) and give --app-dir'],
    ['node', options.nodePath, 'use a node outside it (e.g. --node /usr/bin/node)'],
    ['the config file', options.configPath, 'keep it elsewhere (e.g. --config /etc/print-station/agent.json)'],
    ['the data directory', options.dataDir, 'keep it elsewhere (e.g. --data-dir /var/lib/print-station)'],
    ['the environment file', options.envFile, 'keep it elsewhere (e.g. --env-file /etc/print-station/agent.env)'],
  ];
  return paths
    .filter(([, p]) => TMP_DIRS.some((tmp) => p === tmp || p.startsWith(`${tmp}/`)))
    .map(([what, p, fix]) => {
      const tmp = TMP_DIRS.find((t) => p === t || p.startsWith(`${t}/`))!;
      return `warning: ${what} ${p} is under ${tmp}, which the unit's PrivateTmp=true hides from the service: ${fix}`;
    });
}

interface Blocked {
  readonly path: string;
  /** The mode bits as octal text, `0700`. */
  readonly mode: string;
}

/** The first directory (or the bundle) on the way that `who` cannot pass or read; null when all is open. */
export function unreadableBy(who: Account | null, appDir: string, bundle: string): Blocked | null {
  if (who?.uid === 0) return null;
  const resolved = path.resolve(appDir);
  const chain: Array<readonly [string, number]> = [];
  for (let dir = path.dirname(resolved); ; dir = path.dirname(dir)) {
    chain.unshift([dir, 0o1]);
    if (dir === path.dirname(dir)) break;
  }
  chain.push([resolved, 0o5], [bundle, 0o4]);
  for (const [p, bits] of chain) {
    let stats: Stats;
    try {
      stats = statSync(p);
    } catch {
      continue; // Not there (yet): nothing to judge; the bundle is built by `npm run agent`.
    }
    if (!allowed(stats, who, bits)) return { path: p, mode: (stats.mode & 0o777).toString(8).padStart(4, '0') };
  }
  return null;
}

function allowed(stats: Stats, who: Account | null, bits: number): boolean {
  if (who && stats.uid === who.uid) return ((stats.mode >> 6) & bits) === bits;
  if (who?.gids.includes(stats.gid)) return ((stats.mode >> 3) & bits) === bits;
  return (stats.mode & bits) === bits;
}
