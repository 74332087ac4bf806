/**
 * A serial (or USB-serial) scale: the port through `serialport` (loaded here, only when a
 * serial scale is configured), lines through LineFramer, their meaning through the URI's
 * protocol. Every conversation has a deadline; a port that closes under us settles `lost`.
 */
import type { SerialPort as SerialPortClass } from 'serialport';
import { SCALE_ERROR_CODES, ScaleError } from './errors';
import { LineFramer } from './line-framer';
import type { ProtocolAnswer, SerialScaleProtocol, WeightCommand } from './protocols/protocol';
import { SERIAL_PROTOCOLS } from './protocols/registry';
import type { ScaleAnswer, ScaleDevice } from './scale-device';
import type { SerialScaleAddress } from './scale-uri';

const isWeightAnswer = (answer: ProtocolAnswer): boolean => answer.kind === 'sample' || answer.kind === 'reply';

type Waiter = { accept: (answer: ProtocolAnswer) => boolean; resolve: (answer: ProtocolAnswer) => void; reject: (error: Error) => void };

async function loadSerialPort(): Promise<typeof SerialPortClass> {
  try {
    return (await import('serialport')).SerialPort;
  } catch (error) {
    throw new ScaleError(
      SCALE_ERROR_CODES.SCALE_DRIVER_UNAVAILABLE,
      `serial scales need the serialport module, which did not load here: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Longest an open may take: a port that neither opens nor fails must not hold the monitor. */
const OPEN_DEADLINE_MS = 3000;

function openWithin(port: SerialPortClass, path: string, deadlineMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new ScaleError(SCALE_ERROR_CODES.SCALE_OPEN_FAILED, `the scale's port ${path} did not open within ${deadlineMs} ms`));
    }, deadlineMs);
    port.open((error) => {
      clearTimeout(timer);
      // Opened after the deadline: nobody holds it any more.
      if (late) return void (error ? undefined : port.close(() => undefined));
      if (error) {
        reject(
          new ScaleError(SCALE_ERROR_CODES.SCALE_OPEN_FAILED, `cannot open the scale's port ${path}: ${error.message}`, { cause: error }),
        );
      } else resolve();
    });
  });
}

export async function openSerialScale(address: SerialScaleAddress): Promise<ScaleDevice> {
  const SerialPort = await loadSerialPort();
  const port = new SerialPort({
    path: address.path,
    baudRate: address.baud,
    dataBits: address.bits,
    parity: address.parity,
    stopBits: 1,
    autoOpen: false,
  });
  await openWithin(port, address.path, OPEN_DEADLINE_MS);
  return new SerialScaleDevice(port, SERIAL_PROTOCOLS[address.protocol], address.path);
}

class SerialScaleDevice implements ScaleDevice {
  readonly lost: Promise<Error>;
  private garbageLines = 0;
  private readonly queue: ProtocolAnswer[] = [];
  private waiter: Waiter | null = null;
  private gone: Error | null = null;
  private closing = false;
  /** Which of the protocol's weight commands is tried, or used once the scale answered it with a weight. */
  private commandIndex = 0;
  private commandChosen = false;
  /** A repeating command was sent and the scale has repeated since: reads wait for its next weight. */
  private repeating = false;

  constructor(
    private readonly port: SerialPortClass,
    private readonly protocol: SerialScaleProtocol,
    private readonly path: string,
  ) {
    const framer = new LineFramer(
      (line) => this.answer(protocol.decode(line)),
      () => this.garbageLines++,
    );
    port.on('data', (chunk: Buffer) => framer.push(chunk));
    // Errors also end in 'close' when the port is gone; the listener keeps them from being thrown.
    port.on('error', () => undefined);
    this.lost = new Promise<Error>((resolve) => {
      port.once('close', (error: Error | null) => {
        const gone = new ScaleError(SCALE_ERROR_CODES.SCALE_LOST, `the scale's port ${path} closed${error ? `: ${error.message}` : ''}`);
        this.gone = gone;
        this.waiter?.reject(gone);
        this.waiter = null;
        resolve(gone);
      });
    });
  }

  get garbage(): number {
    return this.garbageLines;
  }

  /** The command weights are asked with once the scale answered it with a weight; null before, or without commands. */
  get command(): string | null {
    return this.commandChosen ? (this.currentCommand()?.name ?? null) : null;
  }

  get sendsByItself(): boolean {
    const command = this.currentCommand();
    return command === null || command.kind === 'repeat';
  }

  async read(deadlineMs: number): Promise<ScaleAnswer> {
    const command = this.currentCommand();
    // A continuous scale: its next frame, the newest when several wait.
    if (command === null) return (await this.ask(null, isWeightAnswer, deadlineMs, 'a weight', 'newest')) as ScaleAnswer;
    const answer = (await this.readWith(command, deadlineMs)) as ScaleAnswer;
    if (answer.kind === 'sample') this.commandChosen = true;
    else if (!this.commandChosen && this.protocol.isRefusal(answer.text)) return this.refused(command, answer.text);
    return answer;
  }

  async identify(deadlineMs: number): Promise<string | null> {
    const { identityRequest } = this.protocol;
    if (identityRequest === null) return null;
    this.queue.length = 0;
    // A scale that does not know the question says so (ES): then it has no identity to give.
    const answer = await this.ask(
      identityRequest,
      (a) => a.kind === 'identity' || (a.kind === 'reply' && this.protocol.isRefusal(a.text)),
      deadlineMs,
      'its identity',
    );
    return answer.kind === 'identity' && answer.identity.trim() !== '' ? answer.identity.trim() : null;
  }

