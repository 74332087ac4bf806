import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir } from '../../../src/main/data-dir';
import { startStation, type Station } from '../../support/agent-harness';

const modeOf = (p: string): number => lstatSync(p).mode & 0o777;

let previousUmask: number;
beforeEach(() => {
  // A usual desktop umask: without the fix, new files come out 0644 and the directory 0755.
  previousUmask = process.umask(0o022);
});
afterEach(() => {
  process.umask(previousUmask);
});

describe.skipIf(process.platform === 'win32')('data directory at rest', () => {
  let station: Station | null = null;
  afterEach(async () => {
    await station?.close();
    station = null;
  });

  it('is created 0700 with every file in it 0600 (ledger, its WAL, lock file, settings)', async () => {
    station = await startStation();
    const { agent } = await station.start();
    await agent.api.setPaused({ paused: true }); // writes settings.json
    const data = join(station.dir, 'data');
    expect(modeOf(data)).toBe(0o700);
    const files = readdirSync(data);
    expect(files).toEqual(expect.arrayContaining(['ledger.sqlite', 'ledger.sqlite.lock', 'settings.json']));
    for (const f of files) expect([f, modeOf(join(data, f))]).toEqual([f, 0o600]);
  });

  it('tightens a directory and files an earlier version left readable, at start', async () => {
    station = await startStation();
    const data = join(station.dir, 'data');
    await station.start();
    await station.stopAgent();
    writeFileSync(join(data, 'notes.txt'), 'left by a tool');
    chmodSync(data, 0o755);
    for (const f of readdirSync(data)) chmodSync(join(data, f), 0o644);
    await station.start();
    expect(modeOf(data)).toBe(0o700);
    for (const f of readdirSync(data)) expect([f, modeOf(join(data, f))]).toEqual([f, 0o600]);
  });
});

describe('ensurePrivateDir', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'print-station-private-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('leaves subdirectories (a folder printer) alone and does not touch modes on Windows', () => {
    const sub = join(dir, 'data', 'prints');
    mkdirSync(sub, { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, 'data', 'a.json'), '{}', { mode: 0o644 });
    ensurePrivateDir(join(dir, 'data'), { platform: 'win32' });
    expect(modeOf(join(dir, 'data', 'a.json'))).toBe(0o644);
    ensurePrivateDir(join(dir, 'data'), { platform: 'linux' });
    expect(modeOf(join(dir, 'data', 'a.json'))).toBe(0o600);
    expect(modeOf(join(dir, 'data'))).toBe(0o700);
    expect(modeOf(sub)).toBe(0o755);
    writeFileSync(join(dir, 'data', 'tool.sh'), '#!/bin/sh', { mode: 0o755 });
    ensurePrivateDir(join(dir, 'data'));
    expect(modeOf(join(dir, 'data', 'tool.sh'))).toBe(0o700);
  });
});
