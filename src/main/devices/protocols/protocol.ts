import type { ScaleSample } from '../scale-reading';

/** A serial line's parity (the scale URI's `parity`). */
export type SerialParity = 'none' | 'even' | 'odd';

/**
 * A serial scale protocol as pure functions: what to send, and what a received line means.
 * The port, the framing into lines, deadlines and retries are the device's and the
 * monitor's (serial-scale-device.ts, scale-monitor.ts), so a protocol is tested on bytes alone.
 */
export interface SerialScaleProtocol {
  /** The `protocol=` value in the scale URI. */
  readonly name: string;
  /** Line settings the scale ships with, used when the URI does not name them. */
  readonly line: { readonly baud: number; readonly parity: SerialParity; readonly bits: 7 | 8 };
  /**
   * The ways to ask for weights, best first: the device tries them in order and keeps the first
   * the scale answers with a weight (a command it refuses is skipped). Empty when the scale sends
   * by itself (a continuous protocol: the device reads the next frame).
   */
  readonly weightCommands: readonly WeightCommand[];
  /** Stops a repeating command and cancels one still waiting for an answer, or null when the protocol has none. */
  readonly cancelRequest: string | null;
  /** What to send to learn the scale's identity, or null when the protocol has no such question. */
  readonly identityRequest: string | null;
  /** Zeroes the scale (the packer's "zero" from Settings → Scale), or null when the protocol cannot. */
  readonly zeroRequest: string | null;
  /** Whether a `reply` refuses the command it answers (the scale does not know it or cannot do it now). */
  isRefusal(reply: string): boolean;
  /** One received line (without its CR/LF) read as this protocol's answer. */
  decode(line: string): ProtocolAnswer;
}

/**
 * One way of asking a demand scale for weights:
 * - `repeat`: sent once, then the scale sends a weight at its own update rate until another
 *   command (MT-SICS `SIR`): a change is seen at the scale's next update, with no question asked;
 * - `poll`: one answer per request, stable or not (MT-SICS `SI`);
 * - `settled`: one answer per request, given only once the load holds still (MT-SICS `S`): no
 *   answer within the deadline means the load moves, and the request is cancelled.
 */
export interface WeightCommand {
  /** The command as the scale's reference names it (Settings → Scale shows it). */
  readonly name: string;
  readonly request: string;
  readonly kind: 'repeat' | 'poll' | 'settled';
}

/** A line read as a protocol's answer. */
export type ProtocolAnswer =
  | { readonly kind: 'sample'; readonly sample: ScaleSample }
  /** The scale's identity (a serial number, a model). */
  | { readonly kind: 'identity'; readonly identity: string }
  /** A well-formed answer that carries no weight: an acknowledgement, "busy", "unknown command". */
  | { readonly kind: 'reply'; readonly text: string }
  /** Not this protocol's: noise, a wrong baud rate or parity, a half line. Counted, never a weight. */
  | { readonly kind: 'garbage' };
