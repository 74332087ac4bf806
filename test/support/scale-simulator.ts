import { SerialPort } from 'serialport';
import { startPtyPair, type PtyPair } from './pty-pair';

/**
 * A scale on the far end of a pseudo-terminal pair, speaking its protocol as the maker's
 * reference describes it (written here from the references, not from src/main/devices):
 *
 * - `sics`: Mettler Toledo MT-SICS. `S` (stable weight: waits while the load moves), `SI`
 *   (now: `S S` stable, `S D` dynamic), `SIR` (SI repeated every `repeatMs`, 100 ms, until the next
 *   command), `Z` (`Z A`, zeroed), `T` (`T S` with the tare), `@` and `I4` (`I4 A "serial"`);
 *   `S +` / `S -` over and under the range, `ES` for a command it does not know.
 * - `toledo`: Mettler Toledo standard continuous output, a frame every 100 ms:
 *   STX SWA SWB SWC, six digits of weight, six of tare, CR.
 *
 * Modes: stable, dynamic (in motion), over, under, silent (connected, says nothing), garbage
 * (line noise instead of answers). `unplug()` kills socat, `replug()` brings it back on the
 * same links and the scale talks again.
 */
export type SimulatedProtocol = 'sics' | 'toledo';
export type SimulatedMode = 'stable' | 'dynamic' | 'over' | 'under' | 'silent' | 'garbage';
export type SimulatedUnit = 'kg' | 'g' | 'lb' | 'oz';

export interface SimulatedState {
  /** The weight as the scale displays it, in `unit`: '1.234', '-0.120', '0.000'. */
  readonly weight: string;
  readonly unit: SimulatedUnit;
  readonly mode: SimulatedMode;
}

const NOISE = ['\x00\xff\x7f%@!', 'S X 12..3 qq', '~~~~~~~~', '\x02\x01\x01'];

export class ScaleSimulator {
  state: SimulatedState = { weight: '0.000', unit: 'kg', mode: 'stable' };
  /** Every command line the station sent, in order. */
  readonly commands: string[] = [];
  readonly serialNumber = 'B123456789';
  /** Commands this scale does not know, answered `ES` as a scale of a lower MT-SICS level does. */
  readonly unknownCommands = new Set<string>();
  /** How often SIR repeats: the scale's display update rate. */
  repeatMs = 100;
  private port: SerialPort | null = null;
  private repeat: NodeJS.Timeout | null = null;
  private pendingStable = false;
  private noise = 0;

  private constructor(
    readonly protocol: SimulatedProtocol,
    private readonly pair: PtyPair,
  ) {}

  static async start(protocol: SimulatedProtocol, state?: Partial<SimulatedState>): Promise<ScaleSimulator> {
    const sim = new ScaleSimulator(protocol, await startPtyPair());
    sim.set(state ?? {});
    await sim.connect();
    return sim;
  }

  /** The port the station opens. */
  get stationPath(): string {
    return this.pair.stationEnd;
  }

  set(state: Partial<SimulatedState>): void {
    this.state = { ...this.state, ...state };
    // `S` waits while the load moves: a waiting S is answered once it holds still.
    if (this.pendingStable && this.state.mode !== 'dynamic' && this.state.mode !== 'silent') {
      this.pendingStable = false;
      this.send(this.weightAnswer(true));
    }
  }

  async unplug(): Promise<void> {
    this.stopRepeat();
    const port = this.port;
    this.port = null;
    await this.pair.unplug();
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  }

  async replug(): Promise<void> {
    await this.pair.replug();
    await this.connect();
  }

  async stop(): Promise<void> {
    await this.unplug();
    await this.pair.close();
  }

