/** The `ipp://HOST[:PORT]/PATH` kind (`ipps://` over TLS): a PDF straight to a printer that speaks IPP. */
import { PRINTER_KIND_FIELDS } from '../../../shared/printer-kinds';
import { PRINT_ERROR_CODES, PrintError } from '../errors';
import { CHECK_OK, readinessCheck } from '../printer-check';
import { printerKindEntryOf, unsupported } from '../printer-kind-entry';
import { ippUriRef } from './ipp';
import { IppTarget } from './ipp-target';

export const ippKind = printerKindEntryOf({
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
  batches: true,
  readinessMinIntervalMs: 0,
  checkedAtStart: true,
  async checkAtStart(target, media) {
    if (!(target instanceof IppTarget)) return readinessCheck(target);
    // A printer that answers at another path exists nowhere as configured; one that is
    // off, busy, lacks the media or does not take PDF warns with what it says and offers.
    const problem = await target.check(media).catch((error: unknown) => error as Error);
    if (!problem) return CHECK_OK;
    if (problem instanceof PrintError && problem.code === PRINT_ERROR_CODES.PRINTER_NOT_FOUND) {
      return { fatal: `printer ${target.uri}: ${problem.message}`, warning: null };
    }
    return { fatal: null, warning: `printer ${target.uri}: ${problem.message}` };
  },
  fields: PRINTER_KIND_FIELDS.ipp,
});
