/**
 * A ZPL printer emulator on a loopback port, for the raw ZPL printer kinds: it keeps every
 * byte and every `^XA…^XZ` format it receives, answers `~HS` and `~HI` from a state the test
 * scripts (paper out, head open, ribbon out, paused, buffer full, resolution, model), and
 * "prints" its formats one label at a time, `msPerLabel` apart, only while nothing stops it,
 * so labels drain over time as on a real printer. It can refuse connections (closed) or
 * accept and never answer (silent).
 */
import net from 'node:net';

export interface ZplPrinterState {
  paperOut: boolean;
  headUp: boolean;
  ribbonOut: boolean;
  paused: boolean;
  bufferFull: boolean;
  /** Dots per millimetre `~HI` reports. @default 8 (203 dpi) */
  dotsPerMm: number;
  /** @default 'ZD421-203dpi' */
  model: string;
  /** How long printing one label takes. @default 5 */
  msPerLabel: number;
  /** Accept connections but answer nothing (a hung printer). @default false */
  silent: boolean;
  /**
   * Leave `~HS` unanswered while out of paper or ribbon or with the head open, answering
   * only `~HQES` (as newer Zebra firmware does). @default false
   */
  quietWhenFaulted: boolean;
  /**
   * How answers are framed: `stx` STX…ETX CR LF (Zebra); `lines-crlf` / `lines-lf` one bare
   * line each, no STX/ETX (as some clones answer). @default 'stx'
   */
  framing: 'stx' | 'lines-crlf' | 'lines-lf';
  /** Leave `~HI` unanswered (clones and print servers that know no resolution). @default false */
  silentHi: boolean;
  /** Wait this long before each answer (a slow printer). @default 0 */
  answerDelayMs: number;
  /** Close the connection as soon as a label format has been received. @default false */
  closeAfterFormat: boolean;
  /**
   * A `~HS` that follows label formats on a connection is answered only once those labels
   * have printed (a printer that works through its input in order). @default false
   */
  statusAfterData: boolean;
  /**
   * Each connection reads this many bytes, then stops reading and answering (a hung print
   * server, firmware stuck mid-job): what it sent fits the socket buffers, so the sender
   * sees no error. What it read of an unfinished label never reaches the print engine (its
   * `~HS` shows no partial format); a new connection starts afresh. @default null (reads everything)
   */
  stopReadingAfterBytes: number | null;
}

export interface PrintedLabel {
  /** The format it came from (`^XA…^XZ`). */
  readonly format: string;
  /** Which copy of the format's `^PQ` it is (1-based). */
  readonly copy: number;
  readonly at: number;
}

