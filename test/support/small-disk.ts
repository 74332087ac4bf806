import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A small real file system (tmpfs) that a test can fill up and empty again: a disk that is
 * full for SQLite, for a folder printer, for everything on it. Mounting needs root (the
 * development machine and CI run as root); `smallDiskUnavailable()` says why it cannot be
 * had, so a test can skip with that reason instead of passing on a fake.
 */
export interface SmallDisk {
  /** The mount point: put the ledger or the folder printer's folder under it. */
  readonly dir: string;
  /** Writes a filler file until the disk says ENOSPC. */
  fill(): void;
  /** Removes the filler: the disk has room again. */
  empty(): void;
  /** Remounts it read-only (a share gone read-only, a disk the kernel protects after errors) or writable again. */
  readOnly(on: boolean): void;
  /** Bytes free right now (statfs). */
  freeBytes(): number;
  /** Unmounts and removes the mount point. */
  close(): void;
}

let probed: string | null | undefined;

/** Null when a tmpfs can be mounted here; else the reason it cannot (not root, no mount). */
export function smallDiskUnavailable(): string | null {
  if (probed !== undefined) return probed;
  try {
    const disk = mountSmallDisk(64 * 1024);
    disk.close();
    probed = null;
  } catch (error) {
    probed = `cannot mount a tmpfs (needs root): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  return probed;
}

/** Mounts a tmpfs of `bytes` (rounded up to pages by the kernel) on a new temp dir. */
export function mountSmallDisk(bytes: number): SmallDisk {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ps-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmdirSync(dir);
    throw error;
  }
  const filler = path.join(dir, '.filler');
  let mounted = true;
  return {
    dir,
    fill() {
      const chunk = Buffer.alloc(64 * 1024, 1);
      const fd = fs.openSync(filler, 'a');
      try {
        for (;;) {
          try {
            fs.writeSync(fd, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
            // Fill the last partial chunk too, a page at a time.
            for (;;) {
              try {
                fs.writeSync(fd, chunk, 0, 4096);
              } catch {
                return;
              }
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    empty() {
      fs.rmSync(filler, { force: true });
    },
    readOnly(on) {
      execFileSync('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, dir], { stdio: 'pipe' });
    },
    freeBytes() {
      const s = fs.statfsSync(dir);
      return s.bavail * s.bsize;
    },
    close() {
      if (!mounted) return;
      mounted = false;
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
