import { describe, expect, it } from 'vitest';
import { SCALE_ERROR_CODES } from '../../../src/main/devices/errors';
import { formatScaleUri, parseScaleUri } from '../../../src/main/devices/scale-uri';

describe('scale URIs', () => {
  it('reads none, and an empty value, as no scale', () => {
    expect(parseScaleUri('none')).toEqual({ kind: 'none' });
    expect(parseScaleUri('')).toEqual({ kind: 'none' });
  });

  it('gives a serial scale MT-SICS and its factory line settings when the URI names none', () => {
    expect(parseScaleUri('serial:/dev/ttyUSB0')).toEqual({
      kind: 'serial',
      path: '/dev/ttyUSB0',
      protocol: 'sics',
      baud: 9600,
      parity: 'none',
      bits: 8,
    });
  });

  it("takes each protocol's own defaults, and every setting the URI names", () => {
    expect(parseScaleUri('serial:COM3?protocol=toledo')).toMatchObject({ path: 'COM3', protocol: 'toledo', parity: 'even', bits: 7 });
    expect(parseScaleUri('serial:/dev/ttyS0?protocol=sics&baud=2400&parity=odd&bits=7')).toMatchObject({
      baud: 2400,
      parity: 'odd',
      bits: 7,
    });
  });

  it('reads a HID scale by its hex vendor and product ids', () => {
    expect(parseScaleUri('hid:0922:8003')).toEqual({ kind: 'hid', vendorId: 0x0922, productId: 0x8003 });
  });

  it.each([
    ['usb:1', 'unknown scheme "usb"'],
    ['serial:', 'no port path'],
    ['serial:/dev/x?protocol=foo', 'unknown protocol "foo"'],
    ['serial:/dev/x?baud=9601', 'baud "9601"'],
    ['serial:/dev/x?parity=mark', 'parity "mark"'],
    ['serial:/dev/x?bits=9', 'bits "9"'],
    ['serial:/dev/x?speed=9600', 'unknown setting "speed"'],
    ['hid:922:8003', 'hid:VVVV:PPPP'],
    ['scale', 'no scheme'],
  ])('refuses %s, saying what is wrong and the valid forms', (uri, why) => {
    let thrown: unknown;
    try {
      parseScaleUri(uri);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: SCALE_ERROR_CODES.INVALID_SCALE_URI });
    expect((thrown as Error).message).toContain(why);
    expect((thrown as Error).message).toContain('hid:VVVV:PPPP');
  });

  it('formats every address back to a URI that parses to it', () => {
    for (const uri of ['none', 'hid:0922:8003', 'serial:/dev/ttyUSB0?protocol=toledo&baud=4800&parity=even&bits=7']) {
      expect(formatScaleUri(parseScaleUri(uri))).toBe(uri);
    }
    expect(formatScaleUri(parseScaleUri('serial:/dev/ttyUSB0'))).toBe('serial:/dev/ttyUSB0?protocol=sics&baud=9600&parity=none&bits=8');
  });
});