export interface ZplPrinter {
  readonly host: string;
  readonly port: number;
  readonly state: ZplPrinterState;
  /** Every byte received, in order. */
  received(): Buffer;
  /** Every complete format received. */
  readonly formats: string[];
  /** When each format was complete (performance.now()), in the order of `formats`. */
  readonly receivedAt: number[];
  /** Labels printed so far. */
  readonly printed: PrintedLabel[];
  /** Commands answered (`~HS`, `~HI`), in order. */
  readonly questions: string[];
  /** Connections accepted so far. */
  connections(): number;
  /** Connections that carried at least one label format. */
  labelConnections(): number;
  /** Connections open now (the client has not ended them). */
  openConnections(): number;
  set(change: Partial<ZplPrinterState>): void;
  /** Labels received and not yet printed. */
  remaining(): number;
  /** Stops listening: connections are refused until start(). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const STX = '\x02';
const ETX = '\x03';
const frame = (text: string): string => `${STX}${text}${ETX}\r\n`;
const flag = (value: boolean): string => (value ? '1' : '0');

/** The `~HQES` answer: group 1's last nibbles carry media out (1), ribbon out (2), head open (4). */
export function errorStatusReply(state: ZplPrinterState): string {
  const group1 = (state.paperOut ? 1 : 0) | (state.ribbonOut ? 2 : 0) | (state.headUp ? 4 : 0);
  const flagged = group1 !== 0 ? '1' : '0';
  const text = `\r\nPRINTER STATUS\r\n   ERRORS:         ${flagged} 00000000 ${group1.toString(16).toUpperCase().padStart(8, '0')}\r\n   WARNINGS:       0 00000000 00000000\r\n`;
  return frame(text);
}

/** The `~HS` answer for a state (Zebra ZPL II Programming Guide, ~HS). */
export function hostStatusReply(state: ZplPrinterState, formats: number, labels: number, partial: boolean): string {
  const one = [
    '030',
    flag(state.paperOut),
    flag(state.paused),
    '1218',
    String(formats).padStart(3, '0'),
    flag(state.bufferFull),
    '0',
    flag(partial),
    '000',
    '0',
    '0',
    '0',
  ];
  const two = ['001', '0', flag(state.headUp), flag(state.ribbonOut), '0', '2', '6', '0', String(labels).padStart(8, '0'), '1', '000'];
  return frame(one.join(',')) + frame(two.join(',')) + frame('1234,0');
}

interface Queued {
  readonly format: string;
  copies: number;
  done: number;
}

export async function startZplPrinter(initial: Partial<ZplPrinterState> = {}, port = 0): Promise<ZplPrinter> {
  const state: ZplPrinterState = {
    paperOut: false,
    headUp: false,
    ribbonOut: false,
    paused: false,
    bufferFull: false,
    dotsPerMm: 8,
    model: 'ZD421-203dpi',
    msPerLabel: 5,
    silent: false,
    quietWhenFaulted: false,
    framing: 'stx',
    silentHi: false,
    answerDelayMs: 0,
    closeAfterFormat: false,
    statusAfterData: false,
    stopReadingAfterBytes: null,
    ...initial,
  };
  const chunks: Buffer[] = [];
  const formats: string[] = [];
  const receivedAt: number[] = [];
  const printed: PrintedLabel[] = [];
  const questions: string[] = [];
  const queue: Queued[] = [];
  const sockets = new Set<net.Socket>();
  const live = new Set<net.Socket>();
  let accepted = 0;
  const carrying = new WeakSet<net.Socket>();
  let carried = 0;
  let partial = false;
  let timer: NodeJS.Timeout | null = null;

  const canPrint = (): boolean => !state.paperOut && !state.headUp && !state.ribbonOut && !state.paused;
  const remaining = (): number => queue.reduce((sum, q) => sum + q.copies - q.done, 0);

  function schedule(): void {
    if (timer || queue.length === 0 || !canPrint()) return;
    timer = setTimeout(() => {
      timer = null;
      const head = queue[0];
      if (head && canPrint()) {
        head.done += 1;
        printed.push({ format: head.format, copy: head.done, at: Date.now() });
        if (head.done >= head.copies) queue.shift();
      }
      schedule();
    }, state.msPerLabel);
  }

  function handle(socket: net.Socket): void {
    accepted += 1;
    sockets.add(socket);
    live.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // The client's end is the end of its turn, whenever the server side closes.
    socket.on('end', () => live.delete(socket));
    socket.on('close', () => live.delete(socket));
    socket.on('error', () => undefined);
    let pending = '';
    let current: string | null = null;
    let gotFormat = false;
    const answer = (text: string): void => {
      const framed = state.framing === 'stx' ? text : text.replaceAll(STX, '').replaceAll(ETX, '');
      const out = state.framing === 'lines-lf' ? framed.replaceAll('\r\n', '\n') : framed;
      if (state.answerDelayMs > 0) setTimeout(() => socket.writable && socket.write(out, 'latin1'), state.answerDelayMs);
      else socket.write(out, 'latin1');
    };
    let budget = state.stopReadingAfterBytes ?? Number.POSITIVE_INFINITY;
    socket.on('data', (whole: Buffer) => {
      if (budget <= 0) return;
      const chunk = whole.subarray(0, budget);
      budget -= chunk.length;
      if (budget <= 0) socket.pause();
      chunks.push(chunk);
      pending += chunk.toString('latin1');
      for (;;) {
        if (current !== null) {
          const end = pending.indexOf('^XZ');
          if (end < 0) {
            current += pending;
            pending = '';
            partial = true;
            break;
          }
          const format = current + pending.slice(0, end + 3);
          pending = pending.slice(end + 3);
          current = null;
          partial = false;
          formats.push(format);
          receivedAt.push(performance.now());
          if (!carrying.has(socket)) {
            carrying.add(socket);
            carried += 1;
          }
          const copies = Number(/\^PQ(\d+)/.exec(format)?.[1] ?? '1');
          queue.push({ format, copies: Math.max(1, copies), done: 0 });
          schedule();
          gotFormat = true;
          if (state.closeAfterFormat) {
            socket.end();
            break;
          }
          continue;
        }
        const starts = ['~HS', '~HI', '~HQES', '^XA'].map((token) => ({ token, at: pending.indexOf(token) })).filter((s) => s.at >= 0);
        if (starts.length === 0) {
          pending = pending.slice(-2);
          break;
        }
        const next = starts.reduce((a, b) => (b.at < a.at ? b : a));
        pending = pending.slice(next.at + next.token.length);
        if (next.token === '^XA') {
          current = '^XA';
          continue;
        }
        questions.push(next.token);
        if (state.silent) continue;
        const faulted = state.paperOut || state.ribbonOut || state.headUp;
        if (next.token === '~HS') {
          const reply = (): string => hostStatusReply(state, queue.length, remaining(), partial);
          if (state.quietWhenFaulted && faulted) continue;
          if (state.statusAfterData && gotFormat) {
            const later = (): void => {
              if (remaining() > 0) setTimeout(later, 10);
              else if (socket.writable) answer(reply());
            };
            later();
          } else answer(reply());
        } else if (next.token === '~HQES') answer(errorStatusReply(state));
        else if (!state.silentHi) answer(frame(`${state.model},V92.21.39Z,${state.dotsPerMm},8176KB`));
      }
      if (budget <= 0 && current !== null) {
        // Stuck mid-label: the part it read never reaches the print engine.
        current = null;
        partial = false;
      }
    });
  }

  let server = net.createServer(handle);
  const listen = (at: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const boundPort = await listen(port);

  const stop = async (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    host: '127.0.0.1',
    port: boundPort,
    state,
    received: () => Buffer.concat(chunks),
    formats,
    receivedAt,
    printed,
    questions,
    connections: () => accepted,
    labelConnections: () => carried,
    openConnections: () => live.size,
    set(change) {
      Object.assign(state, change);
      schedule();
    },
    remaining,
    stop,
    async start() {
      server = net.createServer(handle);
      await listen(boundPort);
    },
    async close() {
      if (timer) clearTimeout(timer);
      if (server.listening) await stop();
    },
  };
}
