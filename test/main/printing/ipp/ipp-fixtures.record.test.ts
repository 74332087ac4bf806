/**
 * Records the IPP responses in test/fixtures/ipp/ from a real ippeveprinter and a private
 * cupsd in front of it. Skipped unless RECORD_IPP_FIXTURES=1:
 *   RECORD_IPP_FIXTURES=1 npx vitest run test/main/printing/ipp/ipp-fixtures.record.test.ts
 * The codec tests (ipp-codec.test.ts) read what it wrote.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { expect, it } from 'vitest';
import { CupsTarget } from '../../../../src/main/printing/cups/cups-target';
import { TAG, baseAttrs, decodeIppResponse, encodeIppRequest, type Attr } from '../../../../src/main/printing/ipp/ipp';
import { ippPost } from '../../../../src/main/printing/ipp/ipp-connection';
import { labelSpoolRequest, startPrivateCups } from '../../../support/cups';
import { startIppEvePrinter } from '../../../support/ippeveprinter';

const DIR = path.join(import.meta.dirname, '../../../fixtures/ipp');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ask(server: string, resource: string, operation: number, attrs: Attr[]): Promise<Buffer> {
  return ippPost(server, resource, encodeIppRequest(operation, 1, [...baseAttrs(), ...attrs]));
}
const all = (extra: string[] = []): Attr => ({ tag: TAG.keyword, name: 'requested-attributes', values: ['all', ...extra] });
const printerUri = (uri: string): Attr => ({ tag: TAG.uri, name: 'printer-uri', values: [uri] });

it.runIf(process.env.RECORD_IPP_FIXTURES === '1')('records IPP responses from ippeveprinter and cupsd', { timeout: 120_000 }, async () => {
  const eve = await startIppEvePrinter();
  const a4 = await startIppEvePrinter({ media: ['iso_a4_210x297mm', 'na_letter_8.5x11in'] });
  const cups = await startPrivateCups();
  const save = (name: string, body: Buffer) => fs.writeFile(path.join(DIR, name), body);
  try {
    await cups.addIppQueue('L', eve.uri);
    await cups.addIppQueue('A4', a4.uri);
    const doc = await PDFDocument.create();
    doc.addPage([288, 432]);
    const pdf = await doc.save();
    const queue = new CupsTarget({ uri: 'cups:L', queue: 'L', env: cups.env, checkReadiness: false });
    const job = (id: number) =>
      ask(cups.server, '/jobs', 0x09, [{ tag: TAG.uri, name: 'job-uri', values: [`ipp://localhost/jobs/${id}`] }, all()]);
    const ended = async (id: number): Promise<Buffer> => {
      for (let i = 0; i < 200; i++) {
        const body = await job(id);
        const state = decodeIppResponse(body)
          .groups.find((g) => g.tag === TAG.job)
          ?.attrs.get('job-state')?.[0];
        if (state === 7 || state === 8 || state === 9) return body;
        await sleep(100);
      }
      throw new Error(`job ${id} did not end`);
    };
    const idOf = (spoolerJobId: string | null) => Number(spoolerJobId!.split('-').at(-1));

    await save(
      'ippeveprinter-get-printer-attributes.bin',
      await ask(eve.host, '/ipp/print', 0x0b, [printerUri(eve.uri), all(['media-col-database'])]),
    );
    const printed = idOf((await queue.spool(labelSpoolRequest('fx', pdf))).spoolerJobId);
    await save('cupsd-get-job-attributes-completed.bin', await ended(printed));
    await save(
      'ippeveprinter-get-jobs.bin',
      await ask(eve.host, '/ipp/print', 0x0a, [printerUri(eve.uri), { tag: TAG.keyword, name: 'which-jobs', values: ['all'] }, all()]),
    );
    await save(
      'cupsd-get-printer-attributes.bin',
      await ask(cups.server, '/printers/L', 0x0b, [printerUri('ipp://localhost/printers/L'), all()]),
    );

    await eve.kill();
    const waiting = idOf((await queue.spool(labelSpoolRequest('fx', pdf))).spoolerJobId);
    for (let i = 0; i < 100; i++) {
      const body = await ask(cups.server, '/printers/L', 0x0b, [printerUri('ipp://localhost/printers/L'), all()]);
      if (body.includes('may not exist')) {
        await save('cupsd-get-printer-attributes-unreachable.bin', body);
        break;
      }
      await sleep(100);
    }
    await eve.restart();
    await ended(waiting);

    await eve.setPrintSeconds(5);
    const lost = idOf((await queue.spool(labelSpoolRequest('fx', pdf))).spoolerJobId);
    for (let i = 0; i < 100 && !(await eve.printing()); i++) await sleep(100);
    await eve.kill();
    await eve.setPrintSeconds(0.2);
    await eve.restart();
    await save('cupsd-get-job-attributes-missing-history.bin', await ended(lost));

    const refusing = new CupsTarget({ uri: 'cups:A4', queue: 'A4', env: cups.env, checkReadiness: false });
    await save(
      'cupsd-get-job-attributes-refused.bin',
      await ended(idOf((await refusing.spool(labelSpoolRequest('fx', pdf))).spoolerJobId)),
    );
    expect((await fs.readdir(DIR)).length).toBeGreaterThanOrEqual(7);
  } finally {
    await cups.stop();
    await eve.stop();
    await a4.stop();
  }
});
