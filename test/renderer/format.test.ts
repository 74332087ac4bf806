import { describe, expect, it } from 'vitest';
import { describeTarget, localDateTime, localTime, localWhen, targetKind } from '../../src/renderer/format';

describe('format', () => {
  it('names a printer URI by its kind', () => {
    expect(describeTarget('folder:/home/x/prints')).toBe('Folder /home/x/prints');
    expect(describeTarget('cups:Labels@print.local')).toBe('CUPS Labels@print.local');
    expect(describeTarget('windows:ZDesigner GK420d')).toBe('Windows ZDesigner GK420d');
    expect(describeTarget('service:pr_123')).toBe('Service printer pr_123');
    expect(describeTarget('ipps://zebra.local:631/ipp/print')).toBe('IPP printer ipps://zebra.local:631/ipp/print');
    expect(describeTarget('lpd:queue')).toBe('lpd queue');
    expect(describeTarget('no-colon')).toBe('no-colon');
  });

  it('knows the printer kinds and nothing else', () => {
    expect(targetKind('cups:Labels')).toBe('cups');
    expect(targetKind('folder:/x')).toBe('folder');
    expect(targetKind('lpd:queue')).toBeNull();
    expect(targetKind('toString:x')).toBeNull();
    expect(targetKind('Labels')).toBeNull();
  });

  it('shows a dash for no time and the raw text for a time it cannot read', () => {
    expect(localDateTime(null)).toBe('—');
    expect(localTime(undefined)).toBe('—');
    expect(localWhen('')).toBe('—');
    expect(localDateTime('yesterday')).toBe('yesterday');
    expect(localWhen('soon')).toBe('soon');
  });

  it("shows today's times without the date and older ones with it", () => {
    const now = new Date('2026-11-24T15:00:00');
    const today = localWhen(new Date('2026-11-24T09:05:07').toISOString(), now);
    const older = localWhen(new Date('2026-11-20T09:05:07').toISOString(), now);
    expect(today).toBe(localTime(new Date('2026-11-24T09:05:07').toISOString()));
    expect(older).toBe(localDateTime(new Date('2026-11-20T09:05:07').toISOString()));
    expect(older).not.toBe(today);
  });
});
