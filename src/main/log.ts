import { escapeControls, MAX_LOG_LINE } from './log-text';
import { maskSecret } from './secret-mask';

/**
 * One-line log output for the agent. Secrets registered with `redact` are replaced
 * wherever they appear, so an API key that leaks into an error message from a lower
 * layer still never reaches a log line. Every line is one line: control characters are
 * escaped and the line is capped (MAX_LOG_LINE), whatever outside text it carries.
 */
export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Never print this value; replace it with `***`, as a whole value (secret-mask.ts). */
  redact(secret: string): void;
}

export interface LoggerOptions {
  /** Where lines go, one call a line. @default process.stderr, the lines of one event-loop turn in one write (stderrLines) */
  readonly write?: (line: string) => void;
  /** Prefix each line with an ISO timestamp. @default true */
  readonly timestamps?: boolean;
  /** Lowest level written. @default 'info' */
  readonly level?: LogLevel;
  /** Also gets each line, after redaction (the rotating file, src/main/log-file.ts). @default none */
  readonly sink?: (level: LogLevel, message: string) => void;
  /** Rewords each message before anything else (the headless agent's words, src/main/headless-words.ts). @default unchanged */
  readonly reword?: (message: string) => string;
}

const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };

export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write ?? stderrLines;
  const timestamps = options.timestamps ?? true;
  const minimum = RANK[options.level ?? 'info'];
  const secrets = new Set<string>();

  const emit = (level: LogLevel, message: string): void => {
    if (RANK[level] < minimum) return;
    // Redact before cutting: a cut through a key would leave its first characters behind.
    // Only a bounded head of a huge message is ever processed; the final cut is well inside it.
    const worded = options.reword ? options.reword(message) : message;
    let line = worded.length > MAX_LOG_LINE * 4 ? worded.slice(0, MAX_LOG_LINE * 4) : worded;
    for (const secret of secrets) line = maskSecret(line, secret);
    line = escapeControls(line);
    if (line.length > MAX_LOG_LINE || worded.length > MAX_LOG_LINE * 4) {
      line = `${line.slice(0, MAX_LOG_LINE)}…(+${Math.max(1, worded.length - MAX_LOG_LINE)} chars)`;
    }
    const tag = level === 'info' ? '' : `${level.toUpperCase()} `;
    write(timestamps ? `${new Date().toISOString()} ${tag}${line}` : `${tag}${line}`);
    options.sink?.(level, line);
  };

  return {
    info: (m) => emit('info', m),
    warn: (m) => emit('warn', m),
    error: (m) => emit('error', m),
    // Even a short key is redacted, where it stands as a value of its own (secret-mask.ts).
    redact: (secret) => {
      if (secret.length > 0) secrets.add(secret);
    },
  };
}

/** Lines waiting for the end of this event-loop turn. */
let stderrPending: string[] = [];
let stderrBytes = 0;
let stderrHooked = false;
const STDERR_FLUSH_BYTES = 64 * 1024;

/**
 * The default writer: a line goes to stderr with the others of the same event-loop turn,
 * in one write at its end (at once past 64 KiB, and on exit). A burst logs five or six
 * lines a label; one pipe write each, to a reader as busy as the agent, cost more than the
 * label's ledger work (docs/BENCHMARKS.md). A line is out a turn later, a few
 * milliseconds at most; only a SIGKILL can lose that turn's lines (the rotating log file,
 * src/main/log-file.ts, still writes each line at once).
 */
function stderrLines(line: string): void {
  if (!stderrHooked) {
    stderrHooked = true;
    process.on('exit', flushStderr);
  }
  if (stderrPending.length === 0) setImmediate(flushStderr).unref();
  stderrPending.push(`${line}\n`);
  stderrBytes += line.length + 1;
  if (stderrBytes >= STDERR_FLUSH_BYTES) flushStderr();
}

function flushStderr(): void {
  if (stderrPending.length === 0) return;
  const text = stderrPending.join('');
  stderrPending = [];
  stderrBytes = 0;
  process.stderr.write(text);
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, redact() {} };