  private async connect(): Promise<void> {
    const port = new SerialPort({
      path: this.pair.scaleEnd,
      baudRate: 9600,
      dataBits: this.protocol === 'toledo' ? 7 : 8,
      parity: this.protocol === 'toledo' ? 'even' : 'none',
      autoOpen: false,
    });
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    port.on('error', () => undefined);
    this.port = port;
    if (this.protocol === 'sics') {
      let buffer = '';
      port.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        let end: number;
        while ((end = buffer.indexOf('\r\n')) !== -1) {
          const command = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          this.command(command);
        }
      });
    } else {
      this.repeat = setInterval(() => this.sendFrame(), 100);
    }
  }

  private command(command: string): void {
    this.commands.push(command);
    if (this.state.mode === 'silent') return;
    if (this.state.mode === 'garbage') return this.send(this.nextNoise());
    // Any command ends SIR's repeating and an S still waiting for stability (the reference's "cancels").
    this.stopRepeat();
    this.pendingStable = false;
    if (this.unknownCommands.has(command)) return this.send('ES');
    switch (command) {
      case 'S':
        if (this.state.mode === 'dynamic') this.pendingStable = true;
        else this.send(this.weightAnswer(true));
        return;
      case 'SI':
        return this.send(this.weightAnswer(false));
      case 'SIR':
        // Repeated as the display updates: nothing while silent, noise while garbled.
        this.repeat = setInterval(() => {
          if (this.state.mode === 'silent') return;
          this.send(this.state.mode === 'garbage' ? this.nextNoise() : this.weightAnswer(false));
        }, this.repeatMs);
        return this.send(this.weightAnswer(false));
      case 'Z':
        if (this.state.mode === 'over') return this.send('Z +');
        if (this.state.mode === 'under') return this.send('Z -');
        this.state = { ...this.state, weight: (0).toFixed(this.decimals()) };
        return this.send('Z A');
      case 'T': {
        if (this.state.mode !== 'stable') return this.send('T I');
        const tare = this.state.weight;
        this.state = { ...this.state, weight: (0).toFixed(this.decimals()) };
        return this.send(`T S ${tare.padStart(10)} ${this.state.unit}`);
      }
      case '@':
      case 'I4':
        return this.send(`I4 A "${this.serialNumber}"`);
      default:
        return this.send('ES');
    }
  }

  private weightAnswer(stableOnly: boolean): string {
    const { mode, weight, unit } = this.state;
    if (mode === 'over') return 'S +';
    if (mode === 'under') return 'S -';
    const status = mode === 'dynamic' && !stableOnly ? 'D' : 'S';
    return `S ${status} ${weight.padStart(10)} ${unit}`;
  }

  private decimals(): number {
    return this.state.weight.split('.')[1]?.length ?? 0;
  }

  private sendFrame(): void {
    const { mode, weight, unit } = this.state;
    if (mode === 'silent') return;
    if (mode === 'garbage') return this.send(this.nextNoise(), '\r');
    const negative = weight.trim().startsWith('-');
    const digits = weight.replace(/[-+.\s]/g, '');
    // SWA: bit 5 set, bits 0-2 the decimal point (2 + decimals).
    const swa = 0x20 | (2 + this.decimals());
    // SWB: bit 1 negative, bit 2 out of range, bit 3 motion, bit 4 kg (else lb).
    const swb =
      0x20 |
      (negative || mode === 'under' ? 0x02 : 0) |
      (mode === 'over' || mode === 'under' ? 0x04 : 0) |
      (mode === 'dynamic' ? 0x08 : 0) |
      (unit === 'kg' ? 0x10 : 0);
    // SWC: bits 0-2 the unit: 0 lb/kg (by SWB), 1 grams, 3 ounces.
    const swc = 0x20 | { kg: 0, lb: 0, g: 1, oz: 3 }[unit];
    this.send(`\x02${String.fromCharCode(swa, swb, swc)}${digits.padStart(6, '0')}000000`, '\r');
  }

  private nextNoise(): string {
    return NOISE[this.noise++ % NOISE.length]!;
  }

  private send(line: string, end = '\r\n'): void {
    this.port?.write(Buffer.from(`${line}${end}`, 'latin1'));
  }

  private stopRepeat(): void {
    if (this.repeat) clearInterval(this.repeat);
    this.repeat = null;
  }
}
