import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSiteDemo } from '../../../src/main/demo/site-demo';
import { Ledger } from '../../../src/main/ledger/ledger';
import { createLogger } from '../../../src/main/log';

/** Command lines of the running processes that mention `text`. */
function processesWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(text)) found.push(cmd);
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe('npm run demo -- --stations N, a failed start', () => {
  it('a start that fails (the relay’s data dir in use) leaves no nats-server or station running', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-site-demo-'));
    const held = Ledger.open({ path: join(dir, 'data', 'relay', 'ledger.sqlite') });
    try {
      const lines: string[] = [];
      await expect(
        startSiteDemo({
          stations: 2,
          dataDir: join(dir, 'data'),
          printsDir: join(dir, 'prints'),
          log: createLogger({ write: () => undefined, timestamps: false }),
          write: (line) => lines.push(line),
        }),
      ).rejects.toThrow(/LEDGER_LOCKED|already using/);
      await new Promise((r) => setTimeout(r, 500));
      expect(processesWith(join(dir, 'data', 'nats'))).toEqual([]);
    } finally {
      held.close();
    }
  }, 30_000);
});
