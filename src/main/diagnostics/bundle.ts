/**
 * The diagnostics bundle: one readable JSON file a support person opens in any editor.
 * Secrets never go in: settings pass through `withoutSecrets`, log lines were redacted by
 * the logger, and the finished text is scrubbed once more of every known secret in every
 * form it could take (plain, base64, hex, URL- and JSON-escaped).
 */
import { maskSecret } from '../secret-mask';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLIENT_VERSION } from '../api/version';
import { makeDirSync } from '../fs/make-dir';
import type { RecentRequest } from '../api/request-ids';

export const BUNDLE_KIND = 'print-station-diagnostics';
/** Log lines a bundle carries. */
export const DEFAULT_LOG_LINES = 500;

export interface Versions {
  readonly app: string;
  readonly node: string;
  readonly electron: string | null;
  readonly os: string;
  readonly platform: string;
  readonly arch: string;
}

export interface DiagnosticsBundle {
  readonly kind: typeof BUNDLE_KIND;
  readonly formatVersion: 1;
  readonly createdAt: string;
  /** 'agent': written by the running agent (Settings); 'cli': by `npm run agent -- diagnostics`. */
  readonly source: 'agent' | 'cli';
  readonly versions: Versions;
  readonly dataDir: string;
  /** What is missing and why (e.g. counts while another agent holds the ledger). */
  readonly notes: readonly string[];
  readonly status: unknown;
  readonly printers: unknown;
  readonly settings: unknown;
  /** Jobs per state; null when the ledger could not be read. */
  readonly ledgerCounts: Readonly<Record<string, number>> | null;
  /** Newest first. */
  readonly recentRequests: readonly RecentRequest[];
  /** Oldest first, from <dataDir>/logs. */
  readonly logTail: readonly string[];
}

export function collectVersions(): Versions {
  return {
    app: CLIENT_VERSION,
    node: process.versions.node,
    electron: process.versions.electron ?? null,
    os: `${os.type()} ${os.release()}`,
    platform: process.platform,
    arch: process.arch,
  };
}

const SECRET_NAME = /key|secret|token|password|passphrase|credential/i;

/** A copy without any string field whose name says it holds a secret (apiKeySet, a boolean, stays). */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (SECRET_NAME.test(name) && typeof field !== 'boolean' && typeof field !== 'number') out[name] = '(removed)';
    else out[name] = withoutSecrets(field);
  }
  return out;
}

/** Every way a secret could be spelled in text. Too-short values are skipped: they would blank ordinary words. */
function secretForms(secret: string): string[] {
  if (secret.length < 4) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const forms = [
    secret,
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
  ];
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

export function scrubSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of secretForms(secret)) out = maskSecret(out, form);
  }
  return out;
}

/** `print-station-diagnostics-2026-11-24T05-40-00Z.json` */
export function bundleFileName(at: Date): string {
  return `${BUNDLE_KIND}-${at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')}.json`;
}

export interface WrittenBundle {
  readonly path: string;
  readonly fileName: string;
  /** The file's text, as written. */
  readonly content: string;
}

/**
 * Writes the bundle to `target`: a file path, or an existing directory (the default name is
 * used inside). The file is 0600; a directory it creates is 0700 (macOS/Linux).
 */
export function writeBundle(bundle: DiagnosticsBundle, target: string, secrets: readonly (string | null | undefined)[]): WrittenBundle {
  const isDir = target.endsWith(path.sep) || target.endsWith('/') || (fs.existsSync(target) && fs.statSync(target).isDirectory());
  const file = isDir ? path.join(target, bundleFileName(new Date(bundle.createdAt))) : path.resolve(target);
  makeDirSync(path.dirname(file), { mode: 0o700 });
  const content = `${scrubSecrets(JSON.stringify(bundle, null, 2), secrets)}\n`;
  fs.writeFileSync(file, content, { mode: 0o600 });
  if (process.platform !== 'win32') fs.chmodSync(file, 0o600);
  return { path: file, fileName: path.basename(file), content };
}
