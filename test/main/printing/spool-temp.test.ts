import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSpoolTempRoot, sweepSpoolTemp, withSpoolFile } from '../../../src/main/printing/spool-temp';
import { startStation, type Station } from '../../support/agent-harness';

const modeOf = (p: string): number => lstatSync(p).mode & 0o777;
const fail = (e: unknown): Error => e as Error;

describe('label temp files', () => {
  let root: string;
  beforeEach(async () => {
    root = join(await mkdtemp(join(tmpdir(), 'print-station-spool-test-')), 'root');
  });
  afterEach(async () => rm(join(root, '..'), { recursive: true, force: true }));

  it('are private (root and directory 0700, file 0600) and removed after use', async () => {
    let seen = '';
    await withSpoolFile(
      new Uint8Array([1, 2, 3]),
      async (path) => {
        seen = path;
        expect(modeOf(path)).toBe(0o600);
        expect(modeOf(join(path, '..'))).toBe(0o700);
        expect(modeOf(root)).toBe(0o700);
        expect(path.startsWith(join(root, `${process.pid}-`))).toBe(true);
      },
      fail,
      { root },
    );
    expect(existsSync(seen)).toBe(false);
  });

  it('left by a crashed process are swept; those of a live process and of this one stay', async () => {
    for (const name of ['999999-aaaaaa', '424242-bbbbbb', `${process.pid}-cccccc`]) {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(join(root, name, 'document.pdf'), 'Jane Doe, 1 Main St');
    }
    const removed = await sweepSpoolTemp({ root, isAlive: (pid) => pid === 424242 });
    expect(removed).toBe(1);
    expect(readdirSync(root).sort()).toEqual(['424242-bbbbbb', `${process.pid}-cccccc`].sort());
  });
});

describe('agent start', () => {
  let station: Station;
  afterEach(async () => station?.close());

  it('sweeps label temp files a crash left behind', async () => {
    // A process id that cannot be alive (above the kernel's pid_max).
    const left = join(defaultSpoolTempRoot(), '4194305-crash1');
    mkdirSync(left, { recursive: true });
    writeFileSync(join(left, 'document.pdf'), 'Jane Doe, 1 Main St');
    station = await startStation();
    await station.start();
    expect(existsSync(left)).toBe(false);
    expect(station.lines.some((l) => /^removed \d+ label temp file\(s\) left by an earlier run$/.test(l))).toBe(true);
  });
});
