import { readdirSync, readlinkSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/log';
import { createLogFile, logFilePath, readLogTail } from '../../../src/main/log-file';

const posix = process.platform !== 'win32';
const linux = process.platform === 'linux';
/** The files this process holds open under `logs` (Linux: /proc/self/fd). */
const openFiles = (logs: string): string[] =>
  readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(`${logs}/`))
    .map((target) => target.slice(logs.length + 1))
    .sort();
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const AT = new Date('2026-11-24T05:00:00.000Z');
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'print-station-logfile-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createLogFile', () => {
  it('writes one structured line per entry: ISO time, level, message, control characters escaped', async () => {
    const file = createLogFile({ dir: join(dir, 'logs'), now: () => AT });
    file.write('info', 'connected: team A');
    file.write('error', 'line one\nline two\ttab\u0007bell');
    expect(await readFile(file.path, 'utf8')).toBe(
      '2026-11-24T05:00:00.000Z INFO  connected: team A\n' + '2026-11-24T05:00:00.000Z ERROR line one\\nline two\\ttab\\u0007bell\n',
    );
  });

  it.runIf(posix)('creates the folder 0700 and the files 0600, also a folder and file that existed with wider rights', async () => {
    const logs = join(dir, 'logs');
    await mkdir(logs, { mode: 0o755 });
    await chmod(logs, 0o755);
    await writeFile(join(logs, 'agent.log'), 'old line\n', { mode: 0o644 });
    await chmod(join(logs, 'agent.log'), 0o644);
    const file = createLogFile({ dir: logs, maxBytes: 60, maxFiles: 3, now: () => AT });
    for (let i = 0; i < 5; i++) file.write('info', `entry ${i} padded to be long enough`);
    expect((await stat(logs)).mode & 0o777).toBe(0o700);
    for (const name of await readdir(logs)) expect((await stat(join(logs, name))).mode & 0o777).toBe(0o600);
  });

  it('rotates by size: agent.log, agent.1.log … keeping maxFiles, oldest dropped, no file over the cap', async () => {
    const logs = join(dir, 'logs');
    const file = createLogFile({ dir: logs, maxBytes: 100, maxFiles: 3, now: () => AT });
    // Each line is 25 (time) + 6 (level) + 9 (message) + 1 = 41 bytes: two per file.
    for (let i = 0; i < 9; i++) file.write('info', `entry-00${i}`);
    expect((await readdir(logs)).sort()).toEqual(['agent.1.log', 'agent.2.log', 'agent.log']);
    for (const name of await readdir(logs)) expect((await stat(join(logs, name))).size).toBeLessThanOrEqual(100);
    const entries = async (i: number) => (await readFile(logFilePath(logs, i), 'utf8')).match(/entry-\d+/g);
    expect(await entries(0)).toEqual(['entry-008']);
    expect(await entries(1)).toEqual(['entry-006', 'entry-007']);
    expect(await entries(2)).toEqual(['entry-004', 'entry-005']);
  });

  it('continues the size of an existing file after a restart', async () => {
    const logs = join(dir, 'logs');
    createLogFile({ dir: logs, maxBytes: 100, now: () => AT }).write('info', 'entry-001');
    const again = createLogFile({ dir: logs, maxBytes: 100, now: () => AT });
    again.write('info', 'entry-002');
    again.write('info', 'entry-003');
    expect((await readFile(logFilePath(logs, 1), 'utf8')).match(/entry-\d+/g)).toEqual(['entry-001', 'entry-002']);
    expect((await readFile(logFilePath(logs, 0), 'utf8')).match(/entry-\d+/g)).toEqual(['entry-003']);
  });

  it('reports a write failure once and never throws into the agent', async () => {
    const logs = join(dir, 'logs');
    const errors: Error[] = [];
    const file = createLogFile({ dir: logs, onError: (e) => errors.push(e) });
    await rm(logs, { recursive: true });
    await writeFile(logs, 'a file where the folder was');
    expect(() => {
      file.write('info', 'a');
      file.write('info', 'b');
    }).not.toThrow();
    expect(errors).toHaveLength(1);
  });
});

