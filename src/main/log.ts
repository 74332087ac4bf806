/**
 * One-line log output for the agent. Secrets registered with `redact` are replaced
 * wherever they appear, so an API key that leaks into an error message from a lower
 * layer still never reaches a log line.
 */
export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Never print this value; replace it with `***`. */
  redact(secret: string): void;
}

export interface LoggerOptions {
  /** Where lines go. @default process.stderr */
  readonly write?: (line: string) => void;
  /** Prefix each line with an ISO timestamp. @default true */
  readonly timestamps?: boolean;
  /** Lowest level written. @default 'info' */
  readonly level?: LogLevel;
  /** Also gets each line, after redaction (the rotating file, src/main/log-file.ts). @default none */
  readonly sink?: (level: LogLevel, message: string) => void;
}

const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };

export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const timestamps = options.timestamps ?? true;
  const minimum = RANK[options.level ?? 'info'];
  const secrets = new Set<string>();

  const emit = (level: LogLevel, message: string): void => {
    if (RANK[level] < minimum) return;
    let line = message;
    for (const secret of secrets) line = line.split(secret).join('***');
    const tag = level === 'info' ? '' : `${level.toUpperCase()} `;
    write(timestamps ? `${new Date().toISOString()} ${tag}${line}` : `${tag}${line}`);
    options.sink?.(level, line);
  };

  return {
    info: (m) => emit('info', m),
    warn: (m) => emit('warn', m),
    error: (m) => emit('error', m),
    // Short values would redact ordinary words; keys are long.
    redact: (secret) => {
      if (secret.length >= 6) secrets.add(secret);
    },
  };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, redact() {} };
