/**
 * The rotating log file in the data directory (`<dataDir>/logs/agent.log`, then
 * agent.1.log … agent.4.log, oldest last). The logger hands it lines after redaction
 * (src/main/log.ts `sink`), so the API key and webhook secrets never reach the disk.
 * Writes are synchronous appends to a file kept open, one write a line: a line written
 * just before a crash is the one support needs. The file is opened again after a rotation,
 * and when someone else renamed or removed it (checked at the first line of each event-loop turn).
 * Lines that cannot be written (a full disk) are kept, up to `backlogLines`, and written
 * with their own times before the next line that can be.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeDirSync } from './fs/make-dir';
import type { LogLevel } from './log';

export const DEFAULT_LOG_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_LOG_MAX_FILES = 5;
export const LOG_FILE_NAME = 'agent.log';

export interface LogFileOptions {
  /** The folder: `<dataDir>/logs`. Created 0700 (macOS/Linux). */
  readonly dir: string;
  /** Rotate before a file grows past this many bytes. @default 2 MiB (DEFAULT_LOG_MAX_BYTES) */
  readonly maxBytes?: number;
  /** Files kept, the current one included. @default 5 (DEFAULT_LOG_MAX_FILES) */
  readonly maxFiles?: number;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** Told once when the file cannot be written (the log must never stop the agent). @default stderr */
  readonly onError?: (error: Error) => void;
  /**
   * Lines kept while the file cannot be written (its disk is full), written with their own
   * times, before the next line, once it can: the line saying why the station stopped is
   * the one that most needs to reach the file. The oldest go beyond this, counted.
   * @default 200
   */
  readonly backlogLines?: number;
}

export interface LogFile {
  /** The current file. */
  readonly path: string;
  /** One structured line: `ISO-time LEVEL message`. Control characters are escaped to keep one entry per line. */
  write(level: LogLevel, message: string): void;
  /** Releases the open file (tests, a second agent in one process); the next line opens it again. */
  close(): void;
}

/** `agent.log` is file 0; rotated ones are `agent.N.log`. */
export function logFilePath(dir: string, index: number): string {
  return path.join(dir, index === 0 ? LOG_FILE_NAME : LOG_FILE_NAME.replace(/\.log$/, `.${index}.log`));
}

