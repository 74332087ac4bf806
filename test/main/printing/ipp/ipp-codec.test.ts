import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  IppDecodeError,
  TAG,
  decodeIppResponse,
  encodeIppRequest,
  isCollection,
  type IppCollection,
  type Value,
} from '../../../../src/main/printing/ipp/ipp-codec';
import { reportState } from '../../../../src/main/printing/ipp/ipp-job-state';
import { deviceUnreachable, printerProblem } from '../../../../src/main/printing/ipp/ipp-printer-state';

/** Responses recorded from ippeveprinter and cupsd (ipp-fixtures.record.test.ts). */
function fixture(name: string) {
  return decodeIppResponse(readFileSync(path.join(import.meta.dirname, '../../../fixtures/ipp', name)));
}

function group(res: ReturnType<typeof decodeIppResponse>, tag: number): Map<string, Value[]> {
  const found = res.groups.find((g) => g.tag === tag);
  if (!found) throw new Error(`no group ${tag}`);
  return found.attrs;
}

describe('the IPP codec on recorded responses', () => {
  it('keeps collections whole (media-col-default, media-col-database), with nested collections inside', () => {
    const printer = group(fixture('ippeveprinter-get-printer-attributes.bin'), TAG.printer);
    const col = printer.get('media-col-default')![0] as IppCollection;
    expect(isCollection(col)).toBe(true);
    const size = col.get('media-size')![0] as IppCollection;
    expect(Object.fromEntries(size)).toEqual({ 'x-dimension': [10160], 'y-dimension': [15240] });
    expect(col.get('media-top-margin')).toEqual([0]);
    expect(col.get('media-source')).toEqual(['main']);
    // Members never leak into the printer group (they did: x-dimension sat beside printer-name).
    for (const member of ['media-size', 'x-dimension', 'media-top-margin', 'media-source']) expect(printer.has(member), member).toBe(false);
    expect(printer.get('media-col-database')).toHaveLength(2);
    // What follows a collection is read as the printer's again.
    expect(printer.get('media-supported')).toEqual(['na_index-4x6_4x6in', 'oe_4x6-label_4x6in']);
  });

  it('reads rangeOfInteger, resolution, dateTime, enums, booleans and integers as values, not text', () => {
    const printer = group(fixture('ippeveprinter-get-printer-attributes.bin'), TAG.printer);
    expect(printer.get('copies-supported')).toEqual([{ lower: 1, upper: 999 }]);
    expect(printer.get('printer-resolution-supported')).toEqual([{ x: 203, y: 203, units: 'dpi' }]);
    const changed = printer.get('printer-state-change-date-time')![0];
    expect(changed).toBeInstanceOf(Date);
    expect(Math.abs((changed as Date).getTime() - Date.now())).toBeLessThan(400 * 24 * 3600_000);
    expect(printer.get('printer-state')).toEqual([3]);
    expect(printer.get('printer-is-accepting-jobs')).toEqual([true]);
    expect(typeof printer.get('printer-up-time')![0]).toBe('number');
    expect(printer.get('operations-supported')).toContain(0x0002);
  });

  it('reads a printer listing an attribute twice as one list (ippeveprinter adds its formats after the configured ones)', () => {
    const printer = group(fixture('ippeveprinter-get-printer-attributes.bin'), TAG.printer);
    expect(printer.get('document-format-supported')!.slice(0, 3)).toEqual(['application/pdf', 'image/pwg-raster', 'image/urf']);
  });

  it('reads cupsd: the unreachable device in the queue state message, the job the printer lost, the job it refused', () => {
    const down = group(fixture('cupsd-get-printer-attributes-unreachable.bin'), TAG.printer);
    expect(down.get('printer-state')).toEqual([4]);
    expect(down.get('printer-state-message')).toEqual(['The printer may not exist or is unavailable at this time.']);
    const up = group(fixture('cupsd-get-printer-attributes.bin'), TAG.printer);
    expect(up.get('device-uri')![0]).toMatch(/^ipp:\/\/localhost:\d+\/ipp\/print$/);
    for (const [attrs, unreachable] of [
      [down, true],
      [up, false],
    ] as const) {
      const printer = {
        state: attrs.get('printer-state')![0] === 4 ? ('processing' as const) : ('idle' as const),
        stateReasons: (attrs.get('printer-state-reasons') as string[]).filter((r) => r !== 'none'),
        stateMessage: String(attrs.get('printer-state-message')![0]),
      };
      expect(deviceUnreachable(printer)).toBe(unreachable);
      expect(printerProblem(printer) !== null).toBe(unreachable);
    }

    const report = (name: string) => {
      const job = group(fixture(name), TAG.job);
      const strings = (key: string) => (job.get(key) ?? []).map(String).filter((r) => r !== 'none');
      const states = { 7: 'canceled', 8: 'aborted', 9: 'completed' } as const;
      return {
        state: states[job.get('job-state')![0] as 7 | 8 | 9],
        reasons: strings('job-state-reasons'),
        printerReasons: strings('job-printer-state-reasons'),
        printerMessage: strings('job-printer-state-message')[0] ?? '',
      };
    };
    expect(reportState(report('cupsd-get-job-attributes-completed.bin'))).toBe('completed');
    expect(report('cupsd-get-job-attributes-missing-history.bin').printerReasons).toContain('cups-ipp-missing-job-history');
    expect(reportState(report('cupsd-get-job-attributes-missing-history.bin'))).toBe('lost');
    const refused = report('cupsd-get-job-attributes-refused.bin');
    expect(refused).toMatchObject({ state: 'canceled', printerMessage: 'Printer cannot print with supplied options.' });
    // Canceled by the printer's refusal, not by anyone: a failure with its words.
    expect(reportState(refused)).toBe('aborted');
    expect(reportState({ ...refused, reasons: ['job-canceled-by-user'] })).toBe('canceled');
  });

  it('reads ippeveprinter Get-Jobs: one group per job, with its reasons and message', () => {
    const res = fixture('ippeveprinter-get-jobs.bin');
    const jobs = res.groups.filter((g) => g.tag === TAG.job);
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    expect(jobs[0]!.attrs.get('job-state-reasons')).toEqual(['job-completed-successfully']);
    expect(jobs[0]!.attrs.get('job-state-message')).toEqual(['Job completed.']);
  });
});

