/**
 * The web UI's access token, kept in the data directory (`<data dir>/ui-token`) so the
 * headless station keeps one `ui:` address across restarts: a packer's bookmark keeps
 * working after the service restarts or the machine reboots. It changes only on demand
 * (`rotateUiToken`: Settings → Support → "New UI address", or `npm run agent -- ui-address
 * --rotate`), which shuts out every bookmark and open tab holding the old one.
 *
 * The token opens the whole AgentApi, so the file is as private as the ledger beside it:
 * 0600 in the 0700 data directory, written whole or not at all (beside it, then renamed). It
 * is never logged and never part of a diagnostics bundle (which lists no data-dir files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../data-dir';
import { newToken } from './guards';

export const UI_TOKEN_FILE_NAME = 'ui-token';

/** What newToken() makes (24 random bytes, base64url); anything else in the file is replaced. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

export const uiTokenFilePath = (dataDir: string): string => path.join(dataDir, UI_TOKEN_FILE_NAME);

/** The kept token, or null when there is none (or the file holds something that is not one). */
export function readUiToken(dataDir: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(uiTokenFilePath(dataDir), 'utf8').trim();
  } catch {
    return null;
  }
  return TOKEN_SHAPE.test(text) ? text : null;
}

/** The kept token; a new one is made and kept when there is none yet. */
export function loadOrCreateUiToken(dataDir: string): string {
  const kept = readUiToken(dataDir);
  if (kept !== null) {
    tightenFile(uiTokenFilePath(dataDir));
    return kept;
  }
  return rotateUiToken(dataDir);
}

/** A new token, kept in place of the old one; returns it. */
export function rotateUiToken(dataDir: string): string {
  ensurePrivateDir(dataDir);
  const token = newToken();
  const file = uiTokenFilePath(dataDir);
  const staging = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(staging, `${token}\n`, { mode: PRIVATE_FILE_MODE });
    tightenFile(staging);
    fs.renameSync(staging, file);
  } catch (error) {
    // A full disk leaves a half-written staging file: never beside the ledger.
    fs.rmSync(staging, { force: true });
    throw error;
  }
  return token;
}

/** A file an older version, a copy or a restore left readable to others is made private again. */
function tightenFile(file: string): void {
  if (process.platform === 'win32') return;
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/** The full address a packer opens (and bookmarks) for a UI at `origin` (`http://127.0.0.1:PORT`). */
export function uiAddress(origin: string, token: string): string {
  return `${origin}/?token=${encodeURIComponent(token)}`;
}
