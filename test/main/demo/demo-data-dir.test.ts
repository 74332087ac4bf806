/** The demo's own data dir (src/main/demo/demo-data-dir.ts): fresh each run unless kept, and never someone else's emptied. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MARKER, prepareDemoDataDir } from '../../../src/main/demo/demo-data-dir';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'print-station-demo-data-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the demo data dir', () => {
  it('starts fresh at every run: the last run’s ledger is gone, the marker is back', () => {
    const dir = join(root, '.demo-data');
    expect(prepareDemoDataDir(dir, false)).toBe('fresh');
    writeFileSync(join(dir, 'ledger.sqlite'), 'last run');
    expect(prepareDemoDataDir(dir, false)).toBe('fresh');
    expect(readdirSync(dir)).toEqual([DEMO_MARKER]);
  });

  it('keeps the last run with --keep-data', () => {
    const dir = join(root, '.demo-data');
    prepareDemoDataDir(dir, false);
    writeFileSync(join(dir, 'ledger.sqlite'), 'last run');
    expect(prepareDemoDataDir(dir, true)).toBe('kept');
    expect(existsSync(join(dir, 'ledger.sqlite'))).toBe(true);
  });

  it('never empties a directory the demo did not make (a station’s real data dir given as --data-dir)', () => {
    const dir = join(root, 'station');
    mkdirSync(dir);
    writeFileSync(join(dir, 'ledger.sqlite'), 'real jobs');
    expect(prepareDemoDataDir(dir, false)).toBe('not-a-demo-dir');
    expect(readdirSync(dir)).toEqual(['ledger.sqlite']);
  });

  it('leaves a directory another running demo holds (its lock names a live process)', () => {
    const dir = join(root, '.demo-data');
    prepareDemoDataDir(dir, false);
    writeFileSync(join(dir, 'ledger.sqlite'), 'running');
    writeFileSync(join(dir, 'ledger.sqlite.lock'), String(process.ppid));
    expect(prepareDemoDataDir(dir, false)).toBe('in-use');
    expect(existsSync(join(dir, 'ledger.sqlite'))).toBe(true);
  });
});