describe('the IPP codec, both ways', () => {
  it('encodes collections, ranges and resolutions that decode to the same values', () => {
    const buf = encodeIppRequest(0x0002, 7, [
      { tag: TAG.charset, name: 'attributes-charset', values: ['utf-8'] },
      {
        tag: TAG.begCollection,
        name: 'media-col',
        values: [
          [
            {
              tag: TAG.begCollection,
              name: 'media-size',
              values: [
                [
                  { tag: TAG.integer, name: 'x-dimension', values: [10160] },
                  { tag: TAG.integer, name: 'y-dimension', values: [15240] },
                ],
              ],
            },
            { tag: TAG.integer, name: 'media-top-margin', values: [0] },
          ],
        ],
      },
      { tag: TAG.rangeOfInteger, name: 'copies-supported', values: [{ lower: 1, upper: 9 }] },
      { tag: TAG.resolution, name: 'printer-resolution', values: [{ x: 300, y: 600, units: 'dpcm' }] },
      { tag: TAG.keyword, name: 'after', values: ['a', 'b'] },
    ]);
    const res = decodeIppResponse(buf);
    expect(res.requestId).toBe(7);
    const op = group(res, TAG.operation);
    const col = op.get('media-col')![0] as IppCollection;
    expect(Object.fromEntries(col.get('media-size')![0] as IppCollection)).toEqual({ 'x-dimension': [10160], 'y-dimension': [15240] });
    expect(col.get('media-top-margin')).toEqual([0]);
    expect(op.get('copies-supported')).toEqual([{ lower: 1, upper: 9 }]);
    expect(op.get('printer-resolution')).toEqual([{ x: 300, y: 600, units: 'dpcm' }]);
    expect(op.get('after')).toEqual(['a', 'b']);
  });

  it('reads octetString as bytes, textWithLanguage as its text, out-of-band values as null, and dateTime with its UTC offset', () => {
    const field = (tag: number, name: string, value: Buffer) => {
      const head = Buffer.alloc(3);
      head.writeUInt8(tag, 0);
      head.writeUInt16BE(name.length, 1);
      const len = Buffer.alloc(2);
      len.writeUInt16BE(value.length);
      return Buffer.concat([head, Buffer.from(name), len, value]);
    };
    const lang = Buffer.concat([Buffer.from([0, 2]), Buffer.from('sv'), Buffer.from([0, 4]), Buffer.from('Klar')]);
    // 2026-11-26 08:30:15.5 at +02:00 = 06:30:15.5 UTC.
    const date = Buffer.from([0x07, 0xea, 11, 26, 8, 30, 15, 5, '+'.charCodeAt(0), 2, 0]);
    const buf = Buffer.concat([
      Buffer.from([1, 1, 0, 0, 0, 0, 0, 1, TAG.printer]),
      field(TAG.octetString, 'printer-firmware-version', Buffer.from([0, 1, 0xff])),
      field(TAG.textWithLanguage, 'printer-state-message', lang),
      field(TAG.noValue, 'printer-location', Buffer.alloc(0)),
      field(TAG.dateTime, 'printer-current-time', date),
      Buffer.from([TAG.end]),
    ]);
    const printer = group(decodeIppResponse(buf), TAG.printer);
    expect([...(printer.get('printer-firmware-version')![0] as Uint8Array)]).toEqual([0, 1, 0xff]);
    expect(printer.get('printer-state-message')).toEqual(['Klar']);
    expect(printer.get('printer-location')).toEqual([null]);
    expect((printer.get('printer-current-time')![0] as Date).toISOString()).toBe('2026-11-26T06:30:15.500Z');
  });

  it('refuses a message cut short with a coded error instead of reading past its end', () => {
    const whole = readFileSync(path.join(import.meta.dirname, '../../../fixtures/ipp/cupsd-get-printer-attributes.bin'));
    expect(() => decodeIppResponse(whole.subarray(0, 200))).toThrow(IppDecodeError);
  });
});
