/**
 * Where a running agent's UI bridge answers, for the agent's own command-line tools: the
 * ledger has one owner (ledger-lock.ts), so `npm run agent -- report` asks the agent that
 * holds it instead of reading the file. `<data dir>/ui-bridge.json` holds the agent's
 * process id, the loopback origin and the token of its `ui:` address (kept in `ui-token`, ui-token-file.ts); it is written
 * when the UI server has started and removed when the agent stops.
 *
 * The token opens the whole AgentApi, so the file is as private as the ledger beside it
 * (0600 in the 0700 data directory): only the agent's own user (and root) can read it, and
 * that user can already read the ledger, the settings and the agent's environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../data-dir';
import { processAlive } from '../process-alive';

export const BRIDGE_FILE_NAME = 'ui-bridge.json';

export interface BridgeInfo {
  readonly pid: number;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly token: string;
}

export const bridgeFilePath = (dataDir: string): string => path.join(dataDir, BRIDGE_FILE_NAME);

/**
 * Writes the file (whole or not at all: written beside it and renamed) and returns its
 * removal, which leaves a file another agent wrote since alone.
 */
export function writeBridgeFile(dataDir: string, info: BridgeInfo): () => void {
  const file = bridgeFilePath(dataDir);
  const staging = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(staging, `${JSON.stringify(info)}\n`, { mode: PRIVATE_FILE_MODE });
    fs.renameSync(staging, file);
  } catch (error) {
    // A full disk leaves an empty staging file behind: no litter in the data directory.
    fs.rmSync(staging, { force: true });
    throw error;
  }
  return () => {
    if (readRaw(file)?.pid === info.pid) fs.rmSync(file, { force: true });
  };
}

/** The running agent's bridge; null when there is none, the file is unreadable or its agent is gone (a crash left it). */
export function readBridgeFile(dataDir: string): BridgeInfo | null {
  const info = readRaw(bridgeFilePath(dataDir));
  return info && processAlive(info.pid) ? info : null;
}

function readRaw(file: string): BridgeInfo | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const { pid, origin, token } = (parsed ?? {}) as Record<string, unknown>;
  if (!Number.isInteger(pid) || (pid as number) <= 0 || typeof origin !== 'string' || typeof token !== 'string') return null;
  if (!/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/.test(origin)) return null;
  return { pid: pid as number, origin, token };
}
