/**
 * Mettler Toledo MT-SICS (Standard Interface Command Set), level 0 and 1: the commands a
 * shipping station needs, as the MT-SICS reference writes them. Commands and answers are
 * ASCII lines ended by CR LF; factory settings 9600 baud, 8 data bits, no parity, 1 stop bit.
 *
 *   S      stable weight (the answer waits for stability)      S S      1.234 kg
 *   SI     weight now, stable or not                           S S …  (stable)  S D …  (dynamic)
 *   SIR    SI repeated until another command                   the same answers, continuously
 *   Z      zero                                                Z A  (done)  Z I / Z + / Z -  (not now)
 *   T      tare                                                T S      0.120 kg
 *   @      reset (cancels SIR)                                 I4 A "0123456789"
 *   I4     serial number                                       I4 A "0123456789"
 *
 * Weight answers also carry `S +` (over the range), `S -` (under it) and `S I` (busy). A
 * command the scale does not know answers `ES` (syntax), `ET` (transmission) or `EL` (logic).
 */
import { parseWeightText, type WeightUnit } from '../scale-reading';
import type { ProtocolAnswer, SerialScaleProtocol } from './protocol';

/** The answers that refuse a command: not known (ES), garbled (ET), not possible now (EL). */
export function isSicsRefusal(text: string): boolean {
  return /^E[STL]$/.test(text);
}

/** MT-SICS unit texts, as the scale writes them after a weight. */
const SICS_UNITS: Record<string, WeightUnit> = { mg: 'mg', g: 'g', kg: 'kg', t: 't', oz: 'oz', lb: 'lb' };

/** A command line as the scale expects it. */
export function encodeSics(command: string): string {
  return `${command}\r\n`;
}

export function decodeSics(line: string): ProtocolAnswer {
  const text = line.trim();
  const weight = /^S\s+([SD])\s+(\S.*?)\s+([a-z]{1,3})$/i.exec(text);
  if (weight) {
    const unit = SICS_UNITS[weight[3]!];
    const parsed = unit ? parseWeightText(weight[2]!, unit) : null;
    if (!parsed) return { kind: 'garbage' };
    return { kind: 'sample', sample: { kind: 'weight', stable: weight[1] === 'S', weight: parsed } };
  }
  if (/^S\s+\+$/.test(text)) return { kind: 'sample', sample: { kind: 'over' } };
  if (/^S\s+-$/.test(text)) return { kind: 'sample', sample: { kind: 'under' } };
  const identity = /^I4\s+A\s+"([^"]{0,64})"$/.exec(text);
  if (identity) return { kind: 'identity', identity: identity[1]! };
  // Acknowledgements and refusals: well-formed, no weight.
  if (isSicsRefusal(text)) return { kind: 'reply', text };
  if (/^(S|SI|SIR|Z|T|I4)\s+[AIL+-]$/.test(text)) return { kind: 'reply', text };
  if (/^T\s+S\s+\S.*$/.test(text)) return { kind: 'reply', text };
  return { kind: 'garbage' };
}

export const MT_SICS: SerialScaleProtocol = {
  name: 'sics',
  line: { baud: 9600, parity: 'none', bits: 8 },
  // SIR first: the scale tells every change at its own update rate, unasked. A scale that refuses
  // it (ES) is polled with SI; one that refuses SI too is asked S, which answers once stable.
  weightCommands: [
    { name: 'SIR', request: encodeSics('SIR'), kind: 'repeat' },
    { name: 'SI', request: encodeSics('SI'), kind: 'poll' },
    { name: 'S', request: encodeSics('S'), kind: 'settled' },
  ],
  cancelRequest: encodeSics('@'),
  isRefusal: isSicsRefusal,
  identityRequest: encodeSics('I4'),
  zeroRequest: encodeSics('Z'),
  decode: decodeSics,
};
