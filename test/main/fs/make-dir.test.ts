import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAKE_DIR_ERROR_CODES, MakeDirError, makeDir, makeDirSync } from '../../../src/main/fs/make-dir';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-make-dir-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const both = [
  ['makeDir', (d: string, mode?: number) => makeDir(d, { mode })],
  ['makeDirSync', async (d: string, mode?: number) => makeDirSync(d, { mode })],
] as const;

describe.each(both)('%s', (_name, make) => {
  it('creates every missing level with the mode asked for, and accepts an existing folder', async () => {
    const deep = join(dir, 'a', 'b', 'c');
    await make(deep, 0o700);
    for (const level of [join(dir, 'a'), join(dir, 'a', 'b'), deep]) {
      const s = await stat(level);
      expect(s.isDirectory()).toBe(true);
      if (process.platform !== 'win32') expect(s.mode & 0o777).toBe(0o700);
    }
    await make(deep);
  });

  it("refuses at once where the parent takes no new folders (procfs), where Node's recursive mkdir loops forever", async () => {
    const error = await make('/proc/x/y').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MakeDirError);
    expect((error as MakeDirError).code).toBe(MAKE_DIR_ERROR_CODES.CANNOT_CREATE);
    expect((error as MakeDirError).sysCode).toBe('ENOENT');
    expect((error as Error).message).toBe(
      'Cannot create the folder /proc/x/y: /proc does not take new folders (ENOENT). Choose a folder on an ordinary disk.',
    );
  });

  it('names a file standing in the way', async () => {
    await writeFile(join(dir, 'f'), 'x');
    const error = await make(join(dir, 'f', 'sub')).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as MakeDirError).code).toBe(MAKE_DIR_ERROR_CODES.NOT_A_DIRECTORY);
    expect((error as Error).message).toContain(`${join(dir, 'f')} (on the way to ${join(dir, 'f', 'sub')}) is a file`);
  });
});
