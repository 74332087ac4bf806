import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PrintError } from '../../../src/main/printing/errors';
import { formatPrinterUri, parsePrinterUri } from '../../../src/main/printing/uri';

describe('printer URIs', () => {
  it.each([
    ['cups:Zebra', { kind: 'cups', queue: 'Zebra', server: null }],
    ['cups:Zebra_1@print-host.local:631', { kind: 'cups', queue: 'Zebra_1', server: 'print-host.local:631' }],
    ['cups:Q@127.0.0.1:8631', { kind: 'cups', queue: 'Q', server: '127.0.0.1:8631' }],
    ['cups:Q@[::1]:631', { kind: 'cups', queue: 'Q', server: '[::1]:631' }],
    ['cups:Zebra Bench 1', { kind: 'cups', queue: 'Zebra Bench 1', server: null }],
    ['windows:ZDesigner ZD420-203dpi ZPL', { kind: 'windows', name: 'ZDesigner ZD420-203dpi ZPL' }],
    ['windows:\\\\server\\Shared Label: 2', { kind: 'windows', name: '\\\\server\\Shared Label: 2' }],
    ['folder:/var/prints', { kind: 'folder', dir: '/var/prints', shared: false }],
    ['folder:/var/hot folder?shared', { kind: 'folder', dir: '/var/hot folder', shared: true }],
    ['service:prn_123', { kind: 'service', printerId: 'prn_123' }],
  ])('parses %s', (uri, expected) => {
    expect(parsePrinterUri(uri, '/work')).toEqual(expected);
    expect(formatPrinterUri(parsePrinterUri(uri, '/work'))).toBe(uri);
  });

  it('resolves a relative folder against the given cwd', () => {
    expect(parsePrinterUri('folder:./demo-prints', '/srv/station')).toEqual({
      kind: 'folder',
      dir: path.resolve('/srv/station', 'demo-prints'),
      shared: false,
    });
    expect(parsePrinterUri('folder:out', '/srv')).toEqual({ kind: 'folder', dir: '/srv/out', shared: false });
  });

  it('reads ipp:// and ipps:// printers: host, port (631 unless given), path, and TLS for ipps', () => {
    expect(parsePrinterUri('ipp://192.168.1.50/ipp/print')).toEqual({
      kind: 'ipp',
      tls: false,
      host: '192.168.1.50',
      port: 631,
      path: '/ipp/print',
    });
    expect(parsePrinterUri('ipps://zebra.local:8443/ipp/print')).toEqual({
      kind: 'ipp',
      tls: true,
      host: 'zebra.local',
      port: 8443,
      path: '/ipp/print',
    });
    expect(parsePrinterUri('ipp://[fe80::1]:631/printers/Zebra')).toMatchObject({ host: '[fe80::1]', path: '/printers/Zebra' });
  });

  it.each([
    '',
    'Zebra',
    'ipp:host/ipp/print',
    'ipp://host',
    'ipp://host/',
    'ipp://user:secret@host/ipp/print',
    'ipps://host:99999/ipp/print',
    'ipp://host/ipp/print?x=1',
    'cups:',
    'cups:a/b',
    'cups:Q@host',
    'cups:Q@host:99999',
    'windows:',
    'folder:',
    'service:',
    'service:two words',
    'lpd:q',
  ])('rejects %j with a coded error listing the valid forms', (uri) => {
    let error: unknown;
    try {
      parsePrinterUri(uri);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PrintError);
    expect((error as PrintError).code).toBe('INVALID_PRINTER_URI');
    expect((error as PrintError).retryable).toBe(false);
    for (const form of [
      'cups:QUEUE',
      'cups:QUEUE@HOST:PORT',
      'windows:PRINTER NAME',
      'folder:DIR',
      'folder:DIR?shared',
      'service:PRINTER_ID',
    ]) {
      expect((error as PrintError).message).toContain(form);
    }
  });
});
