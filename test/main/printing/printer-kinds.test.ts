import { describe, expect, it } from 'vitest';
import { createTarget, type TargetDeps } from '../../../src/main/printing/create-target';
import { PRINTER_KIND_REGISTRY } from '../../../src/main/printing/printer-kinds';
import { checkPrintersAtStart } from '../../../src/main/printing/startup-check';
import { VALID_PRINTER_URI_FORMS, formatPrinterUri, parsePrinterUri } from '../../../src/main/printing/uri';
import { PRINTER_KINDS, printerKindOf, type PrinterKind } from '../../../src/shared/printer-kinds';

/** What each kind's factory needs to build a target here (Windows pretended, nothing run). */
const DEPS: Readonly<Record<PrinterKind, TargetDeps>> = {
  zpl: {},
  cups: { platform: 'linux' },
  'zpl-cups': { platform: 'linux' },
  'zpl-windows': { platform: 'win32' },
  ipp: { platform: 'win32' },
  windows: { platform: 'win32', pdfToPrinter: { print: async () => undefined, getPrinters: async () => [] } },
  folder: { cwd: '/srv/station' },
  service: { service: { printToPrinter: async () => ({ output_url: 'https://example.test/out' }) } },
};

/** One URI for each form a kind lists. */
const EXAMPLES: Readonly<Record<PrinterKind, readonly [string, ...string[]]>> = {
  zpl: ['zpl://zebra-1.local:9101?dpi=300'],
  cups: ['cups:Zebra', 'cups:Zebra@print-host:631'],
  'zpl-cups': ['zpl-cups:Zebra_ZD420?dpi=203'],
  'zpl-windows': ['zpl-windows:ZDesigner ZD420 (USB)?dpi=300'],
  ipp: ['ipp://192.168.1.50:631/ipp/print', 'ipps://zebra.local:443/ipp/print'],
  windows: ['windows:ZDesigner GK420d'],
  folder: ['folder:/srv/prints', 'folder:/srv/prints?shared'],
  service: ['service:prn_1'],
};

describe('the printer-kind registry', () => {
  it('lists the URI forms of every kind, in the order of the kinds', () => {
    expect(VALID_PRINTER_URI_FORMS).toEqual([
      'zpl://HOST[:PORT][?dpi=203|300|600]',
      'ipp://HOST[:PORT]/PATH',
      'ipps://HOST[:PORT]/PATH',
      'cups:QUEUE',
      'cups:QUEUE@HOST:PORT',
      'zpl-cups:QUEUE[?dpi=203|300|600]',
      'windows:PRINTER NAME',
      'zpl-windows:PRINTER NAME[?dpi=203|300|600]',
      'folder:DIR',
      'folder:DIR?shared',
      'service:PRINTER_ID',
    ]);
    for (const kind of PRINTER_KINDS) expect(EXAMPLES[kind]).toHaveLength(PRINTER_KIND_REGISTRY[kind].forms.length);
  });

  it.each(PRINTER_KINDS)('parses and formats a %s URI as its own kind', (kind) => {
    for (const uri of EXAMPLES[kind]) {
      expect(printerKindOf(uri)).toBe(kind);
      const address = parsePrinterUri(uri, '/');
      expect(address.kind).toBe(kind);
      expect(formatPrinterUri(address)).toBe(uri);
    }
  });

  it.each(PRINTER_KINDS)('builds a %s target that says what the registry says of reconciling', (kind) => {
    const uri = EXAMPLES[kind][0];
    const target = createTarget(uri, DEPS[kind]);
    expect(target.kind).toBe(kind);
    expect(target.uri).toBe(uri);
    expect(target.reconcilable ?? true).toBe(PRINTER_KIND_REGISTRY[kind].reconcilable);
  });

  it('leaves kinds not checked at start out of the start-up check', async () => {
    const warnings: string[] = [];
    // A service printer cannot be built without the connection: were it checked, it would warn.
    await checkPrintersAtStart(['service:prn_1'], {}, (line) => warnings.push(line));
    expect(warnings).toEqual([]);
    // A kind that is checked, for another OS, stops the start in one line (every job to it would fail).
    await expect(checkPrintersAtStart(['windows:Zebra'], { platform: 'linux' }, (line) => warnings.push(line))).rejects.toMatchObject({
      code: 'PRINTER_UNUSABLE',
      message: expect.stringContaining('printer windows:Zebra: Windows printers print only on Windows, and this is linux'),
    });
    await expect(checkPrintersAtStart(['cups:Zebra'], { platform: 'win32' }, () => undefined)).rejects.toMatchObject({
      message: expect.stringContaining('CUPS queues print only on macOS and Linux: use windows:PRINTER NAME'),
    });
    expect(warnings).toEqual([]);
  });
});
