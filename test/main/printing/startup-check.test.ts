import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderTarget, type FolderFs } from '../../../src/main/printing/folder/folder-target';
import { checkPrinterAtStart } from '../../../src/main/printing/startup-check';

/** At start, a folder printer that is only down (full disk, share gone) warns; one set up wrong stops the start. */
describe('checkPrinterAtStart for a folder printer', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ps-start-check-'));
  });
  afterEach(async () => fs.rm(tmp, { recursive: true, force: true }));

  it('warns, and lets the agent start, when the folder is on a full disk', async () => {
    const fullFs: FolderFs = { ...fs, statfs: (async () => ({ bavail: 0, bsize: 4096 })) as unknown as FolderFs['statfs'] };
    const target = new FolderTarget({ uri: `folder:${tmp}`, dir: tmp, fs: fullFs });
    expect(await checkPrinterAtStart(target)).toEqual({
      fatal: null,
      warning: `printer folder:${tmp} is not ready: The disk holding ${tmp} is full: free some space or choose another folder. Its labels wait for it.`,
    });
  });

  it('warns when the disk or share holding the folder fails its I/O', async () => {
    const brokenFs: FolderFs = {
      ...fs,
      open: async () => {
        throw Object.assign(new Error('EIO: simulated'), { code: 'EIO' });
      },
    };
    const check = await checkPrinterAtStart(new FolderTarget({ uri: `folder:${tmp}`, dir: tmp, fs: brokenFs }));
    expect(check.fatal).toBeNull();
    expect(check.warning).toMatch(/is not ready: Print Station cannot reach .* \(EIO\)/);
  });

  it('stops the start when a file stands where the folder should be', async () => {
    const file = path.join(tmp, 'prints');
    await fs.writeFile(file, 'in the way');
    const check = await checkPrinterAtStart(new FolderTarget({ uri: `folder:${file}`, dir: file }));
    expect(check.warning).toBeNull();
    expect(check.fatal).toMatch(/is not a folder \(a file is in the way\)/);
  });
});
