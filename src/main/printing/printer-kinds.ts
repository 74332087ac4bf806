/**
 * The printer kinds, the main process's half of their registry: per kind, the URI forms it
 * accepts, its URI parser, the factory of its target, whether its jobs can be reconciled
 * after a crash and whether its readiness is checked at start. The kind names and the words
 * the UI shows are the shared half (src/shared/printer-kinds.ts); this table is typed
 * against its PRINTER_KINDS, so a kind there and not here (or here and not there) fails the
 * typecheck. uri.ts and create-target.ts only look kinds up here.
 */
import path from 'node:path';
import type { PrinterKind } from '../../shared/printer-kinds';
import type { TargetDeps } from './create-target';
import { CupsTarget } from './cups/cups-target';
import { PRINT_ERROR_CODES, PrintError } from './errors';
import { FolderTarget, SHARED_FOLDER_SUFFIX } from './folder/folder-target';
import { ippUriRef } from './ipp/ipp';
import { IppTarget } from './ipp/ipp-target';
import { ServiceTarget } from './service/service-target';
import type { PrinterTarget } from './target';
import { WindowsSpooler } from './windows/windows-spooler';
import { WindowsTarget } from './windows/windows-target';
import { ZplCupsTarget } from './zpl/zpl-cups-target';
import { parseZplAddress, splitDpi, type ZplAddress } from './zpl/zpl-uri';
import { ZplTarget } from './zpl/zpl-target';
import { ZplWindowsTarget } from './zpl/zpl-windows-target';

export interface ParseContext {
  /** Base for relative paths (folder:). */
  readonly cwd: string;
  /** Throws INVALID_PRINTER_URI saying why and which forms are valid. */
  readonly fail: (why: string) => never;
  /** The URI's scheme: the kind's name, or another scheme naming it (`ipps` for `ipp`). */
  readonly scheme: string;
}

export interface CreateContext {
  /** The whole printer URI, as configured. */
  readonly uri: string;
  readonly deps: TargetDeps;
  /** `deps.platform`, defaulted to process.platform. */
  readonly platform: NodeJS.Platform;
}

/** One kind's entry; `A` is what its URIs say (after `kind:`), taken apart. */
export interface PrinterKindEntry<A extends object> {
  /** The URI forms, for the error that lists them (docs/INTERFACES.md, Printer URIs). */
  readonly forms: readonly string[];
  /** Takes apart what follows `kind:`; calls `context.fail` on anything else. */
  parse(rest: string, context: ParseContext): A;
  /** The canonical text after `kind:`: parse(format(a)) gives `a` back. */
  format(address: A): string;
  /** The URI scheme for an address when it is not always the kind's name (`ipps`). */
  scheme?(address: A): string;
  /** The target for a parsed URI. @throws PrintError PRINT_UNSUPPORTED when it cannot work here */
  create(address: A, context: CreateContext): PrinterTarget;
  /**
   * Whether the targets create() builds can find a job after a crash (`findSpooled` sees the
   * spooler). False: a job caught mid-hand-over fails as "may have printed" instead of being
   * looked up (see PrinterTarget.reconcilable, which the target itself reports).
   */
  readonly reconcilable: boolean;
  /**
   * Whether the start-up check asks this printer's readiness. False for printers that need
   * the connection to the service (the key check covers it).
   */
  readonly checkedAtStart: boolean;
}

/** Infers an entry's address type from its parser. */
function entry<A extends object>(spec: PrinterKindEntry<A>): PrinterKindEntry<A> {
  return spec;
}

function unsupported(uri: string, message: string): PrintError {
  return new PrintError(PRINT_ERROR_CODES.UNSUPPORTED, message, { target: uri });
}

