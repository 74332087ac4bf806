import { MT_SICS } from './mt-sics';
import type { SerialScaleProtocol } from './protocol';
import { TOLEDO_CONTINUOUS } from './toledo-continuous';

/** Every serial protocol by its `protocol=` name (docs/OPERATIONS.md, Scales, says when to use which). */
export const SERIAL_PROTOCOLS = {
  sics: MT_SICS,
  toledo: TOLEDO_CONTINUOUS,
} as const satisfies Record<string, SerialScaleProtocol>;

export type SerialProtocolName = keyof typeof SERIAL_PROTOCOLS;

export function isSerialProtocolName(name: string): name is SerialProtocolName {
  return Object.hasOwn(SERIAL_PROTOCOLS, name);
}