// Control characters would split an entry or hide text in a terminal.
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's whole purpose
const CONTROL = /[\u0000-\u001f\u007f]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeControl = (text: string): string =>
  text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function createLogFile(options: LogFileOptions): LogFile {
  const maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_LOG_MAX_BYTES);
  const maxFiles = Math.max(1, options.maxFiles ?? DEFAULT_LOG_MAX_FILES);
  const now = options.now ?? (() => new Date());
  const current = logFilePath(options.dir, 0);
  let failed = false;
  const backlogMax = Math.max(0, options.backlogLines ?? 200);
  /** Lines not written yet (the file could not be written), oldest first, and how many were dropped. */
  let backlog: Uint8Array[] = [];
  let dropped = 0;
  /** The first backlog chunk is the rest of a line the file holds the start of. */
  let headPartial = false;
  const report = options.onError ?? ((error: Error) => process.stderr.write(`log file ${current}: ${error.message}\n`));

  makeDirSync(options.dir, { mode: 0o700 });
  let size = fs.existsSync(current) ? fs.statSync(current).size : 0;
  // A folder or file left by an older version (or a copy) may be wider: narrow them.
  if (process.platform !== 'win32') {
    fs.chmodSync(options.dir, 0o700);
    if (size > 0) fs.chmodSync(current, 0o600);
  }

  // The file stays open between lines: one write a line instead of open, write and close
  // (a third of the log's cost in a burst; docs/BENCHMARKS.md). Each line still
  // reaches the operating system at once, as before: a crash of the agent loses none.
  let fd: number | null = null;
  let opened: fs.Stats | null = null;
  // Whether agent.log is still the file held open was checked in this event-loop turn.
  let checked = false;

  const open = (): number => {
    // mode applies when the file is created: a new file is 0600 from its first byte.
    const handle = fs.openSync(current, 'a', 0o600);
    try {
      opened = fs.fstatSync(handle);
    } catch (error) {
      fs.closeSync(handle);
      throw error;
    }
    size = opened.size;
    fd = handle;
    return handle;
  };
  const close = (): void => {
    if (fd === null) return;
    const handle = fd;
    fd = null;
    opened = null;
    fs.closeSync(handle);
  };
  // Someone else (logrotate, support, a cleanup) may have renamed or removed agent.log:
  // lines would go on into that file. Checked once a turn, at the turn's first line.
  const stillCurrent = (): boolean => {
    if (checked || opened === null) return true;
    checked = true;
    setImmediate(() => (checked = false)).unref();
    const seen = fs.statSync(current, { throwIfNoEntry: false });
    return seen !== undefined && seen.ino === opened.ino && seen.dev === opened.dev;
  };

  const rotate = (): void => {
    close();
    fs.rmSync(logFilePath(options.dir, maxFiles - 1), { force: true });
    for (let i = maxFiles - 2; i >= 0; i--) {
      const from = logFilePath(options.dir, i);
      if (fs.existsSync(from)) fs.renameSync(from, logFilePath(options.dir, i + 1));
    }
    size = 0;
  };

  return {
    path: current,
    write(level, message) {
      const line = Buffer.from(`${now().toISOString()} ${level.toUpperCase().padEnd(5)} ${escapeControl(message)}\n`);
      const note: Uint8Array[] =
        dropped > 0
          ? [
              Buffer.from(
                `${now().toISOString()} WARN  log file: ${dropped} line(s) could not be written (the disk was full or not writable) and are lost\n`,
              ),
            ]
          : [];
      const pending: Uint8Array[] = [...backlog, ...note, line];
      let partial = false;
      let done = 0;
      try {
        if (fd !== null && !stillCurrent()) close();
        for (; done < pending.length; done++) {
          let chunk = pending[done]!;
          // Whether the file already holds the start of this chunk's line.
          partial = done === 0 && headPartial;
          let handle = fd ?? open();
          if (size > 0 && size + chunk.length > maxBytes) {
            rotate();
            handle = open();
          }
          // A nearly full disk takes part of a line: the rest follows, or waits in the backlog.
          while (chunk.length > 0) {
            const wrote = fs.writeSync(handle, chunk);
            size += wrote;
            chunk = chunk.subarray(wrote);
            pending[done] = chunk;
            if (wrote > 0) partial = true;
          }
        }
        backlog = [];
        headPartial = false;
        dropped = 0;
        failed = false;
      } catch (error) {
        // Kept for the next line that can be written, in order; the oldest go first when full.
        if (note.length > 0 && done > backlog.length) dropped = 0; // the note on the lost lines went out
        const rest = pending.slice(done).filter((chunk) => !note.includes(chunk));
        // The rest of a line the file already holds the start of is always kept: it ends that line.
        const head = partial ? rest.splice(0, 1) : [];
        const kept = backlogMax > 0 ? rest.slice(-backlogMax) : [];
        dropped += rest.length - kept.length;
        backlog = [...head, ...kept];
        headPartial = partial;
        // Open again at the next line: the failure may have left the handle unusable.
        try {
          close();
        } catch {
          // Already unusable; nothing more to release.
        }
        if (!failed) report(error as Error);
        failed = true;
      }
    },
    close,
  };
}

/** The last `count` lines over the current and rotated files, oldest first (for diagnostics). */
export function readLogTail(dir: string, count: number, maxFiles: number = DEFAULT_LOG_MAX_FILES): string[] {
  const lines: string[] = [];
  for (let i = 0; i < maxFiles && lines.length < count; i++) {
    let text: string;
    try {
      text = fs.readFileSync(logFilePath(dir, i), 'utf8');
    } catch {
      continue;
    }
    const fileLines = text.split('\n').filter((l) => l !== '');
    lines.unshift(...fileLines.slice(-(count - lines.length)));
  }
  return lines;
}
