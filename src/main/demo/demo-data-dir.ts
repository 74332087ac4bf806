/**
 * The demo's own data directory. It never shares the agent's (`./.data`): a demo ledger
 * opened by `npm run agent`, or a second demo showing the first one's shipments, misleads.
 * Each demo starts fresh (the embedded sandbox starts empty too, so yesterday's jobs would
 * point at shipments that no longer exist) unless `--keep-data` asks to keep it.
 *
 * Only a directory the demo made is ever emptied: the default one, or one holding the
 * demo's marker file. A `--data-dir` that points at a real station's directory is left as
 * it is, whatever the flags say.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../data-dir';
import { processAlive } from '../process-alive';

/** `npm run demo`'s data dir when no --data-dir (or dataDir in --config) is given. */
export const DEMO_DATA_DIR = '.demo-data';
/** Written into every directory the demo uses, so only those are ever emptied. */
export const DEMO_MARKER = '.print-station-demo';

export type DemoDataStart = 'fresh' | 'kept' | 'not-a-demo-dir' | 'in-use';

/**
 * Prepares `dir` for a demo run: empties it when it is the demo's own and `keep` is false
 * (not while another demo holds its ledger), and marks it as the demo's.
 */
export function prepareDemoDataDir(dir: string, keep: boolean): DemoDataStart {
  const ours = !fs.existsSync(dir) || fs.existsSync(path.join(dir, DEMO_MARKER)) || isEmpty(dir);
  let start: DemoDataStart;
  if (!ours) start = 'not-a-demo-dir';
  else if (keep) start = 'kept';
  else if (heldByLiveAgent(dir)) start = 'in-use';
  else {
    fs.rmSync(dir, { recursive: true, force: true });
    start = 'fresh';
  }
  if (ours) {
    ensurePrivateDir(dir);
    fs.writeFileSync(path.join(dir, DEMO_MARKER), 'npm run demo made this directory; it starts fresh unless --keep-data\n', {
      mode: 0o600,
    });
  }
  return start;
}

function isEmpty(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

/** Another demo runs on it: its lock file names a live process (ledger/ledger-lock.ts). */
function heldByLiveAgent(dir: string): boolean {
  try {
    const owner = Number.parseInt(fs.readFileSync(path.join(dir, 'ledger.sqlite.lock'), 'utf8'), 10);
    return Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner);
  } catch {
    return false;
  }
}
