import { describe, expect, it } from 'vitest';
import { parsePrinterUri } from '../../../../src/main/printing/uri';
import {
  drained,
  framedStrings,
  parseErrorStatus,
  parseHostStatus,
  parseIdentity,
  statusProblem,
} from '../../../../src/main/printing/zpl/zpl-status';

const frame = (text: string): string => `\x02${text}\x03\r\n`;

/** A ~HS answer in the manual's field order, with the given fields of strings 1 and 2 changed. */
function hs(one: Record<number, string> = {}, two: Record<number, string> = {}): Uint8Array {
  const first = ['030', '0', '0', '1218', '000', '0', '0', '0', '000', '0', '0', '0'];
  const second = ['001', '0', '0', '0', '0', '2', '6', '0', '00000000', '1', '000'];
  for (const [i, v] of Object.entries(one)) first[Number(i)] = v;
  for (const [i, v] of Object.entries(two)) second[Number(i)] = v;
  return Buffer.from(frame(first.join(',')) + frame(second.join(',')) + frame('1234,0'), 'latin1');
}

describe('~HS and ~HI answers (Zebra ZPL II Programming Guide)', () => {
  it('reads the flags from their places in strings 1 and 2', () => {
    const status = parseHostStatus(
      framedStrings(hs({ 1: '1', 2: '1', 4: '002', 5: '1', 7: '1' }, { 2: '1', 3: '1', 8: '00000005' })).strings,
    );
    expect(status).toMatchObject({
      paperOut: true,
      paused: true,
      formatsInBuffer: 2,
      bufferFull: true,
      partialFormat: true,
      headUp: true,
      ribbonOut: true,
      labelsRemaining: 5,
    });
    expect(statusProblem(status)).toMatch(/paper out.*head open.*ribbon out.*paused.*buffer full/);
    expect(drained(status)).toBe(false);
    const idle = parseHostStatus(framedStrings(hs()).strings);
    expect(statusProblem(idle)).toBeNull();
    expect(drained(idle)).toBe(true);
  });

  it('waits for a whole frame: a half-received answer is not read', () => {
    const bytes = hs();
    expect(framedStrings(bytes.subarray(0, 40)).strings).toHaveLength(1);
    expect(framedStrings(bytes).strings).toHaveLength(3);
  });

  it('reads media out, ribbon out and head open from ~HQES (newer firmware answers only that while faulted)', () => {
    const answer = (group1: string, flag = '1'): string =>
      `\r\nPRINTER STATUS\r\n   ERRORS:         ${flag} 00000000 ${group1}\r\n   WARNINGS:       0 00000000 00000000\r\n`;
    expect(parseErrorStatus(answer('00000005'))).toEqual(['paperOut', 'headOpen']);
    expect(parseErrorStatus(answer('00000002'))).toEqual(['ribbonOut']);
    expect(parseErrorStatus(answer('00000000', '0'))).toEqual([]);
    expect(parseErrorStatus('1234,0')).toBeNull();
  });

  it('reads the model and dots per millimetre from ~HI', () => {
    expect(parseIdentity('ZT411-300dpi,V92.21.39Z,12,8176KB')).toEqual({
      model: 'ZT411-300dpi',
      firmware: 'V92.21.39Z',
      dotsPerMm: 12,
      memory: '8176KB',
    });
  });
});

describe('zpl:// URIs', () => {
  it.each([
    ['zpl://10.0.0.7', { host: '10.0.0.7', port: 9100, dpi: null }],
    ['zpl://zebra-2.lager.local:6101?dpi=300', { host: 'zebra-2.lager.local', port: 6101, dpi: 300 }],
    ['zpl://[fe80::1]:9100?dpi=600', { host: 'fe80::1', port: 9100, dpi: 600 }],
  ])('%s', (uri, address) => {
    expect(parsePrinterUri(uri)).toEqual({ kind: 'zpl', ...address });
  });

  it.each([
    ['zpl:10.0.0.7', /zpl:\/\/HOST/],
    ['zpl://', /no host|valid host/],
    ['zpl://10.0.0.7?dpi=204', /dpi 204 is not one of 203, 300, 600/],
    ['zpl://10.0.0.7?speed=4', /unknown option speed/],
    ['zpl://10.0.0.7/labels', /no path/],
    ['zpl://10.0.0.7:70000', /valid host|out of range/],
    ['zpl-cups:Zebra?dpi=100', /dpi 100/],
    ['zpl-cups:Zebra@host:631', /@/],
  ])('refuses %s, saying why', (uri, why) => {
    expect(() => parsePrinterUri(uri)).toThrow(why);
  });

  it('keeps a Windows printer name whole, a trailing ?dpi=N apart', () => {
    expect(parsePrinterUri('zpl-windows:ZDesigner ZD421 (USB)?dpi=300')).toEqual({
      kind: 'zpl-windows',
      name: 'ZDesigner ZD421 (USB)',
      dpi: 300,
    });
    expect(parsePrinterUri('zpl-windows:Who? Me')).toEqual({ kind: 'zpl-windows', name: 'Who? Me', dpi: null });
  });
});
