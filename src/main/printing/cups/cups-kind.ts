/** The `cups:QUEUE[@HOST:PORT]` kind: a PDF to a CUPS queue, over IPP to the scheduler or through lp. */
import { PRINTER_KIND_FIELDS } from '../../../shared/printer-kinds';
import { mediaCheck, readinessCheck } from '../printer-check';
import { printerKindEntryOf, unsupported } from '../printer-kind-entry';
import { cupsPrinters } from './cups-discovery';
import { checkCupsQueue } from './cups-startup-check';
import { CupsTarget } from './cups-target';

// A trailing `@host:port` (IPv6 hosts in brackets) addresses another scheduler. CUPS queue
// names may not contain "@", so the last "@" is always the separator.
const REMOTE = /^(.+)@(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

export const cupsKind = printerKindEntryOf({
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
  batches: true,
  readinessMinIntervalMs: 0,
  checkedAtStart: true,
  async checkAtStart(target, media) {
    if (!(target instanceof CupsTarget)) return readinessCheck(target);
    const check = await checkCupsQueue(target, await target.check());
    return check.fatal || check.warning || !media ? check : mediaCheck(target, media);
  },
  discover: (deps, platform) => (platform === 'win32' ? null : cupsPrinters(deps)),
  fields: PRINTER_KIND_FIELDS.cups,
});
