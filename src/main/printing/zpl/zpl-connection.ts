/**
 * One TCP connection to a ZPL printer's raw port (9100): questions (`~HS`, `~HI`, answered
 * with STX…ETX framed strings on the same socket) and the labels themselves.
 */
import net from 'node:net';
import { framedStrings } from './zpl-status';

/** Why a connection could not be used; `sent` says whether any label byte may have reached the printer. */
export class ZplConnectionError extends Error {
  constructor(
    message: string,
    readonly sent: boolean,
    readonly reason: 'refused' | 'timeout' | 'closed' | 'error',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ZplConnectionError';
  }
}

export interface ZplConnectOptions {
  readonly host: string;
  readonly port: number;
  /** Connecting may take this long. */
  readonly timeoutMs: number;
  /** Each answer may take this long (a printer answers in milliseconds). @default timeoutMs */
  readonly answerTimeoutMs?: number;
}

/** More than any ~HS or ~HI answer. */
const MAX_ANSWER_BYTES = 64 * 1024;

export class ZplConnection {
  private buffered: Uint8Array = new Uint8Array(0);
  private waiter: (() => void) | null = null;
  private failure: ZplConnectionError | null = null;
  private wrote = false;
  /** The printer closed its side in order (FIN): it had read everything that had reached it. */
  private peerEnded = false;

  private constructor(
    private readonly socket: net.Socket,
    private readonly timeoutMs: number,
  ) {
    socket.on('data', (chunk: Buffer) => {
      // Answers are a few hundred bytes: a device that keeps talking is not a ZPL printer.
      if (this.buffered.length + chunk.length > MAX_ANSWER_BYTES) {
        this.failure ??= new ZplConnectionError('the device sent more than a ZPL printer answers', this.wrote, 'error');
        socket.destroy();
        this.waiter?.();
        return;
      }
      const joined = new Uint8Array(this.buffered.length + chunk.length);
      joined.set(this.buffered);
      joined.set(chunk, this.buffered.length);
      this.buffered = joined;
      this.waiter?.();
    });
    const fail = (error: ZplConnectionError): void => {
      this.failure ??= error;
      this.waiter?.();
    };
    socket.on('error', (error) => fail(new ZplConnectionError(error.message, this.wrote, 'error', { cause: error })));
    socket.on('end', () => {
      this.peerEnded = true;
    });
    socket.on('close', () => fail(new ZplConnectionError('the printer closed the connection', this.wrote, 'closed')));
  }

  static open(options: ZplConnectOptions): Promise<ZplConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: options.host, port: options.port, noDelay: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ZplConnectionError(`no connection within ${options.timeoutMs} ms`, false, 'timeout'));
      }, options.timeoutMs);
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const refused = error.code === 'ECONNREFUSED';
        reject(
          new ZplConnectionError(refused ? 'connection refused' : error.message, false, refused ? 'refused' : 'error', { cause: error }),
        );
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new ZplConnection(socket, options.answerTimeoutMs ?? options.timeoutMs));
      });
    });
  }

  /** Whether the connection can still be used (no error, not closed). */
  get usable(): boolean {
    return this.failure === null;
  }

  /** Sends a tilde command and waits for `frames` framed strings in answer, `waitMs` at most (@default the answer timeout). */
  async ask(command: string, frames: number, waitMs = this.timeoutMs): Promise<string[]> {
    this.buffered = new Uint8Array(0);
    await this.write(command);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { strings } = framedStrings(this.buffered);
      if (strings.length >= frames) {
        this.buffered = new Uint8Array(0);
        return strings.slice(0, frames);
      }
      if (this.failure) throw this.failure;
      const left = deadline - Date.now();
      if (left <= 0) throw new ZplConnectionError(`no answer to ${command} within ${waitMs} ms`, this.wrote, 'timeout');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
  }

  /**
   * Whether the printer broke the connection off (a reset, not an orderly close) after label
   * bytes were written: a device that closes with bytes it has not read resets the
   * connection, so some of the labels may never have reached it.
   */
  get brokeOffAfterLabels(): boolean {
    return this.wrote && !this.peerEnded && this.failure !== null && this.failure.reason === 'error';
  }

  /**
   * Writes and waits until the bytes are handed to the operating system, `deadlineMs` at most
   * (@default no deadline): a printer that stops reading fills the socket's buffers and the
   * write never finishes, so the connection is dropped at the deadline.
   */
  write(data: string | Uint8Array, labels = false, deadlineMs?: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (labels) this.wrote = true;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    const before = this.socket.bytesWritten;
    return new Promise((resolve, reject) => {
      const timer =
        deadlineMs === undefined
          ? null
          : setTimeout(() => {
              const handed = Math.max(0, this.socket.bytesWritten - before - this.socket.writableLength);
              const error = new ZplConnectionError(
                `the printer stopped taking data: ${handed} of ${bytes.length} bytes handed over in ${deadlineMs} ms`,
                this.wrote,
                'timeout',
              );
              this.failure ??= error;
              this.socket.destroy();
              reject(error);
            }, deadlineMs);
      this.socket.write(bytes, (error) => {
        if (timer) clearTimeout(timer);
        if (error) reject(new ZplConnectionError(error.message, this.wrote, 'error', { cause: error }));
        else resolve();
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.end(() => resolve());
      setTimeout(() => {
        this.socket.destroy();
        resolve();
      }, 1000).unref();
    });
  }
}
