/**
 * One agent per data directory. SQLite's exclusive locking mode alone proved unreliable
 * here (a second process could still open a WAL ledger about one time in five), so the
 * ledger also holds a lock file: created atomically (`wx`) with the owner's process id.
 * A live owner means "locked"; a dead one (a crash, SIGKILL) left a stale file that the
 * next agent takes over.
 */
import fs from 'node:fs';
import { processAlive } from '../process-alive';

/** A write that failed for lack of room (the disk or the quota is full). */
const NO_ROOM: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

/** Lock files this process holds: a second open here is refused, a stale one of an earlier process with our pid is not. */
const heldHere = new Set<string>();

export type LockResult = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly ownerPid: number };

export function acquireLedgerLock(lockPath: string): LockResult {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      try {
        fs.writeSync(fd, String(process.pid));
      } catch (error) {
        // A full disk still lets the file be created (an inode, no block): the lock is held,
        // without the pid, like one a crash left between create and write. SQLite's exclusive
        // lock still keeps a second agent out; a start on a full disk must not fail here.
        if (!NO_ROOM.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      } finally {
        fs.closeSync(fd);
      }
      heldHere.add(lockPath);
      return {
        ok: true,
        release: () => {
          heldHere.delete(lockPath);
          fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(readOwner(lockPath), 10);
    const ownedHere = owner === process.pid && heldHere.has(lockPath);
    if (ownedHere || (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner))) {
      return { ok: false, ownerPid: owner };
    }
    // Stale: its process is gone. Remove it and try again (another agent may win the race).
    fs.rmSync(lockPath, { force: true });
  }
  return { ok: false, ownerPid: Number.parseInt(readOwner(lockPath), 10) || 0 };
}

function readOwner(lockPath: string): string {
  try {
    return fs.readFileSync(lockPath, 'utf8').trim();
  } catch {
    return '';
  }
}
