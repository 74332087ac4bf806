/**
 * Mettler Toledo's standard continuous output ("Toledo continuous", from the 8142 indicator on,
 * and spoken by most shipping scales and indicators of other makers as "Toledo" mode): the scale
 * sends a frame 10 to 20 times a second without being asked. Factory line settings: 9600 baud,
 * 7 data bits, even parity, 1 stop bit.
 *
 *   STX  SWA  SWB  SWC  W W W W W W  T T T T T T  CR  [checksum]
 *
 * Weight and tare are six ASCII digits without point or sign. The status bytes carry bit 5
 * always set (so they are printable) and:
 *   SWA bits 0-2  where the decimal point is: 0 = ×100, 1 = ×10, 2 = none, 3..7 = 1..5 decimals
 *   SWB bit 0     net (1) or gross
 *       bit 1     sign: negative
 *       bit 2     out of range (over capacity, or under zero with the sign bit)
 *       bit 3     in motion
 *       bit 4     kg (1) or lb (0)
 *       bit 6     powered up and not zeroed yet
 *   SWC bits 0-2  unit: 0 = lb/kg as SWB bit 4 says, 1 = g, 2 = metric tons, 3 = oz; others
 *                 (troy ounces, pennyweight, long tons, custom) are not used for parcels
 */
import type { ScaleWeight, WeightUnit } from '../scale-reading';
import type { ProtocolAnswer, SerialScaleProtocol } from './protocol';

const STX = '\x02';
const ALWAYS_SET = 0x20;

function statusByte(char: string): number | null {
  const code = char.charCodeAt(0);
  return (code & ALWAYS_SET) !== 0 && code < 0x80 ? code : null;
}

function unitOf(swb: number, swc: number): WeightUnit | null {
  switch (swc & 0b111) {
    case 0:
      return (swb & 0b1_0000) !== 0 ? 'kg' : 'lb';
    case 1:
      return 'g';
    case 2:
      return 't';
    case 3:
      return 'oz';
    default:
      return null;
  }
}

export function decodeToledoContinuous(line: string): ProtocolAnswer {
  // A checksum byte after CR lands at the head of the next line: the frame starts at its STX.
  const start = line.lastIndexOf(STX);
  if (start === -1) return { kind: 'garbage' };
  const frame = line.slice(start + 1);
  if (frame.length !== 15) return { kind: 'garbage' };
  const [swa, swb, swc] = [statusByte(frame[0]!), statusByte(frame[1]!), statusByte(frame[2]!)];
  if (swa === null || swb === null || swc === null) return { kind: 'garbage' };
  const digits = frame.slice(3, 9);
  if (!/^ *\d+$/.test(digits) || !/^ *\d+$/.test(frame.slice(9, 15))) return { kind: 'garbage' };
  const negative = (swb & 0b10) !== 0;
  if ((swb & 0b100) !== 0) return { kind: 'sample', sample: { kind: negative ? 'under' : 'over' } };
  if ((swb & 0b100_0000) !== 0)
    return { kind: 'sample', sample: { kind: 'fault', problem: 'the scale has not been zeroed since it was switched on' } };
  const unit = unitOf(swb, swc);
  if (unit === null) return { kind: 'garbage' };
  const decimals = (swa & 0b111) - 2;
  const magnitude = Number(digits.trim());
  const weight: ScaleWeight =
    decimals >= 0
      ? { value: negative ? -magnitude : magnitude, decimals, unit }
      : { value: (negative ? -magnitude : magnitude) * 10 ** -decimals, decimals: 0, unit };
  return { kind: 'sample', sample: { kind: 'weight', stable: (swb & 0b1000) === 0, weight } };
}

export const TOLEDO_CONTINUOUS: SerialScaleProtocol = {
  name: 'toledo',
  line: { baud: 9600, parity: 'even', bits: 7 },
  weightCommands: [],
  cancelRequest: null,
  isRefusal: () => false,
  identityRequest: null,
  zeroRequest: null,
  decode: decodeToledoContinuous,
};