describe('createLogFile: the file kept open', () => {
  it.runIf(linux)('holds agent.log open between lines, and after its own rotation holds the new agent.log only', async () => {
    const logs = join(dir, 'logs');
    const file = createLogFile({ dir: logs, maxBytes: 100, maxFiles: 3, now: () => AT });
    expect(openFiles(logs)).toEqual([]);
    file.write('info', 'entry-000');
    file.write('info', 'entry-001');
    expect(openFiles(logs)).toEqual(['agent.log']);
    const before = (await stat(file.path)).ino;
    file.write('info', 'entry-002'); // rotates: agent.log becomes agent.1.log
    expect(openFiles(logs)).toEqual(['agent.log']);
    expect((await stat(file.path)).ino).not.toBe(before);
    expect((await stat(logFilePath(logs, 1))).ino).toBe(before);
    for (let i = 3; i < 9; i++) file.write('info', `entry-00${i}`);
    expect(openFiles(logs)).toEqual(['agent.log']);
    expect((await readFile(file.path, 'utf8')).match(/entry-\d+/g)).toEqual(['entry-008']);
    file.close();
    expect(openFiles(logs)).toEqual([]);
    file.write('info', 'entry-009'); // a line after close() opens the file again
    expect((await readFile(file.path, 'utf8')).match(/entry-\d+/g)).toEqual(['entry-008', 'entry-009']);
    file.close();
  });

  it('a line is in the file as soon as write() returns (nothing waits in the process)', async () => {
    const file = createLogFile({ dir: join(dir, 'logs'), now: () => AT });
    for (let i = 0; i < 3; i++) {
      file.write('info', `entry-00${i}`);
      expect((await readFile(file.path, 'utf8')).match(/entry-\d+/g)).toHaveLength(i + 1);
    }
    file.close();
  });

  it('opens agent.log again when someone else renamed it (logrotate), from the next event-loop turn', async () => {
    const logs = join(dir, 'logs');
    const file = createLogFile({ dir: logs, maxBytes: 100, maxFiles: 3, now: () => AT });
    file.write('info', 'entry-000');
    await rename(file.path, join(logs, 'agent.log.outside'));
    await nextTurn();
    file.write('info', 'entry-001');
    file.write('info', 'entry-002');
    expect((await readFile(join(logs, 'agent.log.outside'), 'utf8')).match(/entry-\d+/g)).toEqual(['entry-000']);
    expect((await readFile(file.path, 'utf8')).match(/entry-\d+/g)).toEqual(['entry-001', 'entry-002']);
    // The size counts from the new file: the third line of the new file rotates it, not the second.
    file.write('info', 'entry-003');
    expect((await readFile(file.path, 'utf8')).match(/entry-\d+/g)).toEqual(['entry-003']);
    if (linux) expect(openFiles(logs)).toEqual(['agent.log']);
    file.close();
  });

  it.runIf(posix)('creates agent.log again, 0600, when someone else removed it', async () => {
    const logs = join(dir, 'logs');
    const file = createLogFile({ dir: logs, now: () => AT });
    file.write('info', 'entry-000');
    await rm(file.path);
    await nextTurn();
    file.write('info', 'entry-001');
    expect((await readFile(file.path, 'utf8')).match(/entry-\d+/g)).toEqual(['entry-001']);
    expect((await stat(file.path)).mode & 0o777).toBe(0o600);
    if (linux) expect(openFiles(logs)).toEqual(['agent.log']);
    file.close();
  });

  it('rotation by size stays exact when lines go into the open file: no file over the cap, none missing', async () => {
    const logs = join(dir, 'logs');
    const file = createLogFile({ dir: logs, maxBytes: 130, maxFiles: 4, now: () => AT });
    // 41-byte lines: three a file (123 bytes), the fourth starts a new one.
    for (let i = 0; i < 11; i++) file.write('info', `entry-0${String(i).padStart(2, '0')}`.slice(0, 9));
    const sizes = await Promise.all([0, 1, 2, 3].map(async (i) => (await stat(logFilePath(logs, i))).size));
    expect(sizes).toEqual([82, 123, 123, 123]);
    expect(readLogTail(logs, 100, 4)).toHaveLength(11);
    file.close();
  });
});

describe('the logger with the file sink', () => {
  it('writes redacted lines: a registered secret never reaches the file', async () => {
    const file = createLogFile({ dir: join(dir, 'logs') });
    const log = createLogger({ write: () => undefined, sink: file.write });
    log.redact('sk_live_SECRET_abcdef');
    log.error('the service said: bad key sk_live_SECRET_abcdef');
    const text = await readFile(file.path, 'utf8');
    expect(text).toMatch(/ ERROR the service said: bad key \*\*\*\n$/);
    expect(text).not.toContain('SECRET');
  });
});

describe('readLogTail', () => {
  it('returns the last lines across rotated files, oldest first', () => {
    const logs = join(dir, 'logs');
    const file = createLogFile({ dir: logs, maxBytes: 100, maxFiles: 5, now: () => AT });
    for (let i = 0; i < 7; i++) file.write('info', `entry-00${i}`);
    expect(readLogTail(logs, 3).map((l) => l.slice(-9))).toEqual(['entry-004', 'entry-005', 'entry-006']);
    expect(readLogTail(logs, 100)).toHaveLength(7);
    expect(readLogTail(join(dir, 'none'), 10)).toEqual([]);
  });
});
