import { describe, expect, it } from 'vitest';
import { deviceUnreachable, printerProblem, printerWarnings, splitReason } from '../../../../src/main/printing/ipp/ipp-printer-state';

const printer = (stateReasons: string[], stateMessage = '', state: 'idle' | 'processing' | 'stopped' = 'idle') => ({
  state,
  stateReasons,
  stateMessage,
});

describe('printer-state-reasons in words', () => {
  it.each([
    ['media-empty-error', /paper.*media|media.*paper/],
    ['media-jam-error', /paper \(media\) jam/],
    ['media-needed', /paper \(media\)/],
    ['door-open-error', /open.*close it/],
    ['cover-open-report', /print head is open/],
    ['paused', /paused/],
    ['offline-report', /offline/],
    ['marker-supply-empty-error', /ribbon or ink/],
  ])('%s stops the printer, named in words', (reason, words) => {
    const problem = printerProblem(printer([reason]));
    expect(problem).toMatch(words);
    expect(printerWarnings(printer([reason]))).toBeNull();
  });

  it('says the printer cannot be reached for connecting-to-device, timed-out, offline-report, and for CUPS\'s "may not exist" message', () => {
    for (const reason of ['connecting-to-device', 'timed-out-error', 'offline-report'])
      expect(deviceUnreachable(printer([reason])), reason).toBe(true);
    const cups = printer([], 'The printer may not exist or is unavailable at this time.', 'processing');
    expect(deviceUnreachable(cups)).toBe(true);
    expect(printerProblem(cups)).toBe(
      'cannot be reached: check that it is on and connected (the printer says: "The printer may not exist or is unavailable at this time.")',
    );
    // The same words on an idle queue are history (CUPS keeps the last message): not down now.
    expect(deviceUnreachable(printer([], 'The printer may not exist or is unavailable at this time.', 'idle'))).toBe(false);
  });

  it('leaves a printer ready for warnings, CUPS bookkeeping and "Printing."; says the warnings', () => {
    expect(printerProblem(printer(['marker-supply-low-warning', 'media-empty-warning'], 'Printing.', 'processing'))).toBeNull();
    expect(printerProblem(printer(['cups-waiting-for-job-completed', 'cups-ipp-conformance-failure-report'], 'Idle.'))).toBeNull();
    expect(printerWarnings(printer(['marker-supply-low-report', 'toner-low-warning']))).toBe(
      'ribbon or ink is low (marker supply low); toner is low',
    );
  });

  it('reads the severity suffix (RFC 8011: none is an error)', () => {
    expect(splitReason('media-jam')).toEqual({ base: 'media-jam', blocking: true });
    expect(splitReason('media-jam-warning')).toEqual({ base: 'media-jam', blocking: false });
    expect(splitReason('media-low-report')).toEqual({ base: 'media-low', blocking: false });
    expect(splitReason('media-empty-report')).toEqual({ base: 'media-empty', blocking: true });
  });
});
