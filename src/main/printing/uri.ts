import path from 'node:path';
import { PRINT_ERROR_CODES, PrintError } from './errors';

/** A printer URI (docs/INTERFACES.md, Printer URIs) taken apart. */
export type PrinterAddress =
  | { readonly kind: 'cups'; readonly queue: string; readonly server: string | null }
  | { readonly kind: 'windows'; readonly name: string }
  | { readonly kind: 'folder'; readonly dir: string }
  | { readonly kind: 'service'; readonly printerId: string };

export const VALID_PRINTER_URI_FORMS = [
  'cups:QUEUE',
  'cups:QUEUE@HOST:PORT',
  'windows:PRINTER NAME',
  'folder:DIR',
  'service:PRINTER_ID',
] as const;

function invalid(uri: string, why: string): PrintError {
  return new PrintError(
    PRINT_ERROR_CODES.INVALID_PRINTER_URI,
    `Printer "${uri}" is not a valid printer URI (${why}). Use one of: ${VALID_PRINTER_URI_FORMS.join(', ')}.`,
    { target: uri },
  );
}

// A trailing `@host:port` (IPv6 hosts in brackets) addresses another scheduler. CUPS queue
// names may not contain "@", so the last "@" is always the separator.
const REMOTE = /^(.+)@(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/**
 * Parses a printer URI. `folder:` paths are resolved against `cwd` so the target keeps
 * working when the process changes directory.
 * @throws PrintError INVALID_PRINTER_URI saying which forms are valid.
 */
export function parsePrinterUri(uri: string, cwd: string = process.cwd()): PrinterAddress {
  const colon = uri.indexOf(':');
  if (colon <= 0) throw invalid(uri, 'no scheme');
  const scheme = uri.slice(0, colon);
  const rest = uri.slice(colon + 1);
  switch (scheme) {
    case 'cups': {
      if (rest.trim() === '') throw invalid(uri, 'no queue name');
      const remote = REMOTE.exec(rest);
      if (remote) {
        const port = Number(remote[3]);
        if (port < 1 || port > 65535) throw invalid(uri, `port ${remote[3]} is out of range`);
        return { kind: 'cups', queue: remote[1]!, server: `${remote[2]}:${port}` };
      }
      if (rest.includes('@')) throw invalid(uri, 'a remote scheduler is written QUEUE@HOST:PORT');
      if (/[/#\\?'"\t]/.test(rest)) throw invalid(uri, 'CUPS queue names cannot contain / # \\ ? quotes or tabs');
      return { kind: 'cups', queue: rest, server: null };
    }
    case 'windows':
      // The exact Windows printer name: spaces and punctuation are part of it.
      if (rest.trim() === '') throw invalid(uri, 'no printer name');
      return { kind: 'windows', name: rest };
    case 'folder':
      if (rest.trim() === '') throw invalid(uri, 'no folder');
      return { kind: 'folder', dir: path.resolve(cwd, rest) };
    case 'service':
      if (rest.trim() === '' || /\s/.test(rest)) throw invalid(uri, 'the service printer id is one word');
      return { kind: 'service', printerId: rest };
    default:
      throw invalid(uri, `unknown scheme "${scheme}"`);
  }
}

/** The canonical URI for an address; `parsePrinterUri(formatPrinterUri(a))` gives `a` back. */
export function formatPrinterUri(address: PrinterAddress): string {
  switch (address.kind) {
    case 'cups':
      return address.server ? `cups:${address.queue}@${address.server}` : `cups:${address.queue}`;
    case 'windows':
      return `windows:${address.name}`;
    case 'folder':
      return `folder:${address.dir}`;
    case 'service':
      return `service:${address.printerId}`;
  }
}