// A trailing `@host:port` (IPv6 hosts in brackets) addresses another scheduler. CUPS queue
// names may not contain "@", so the last "@" is always the separator.
const REMOTE = /^(.+)@(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

export const PRINTER_KIND_REGISTRY = {
  zpl: entry({
    forms: ['zpl://HOST[:PORT][?dpi=203|300|600]'],
    parse: (rest, { fail }): ZplAddress => parseZplAddress(rest, fail),
    format: ({ host, port, dpi }) =>
      `//${host.includes(':') ? `[${host}]` : host}${port === 9100 ? '' : `:${port}`}${dpi === null ? '' : `?dpi=${dpi}`}`,
    create: ({ host, port, dpi }, { uri }) => new ZplTarget({ uri, host, port, dpi }),
    // Labels sent to the printer cannot be listed from it after a restart.
    reconcilable: false,
    checkedAtStart: true,
  }),
  cups: entry({
    forms: ['cups:QUEUE', 'cups:QUEUE@HOST:PORT'],
    parse(rest, { fail }): { readonly queue: string; readonly server: string | null } {
      if (rest.trim() === '') fail('no queue name');
      const remote = REMOTE.exec(rest);
      if (remote) {
        const port = Number(remote[3]);
        if (port < 1 || port > 65535) fail(`port ${remote[3]} is out of range`);
        return { queue: remote[1]!, server: `${remote[2]}:${port}` };
      }
      if (rest.includes('@')) fail('a remote scheduler is written QUEUE@HOST:PORT');
      if (/[/#\\?'"\t]/.test(rest)) fail('CUPS queue names cannot contain / # \\ ? quotes or tabs');
      return { queue: rest, server: null };
    },
    format: (address) => (address.server ? `${address.queue}@${address.server}` : address.queue),
    create({ queue, server }, { uri, deps, platform }) {
      if (platform === 'win32') throw unsupported(uri, `${uri}: CUPS printing needs macOS or Linux; on Windows use windows:PRINTER NAME.`);
      return new CupsTarget({ uri, queue, server, env: deps.env, exec: deps.exec, spool: deps.cupsSpool, log: deps.log });
    },
    reconcilable: true,
    checkedAtStart: true,
  }),
  ipp: entry({
    forms: ['ipp://HOST[:PORT]/PATH', 'ipps://HOST[:PORT]/PATH'],
    parse(rest, { fail, scheme }): { readonly tls: boolean; readonly host: string; readonly port: number; readonly path: string } {
      let url: URL;
      try {
        url = new URL(`${scheme}:${rest}`);
      } catch {
        return fail('an IPP printer is written ipp://HOST[:PORT]/PATH, e.g. ipp://192.168.1.50/ipp/print');
      }
      if (!rest.startsWith('//') || url.hostname === '') fail('no printer host: ipp://HOST[:PORT]/PATH');
      if (url.username || url.password) fail('credentials do not belong in a printer URI');
      if (url.search || url.hash) fail('an IPP printer URI has no ? or # part');
      const path = url.pathname === '' || url.pathname === '/' ? fail('no path: most printers answer at /ipp/print') : url.pathname;
      return { tls: scheme === 'ipps', host: url.hostname, port: url.port ? Number(url.port) : 631, path };
    },
    // The port is always written: parse(format(a)) must give the same address back.
    format: (address) => `//${address.host}:${address.port}${address.path}`,
    scheme: (address) => (address.tls ? 'ipps' : 'ipp'),
    create({ tls, host, port, path: resource }, { uri }) {
      const ref = ippUriRef(`${tls ? 'ipps' : 'ipp'}://${host}:${port}${resource}`);
      if (!ref) throw unsupported(uri, `${uri}: not an IPP printer address.`);
      // The printer-uri in each request is the URI as configured (the printer's own name for itself).
      return new IppTarget({ uri, ref: { ...ref, printerUri: uri } });
    },
    reconcilable: true,
    checkedAtStart: true,
  }),
  'zpl-cups': entry({
    forms: ['zpl-cups:QUEUE[?dpi=203|300|600]'],
    parse(rest, { fail }): { readonly queue: string; readonly dpi: ZplAddress['dpi'] } {
      const { name: queue, dpi } = splitDpi(rest, fail);
      if (queue.trim() === '') fail('no queue name');
      if (/[/#\\?'"\t@]/.test(queue)) fail('CUPS queue names cannot contain / # \\ ? @ quotes or tabs');
      return { queue, dpi };
    },
    format: ({ queue, dpi }) => (dpi === null ? queue : `${queue}?dpi=${dpi}`),
    create({ queue, dpi }, { uri, deps, platform }) {
      if (platform === 'win32')
        throw unsupported(uri, `${uri}: CUPS printing needs macOS or Linux; on Windows use zpl-windows:PRINTER NAME.`);
      return new ZplCupsTarget({ uri, queue, dpi: dpi ?? undefined, env: deps.env, exec: deps.exec, log: deps.log });
    },
    reconcilable: true,
    checkedAtStart: true,
  }),
  windows: entry({
    forms: ['windows:PRINTER NAME'],
    parse(rest, { fail }): { readonly name: string } {
      // The exact Windows printer name: spaces and punctuation are part of it.
      if (rest.trim() === '') fail('no printer name');
      return { name: rest };
    },
    format: (address) => address.name,
    create({ name }, { uri, deps, platform }) {
      if (platform !== 'win32') throw unsupported(uri, `${uri}: Windows printers print only on Windows; on ${platform} use cups:QUEUE.`);
      if (!deps.pdfToPrinter) throw unsupported(uri, `${uri}: the pdf-to-printer module is not loaded.`);
      return new WindowsTarget({
        uri,
        name,
        pdfToPrinter: deps.pdfToPrinter,
        sumatraPdfPath: deps.sumatraPdfPath,
        spooler: deps.windowsSpooler ?? new WindowsSpooler({ env: deps.env, exec: deps.exec }),
      });
    },
    // Through PowerShell's Get-PrintJob, which create() always wires.
    reconcilable: true,
    checkedAtStart: true,
  }),
  'zpl-windows': entry({
    forms: ['zpl-windows:PRINTER NAME[?dpi=203|300|600]'],
    parse(rest, { fail }): { readonly name: string; readonly dpi: ZplAddress['dpi'] } {
      const { name, dpi } = splitDpi(rest, fail);
      if (name.trim() === '') fail('no printer name');
      return { name, dpi };
    },
    format: ({ name, dpi }) => (dpi === null ? name : `${name}?dpi=${dpi}`),
    create({ name, dpi }, { uri, deps, platform }) {
      if (platform !== 'win32')
        throw unsupported(uri, `${uri}: Windows printers print only on Windows; on ${platform} use zpl-cups:QUEUE.`);
      const spooler = deps.windowsSpooler ?? new WindowsSpooler({ env: deps.env, exec: deps.exec });
      return new ZplWindowsTarget({ uri, name, dpi: dpi ?? undefined, spooler, env: deps.env, exec: deps.exec });
    },
    // Labels handed over are followed, but not looked up by name after a crash.
    reconcilable: false,
    checkedAtStart: true,
  }),
  folder: entry({
    forms: ['folder:DIR', `folder:DIR${SHARED_FOLDER_SUFFIX}`],
    parse(rest, { cwd, fail }): { readonly dir: string; readonly shared: boolean } {
      // `?shared`: a hot folder another program (another account) reads; private otherwise.
      const shared = rest.endsWith(SHARED_FOLDER_SUFFIX);
      const folder = shared ? rest.slice(0, -SHARED_FOLDER_SUFFIX.length) : rest;
      if (folder.trim() === '') fail('no folder');
      return { dir: path.resolve(cwd, folder), shared };
    },
    format: (address) => `${address.dir}${address.shared ? SHARED_FOLDER_SUFFIX : ''}`,
    create: ({ dir, shared }, { uri, deps }) => new FolderTarget({ uri, dir, shared, fs: deps.fs }),
    reconcilable: true,
    checkedAtStart: true,
  }),
  service: entry({
    forms: ['service:PRINTER_ID'],
    parse(rest, { fail }): { readonly printerId: string } {
      if (rest.trim() === '' || /\s/.test(rest)) fail('the service printer id is one word');
      return { printerId: rest };
    },
    format: (address) => address.printerId,
    create({ printerId }, { uri, deps }) {
      if (!deps.service)
        throw unsupported(uri, `${uri}: service printing needs a connection to the service; set the API URL and key first.`);
      return new ServiceTarget({ uri, printerId, service: deps.service });
    },
    // The service offers no way to list what it printed.
    reconcilable: false,
    checkedAtStart: false,
  }),
} satisfies Readonly<Record<PrinterKind, object>>;

/** What a URI of kind K says after `kind:`, taken apart by the kind's parser. */
export type AddressFields<K extends PrinterKind> = ReturnType<(typeof PRINTER_KIND_REGISTRY)[K]['parse']>;

/**
 * One kind's entry, typed by its own address. (Looked up with a union of kinds, the table
 * gives a union of entries, which TypeScript cannot call with a union of addresses.)
 */
export function printerKindEntry<K extends PrinterKind>(kind: K): PrinterKindEntry<AddressFields<K>> {
  return PRINTER_KIND_REGISTRY[kind] as unknown as PrinterKindEntry<AddressFields<K>>;
}
