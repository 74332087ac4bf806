import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTarget } from '../../../src/main/printing/create-target';
import { CupsTarget } from '../../../src/main/printing/cups/cups-target';
import { PrintError } from '../../../src/main/printing/errors';
import { FolderTarget } from '../../../src/main/printing/folder/folder-target';
import { WindowsTarget } from '../../../src/main/printing/windows/windows-target';

const pdfToPrinter = { print: async () => undefined, getPrinters: async () => [] };

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof PrintError ? error.code : 'not a PrintError';
  }
}

describe('createTarget', () => {
  it('builds the target each URI names', () => {
    const cups = createTarget('cups:Zebra@10.0.0.5:631', { platform: 'linux' });
    expect(cups).toBeInstanceOf(CupsTarget);
    expect(cups.uri).toBe('cups:Zebra@10.0.0.5:631');
    const folder = createTarget('folder:prints', { cwd: '/srv/station' });
    expect(folder).toBeInstanceOf(FolderTarget);
    expect((folder as FolderTarget).dir).toBe(path.join('/srv/station', 'prints'));
    const win = createTarget('windows:ZDesigner ZD420 (Bench)', { platform: 'win32', pdfToPrinter });
    expect(win).toBeInstanceOf(WindowsTarget);
    expect((win as WindowsTarget).name).toBe('ZDesigner ZD420 (Bench)');
  });

  it('says what is missing when a target cannot work here', () => {
    expect(codeOf(() => createTarget('windows:X', { platform: 'linux', pdfToPrinter }))).toBe('PRINT_UNSUPPORTED');
    expect(codeOf(() => createTarget('windows:X', { platform: 'win32' }))).toBe('PRINT_UNSUPPORTED');
    expect(codeOf(() => createTarget('cups:X', { platform: 'win32' }))).toBe('PRINT_UNSUPPORTED');
    expect(codeOf(() => createTarget('service:p1', {}))).toBe('PRINT_UNSUPPORTED');
    expect(codeOf(() => createTarget('lpr:x', {}))).toBe('INVALID_PRINTER_URI');
  });
});
