/**
 * A port the agent cannot bind, said in the words of the option that asked for it. Node's
 * `listen EADDRINUSE: address already in use 127.0.0.1:8600` names neither the option
 * (`--ui-port`, `--webhook-port`, `--metrics-port`) nor what to do; this does both.
 */
import { CodedError } from '../errors';

export class PortUnavailableError extends CodedError {
  constructor(message: string, options?: ErrorOptions) {
    super('PORT_UNAVAILABLE', message, options);
  }
}

/** The options that take a port on this command line, and what each was given (null: not given). */
export type PortOptions = Readonly<Record<string, number | null | undefined>>;

/**
 * The error to show for a failed bind: a PortUnavailableError naming the option(s) given that
 * port, or the error itself when it is not a bind failure of one of them.
 */
export function portError(error: unknown, ports: PortOptions): unknown {
  const failure = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (failure?.syscall !== 'listen' || (failure.code !== 'EADDRINUSE' && failure.code !== 'EACCES')) return error;
  const port = failure.port;
  const options = Object.entries(ports)
    .filter(([, value]) => value != null && value === port)
    .map(([name]) => name);
  const where = failure.address ? `${failure.address}:${port}` : `port ${port}`;
  if (options.length > 1) {
    return new PortUnavailableError(`${options.join(' and ')} both ask for port ${port}: give each its own port (0 = any free one)`, {
      cause: error,
    });
  }
  const option = options[0] ?? 'a port option';
  if (failure.code === 'EACCES') {
    return new PortUnavailableError(
      `${option} ${port}: this user may not listen on ${where} (ports below 1024 need administrator rights): pick one from 1024 up with ${option} N (0 = any free one)`,
      { cause: error },
    );
  }
  return new PortUnavailableError(
    `${option} ${port}: ${where} is already in use (another program, or another agent, listens there): stop it, or pick another port with ${option} N (0 = any free one)`,
    { cause: error },
  );
}