  async close(): Promise<void> {
    if (this.closing || this.gone) return;
    this.closing = true;
    // A scale left repeating would go on sending to whoever opens the port next.
    const cancel = this.protocol.cancelRequest;
    if (this.repeating && cancel !== null) {
      await Promise.race([this.write(cancel).catch(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, 200).unref())]);
    }
    // A port that broke under us may never call back: its close is not waited for long.
    await Promise.race([
      new Promise<void>((resolve) => this.port.close(() => resolve())),
      new Promise<void>((resolve) => setTimeout(resolve, 1000).unref()),
    ]);
  }

  private currentCommand(): WeightCommand | null {
    return this.protocol.weightCommands[this.commandIndex] ?? null;
  }

  /** One weight by the command tried or chosen. */
  private async readWith(command: WeightCommand, deadlineMs: number): Promise<ProtocolAnswer> {
    const what = `a weight (${command.name})`;
    if (command.kind === 'repeat') {
      const request = this.repeating ? null : command.request;
      // Lines from before the request answer something else.
      if (request !== null) this.queue.length = 0;
      this.repeating = true;
      try {
        return await this.ask(request, isWeightAnswer, deadlineMs, what, 'newest');
      } catch (error) {
        // A scale that stopped repeating (reset, switched off and on) is asked again by the next read.
        this.repeating = false;
        throw error;
      }
    }
    // A demand command's answer belongs to the request just sent: older lines are stale.
    this.queue.length = 0;
    if (command.kind === 'poll') return this.ask(command.request, isWeightAnswer, deadlineMs, what);
    try {
      return await this.ask(command.request, isWeightAnswer, deadlineMs, what);
    } catch (error) {
      const cancel = this.protocol.cancelRequest;
      if ((error as ScaleError).code !== SCALE_ERROR_CODES.SCALE_TIMEOUT || cancel === null) throw error;
      // No answer yet: the load moves (this command answers only once it holds still), or the
      // scale is gone. The cancel's answer tells which, and leaves no late answer in the way.
      this.queue.length = 0;
      await this.ask(cancel, (a) => a.kind !== 'garbage', deadlineMs, `an answer to the cancel of ${command.name}`);
      return { kind: 'sample', sample: { kind: 'unsettled' } };
    }
  }

  /** The scale refused the command tried: the next is tried; a scale that refuses them all cannot weigh. */
  private refused(command: WeightCommand, reply: string): ScaleAnswer {
    this.repeating = false;
    this.commandIndex++;
    if (this.currentCommand() !== null) return { kind: 'reply', text: reply };
    const names = this.protocol.weightCommands.map((c) => c.name).join(', ');
    // From the first again at the next read: the scale may have been busy (EL) rather than unable.
    this.commandIndex = 0;
    return {
      kind: 'sample',
      sample: { kind: 'fault', problem: `the scale refuses every weight command (${names}; ${command.name} answered ${reply})` },
    };
  }

  private answer(answer: ProtocolAnswer): void {
    if (answer.kind === 'garbage') {
      this.garbageLines++;
      return;
    }
    const waiter = this.waiter;
    if (waiter && waiter.accept(answer)) {
      this.waiter = null;
      waiter.resolve(answer);
      return;
    }
    // A continuous scale outruns a slow reader: only the newest few frames matter.
    this.queue.push(answer);
    if (this.queue.length > 8) this.queue.shift();
  }

  /** One conversation: the deadline runs from before the request is written, so a write that never completes is bounded too. */
  private ask(
    request: string | null,
    accept: (answer: ProtocolAnswer) => boolean,
    deadlineMs: number,
    what: string,
    pick: 'oldest' | 'newest' = 'oldest',
  ): Promise<ProtocolAnswer> {
    const answer = this.next(accept, deadlineMs, what, pick);
    if (request !== null) {
      this.write(request).catch((error: Error) => {
        const waiter = this.waiter;
        this.waiter = null;
        waiter?.reject(error);
      });
    }
    return answer;
  }

  private write(text: string): Promise<void> {
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) =>
      this.port.write(text, 'latin1', (error) =>
        error
          ? reject(new ScaleError(SCALE_ERROR_CODES.SCALE_LOST, `cannot write to the scale's port ${this.path}: ${error.message}`))
          : resolve(),
      ),
    );
  }

  /** The first answer `accept` takes; of those already queued, the oldest or (a scale sending unasked) the newest. */
  private next(
    accept: (answer: ProtocolAnswer) => boolean,
    deadlineMs: number,
    what: string,
    pick: 'oldest' | 'newest',
  ): Promise<ProtocolAnswer> {
    if (this.gone) return Promise.reject(this.gone);
    const index = pick === 'newest' ? this.queue.findLastIndex(accept) : this.queue.findIndex(accept);
    if (index !== -1) return Promise.resolve(this.queue.splice(0, index + 1).at(-1)!);
    return new Promise<ProtocolAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.waiter === waiter) this.waiter = null;
        reject(
          new ScaleError(SCALE_ERROR_CODES.SCALE_TIMEOUT, `the scale on ${this.path} sent no answer with ${what} within ${deadlineMs} ms`),
        );
      }, deadlineMs);
      const waiter: Waiter = {
        accept,
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiter = waiter;
    });
  }
}
