import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStation, type Station } from '../../support/agent-harness';
import { startIppEvePrinter, type IppEvePrinter } from '../../support/ippeveprinter';
import { shipmentsInPdfs } from '../../support/reliability/pdf-shipments';

/** The headless agent with an ipp:// label printer (ippeveprinter): start-up line, printers list, a booking printed there. */
describe('the agent with an ipp:// printer', () => {
  let station: Station;
  const printers: IppEvePrinter[] = [];

  beforeEach(async () => {
    station = await startStation();
  });
  afterEach(async () => {
    await station.close();
    for (const printer of printers.splice(0)) await printer.stop();
  });

  it('names a label printer without 4x6 media at start and in the printers list, with what it offers', async () => {
    const a4 = await startIppEvePrinter({ media: ['iso_a4_210x297mm', 'na_letter_8.5x11in'] });
    printers.push(a4);
    const { agent } = await station.start({ printer: a4.uri, documentPrinter: `folder:${join(station.dir, 'a4')}` });
    const words = `The printer ${a4.uri} does not list 4x6 in labels in the media it supports (it offers: iso_a4_210x297mm, na_letter_8.5x11in)`;
    expect(station.lines.some((line) => line.includes(`printer ${a4.uri}: ${words}`))).toBe(true);
    const listed = (await agent.api.listPrinters({})).find((p) => p.uri === a4.uri);
    expect(listed).toMatchObject({ kind: 'ipp', ready: false, roles: ['label'] });
    expect(listed!.detail).toContain(words);
  });

  it('prints a booking on the printer, completed when the printer says so; a printer switched off is not ready in words', async () => {
    const eve = await startIppEvePrinter();
    printers.push(eve);
    const { agent } = await station.start({ printer: eve.uri, documentPrinter: `folder:${join(station.dir, 'a4')}` });
    expect((await agent.api.listPrinters({})).find((p) => p.uri === eve.uri)).toMatchObject({ kind: 'ipp', ready: true, detail: null });

    const booked = await station.sandbox.bookShipment({ reference_id: 'IPP-1' });
    await expect.poll(async () => (await agent.api.listJobs({ search: 'IPP-1' }))[0]?.state, { timeout: 30_000 }).toBe('completed');
    expect(await shipmentsInPdfs(await eve.outputs())).toEqual([booked.shipmentId]);

    await eve.kill();
    const down = (await agent.api.listPrinters({})).find((p) => p.uri === eve.uri);
    expect(down).toMatchObject({ ready: false });
    expect(down!.detail).toMatch(/cannot be reached \(ECONNREFUSED\): check that it is on and connected/);
  });
});
