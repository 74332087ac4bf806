// The opener of the real devices, apart from scale-device.ts: the serial and HID devices import
// that file's types, and this one imports them (lazily), so neither closes a circle.
import type { ScaleOpener } from './scale-device';

export const openScaleDevice: ScaleOpener = async (address) => {
  if (address.kind === 'serial') return (await import('./serial-scale-device')).openSerialScale(address);
  return (await import('./hid-scale-device')).openHidScale(address);
};
