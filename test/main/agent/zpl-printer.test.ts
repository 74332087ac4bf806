import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStation, waitFor, type Station } from '../../support/agent-harness';
import { startZplPrinter, type ZplPrinter, type ZplPrinterState } from '../../support/zpl-printer';
import { ZplReader } from '../../support/zpl-render';

let station: Station;
let printer: ZplPrinter;
let reader: ZplReader;
let uri: string;
beforeEach(async () => {
  station = await startStation();
  printer = await startZplPrinter();
  reader = await ZplReader.create();
  // No ?dpi: the agent asks the printer (~HI).
  uri = `zpl://127.0.0.1:${printer.port}`;
});
afterEach(async () => {
  await station.close();
  await printer.close();
  await reader.dispose();
});

/** The printer's readiness as the bridge shows it (Settings, state bar). */
async function shown(): Promise<{ ready: boolean | null; detail: string | null }> {
  const info = (await station.agent!.agent.api.listPrinters({})).find((p) => p.uri === uri);
  return { ready: info!.ready, detail: info!.detail };
}

describe('an agent printing to a ZPL printer (zpl://)', () => {
  it('prints a booking as a ZPL label whose barcode reads as the booking’s tracking number', { timeout: 60_000 }, async () => {
    const { agent } = await station.start({ printer: uri });
    const booked = await station.sandbox.bookShipment({ reference_id: 'ZPL-1' });
    await waitFor(() => printer.printed.length === 1, 'the label printed', 20_000);
    await waitFor(async () => (await agent.api.listJobs({ search: 'ZPL-1' }))[0]?.state === 'completed', 'the job completed');
    expect(printer.formats).toHaveLength(1);
    const [png] = await reader.renderPngs(printer.formats[0]!, 812 / 8, 1218 / 8, 8);
    expect(await reader.barcodes(png!)).toEqual([`CODE-128:${booked.trackingId}`]);
  });

  it.each<[Partial<ZplPrinterState>, RegExp]>([
    [{ paperOut: true }, /paper out.*media/],
    [{ headUp: true }, /head open/],
    [{ paused: true }, /paused/],
    [{ ribbonOut: true }, /ribbon out/],
    // Newer firmware: ~HS unanswered while faulted, ~HQES says why.
    [{ headUp: true, quietWhenFaulted: true }, /head open/],
  ])(
    'shows %o in the printer’s words within 10 s; the labels wait and print once when it is ready again',
    { timeout: 60_000 },
    async (fault, words) => {
      const { agent } = await station.start({ printer: uri });
      await waitFor(async () => (await shown()).ready === true, 'the printer ready');
      printer.set(fault);
      const changed = Date.now();
      await waitFor(async () => words.test((await shown()).detail ?? ''), 'the condition shown', 10_000);
      expect(Date.now() - changed).toBeLessThan(10_000);
      expect((await shown()).ready).toBe(false);

      const booked = await Promise.all([1, 2].map((i) => station.sandbox.bookShipment({ reference_id: `WAIT-${i}` })));
      await waitFor(async () => (await agent.api.listJobs({ search: 'WAIT-' })).length === 2, 'two jobs');
      await new Promise((r) => setTimeout(r, 1000));
      expect(printer.formats, 'nothing sent while the printer is not ready').toEqual([]);

      printer.set({ paperOut: false, headUp: false, paused: false, ribbonOut: false });
      await waitFor(() => printer.printed.length >= 2, 'the waiting labels printed', 20_000);
      await waitFor(async () => (await agent.api.listJobs({ search: 'WAIT-' })).every((j) => j.state === 'completed'), 'both completed');
      await new Promise((r) => setTimeout(r, 500));
      expect(printer.printed).toHaveLength(2);
      const read = new Set<string>();
      for (const format of printer.formats) {
        for (const png of await reader.renderPngs(format, 812 / 8, 1218 / 8, 8))
          for (const code of await reader.barcodes(png)) read.add(code);
      }
      expect([...read].sort()).toEqual(booked.map((b) => `CODE-128:${b.trackingId}`).sort());
      expect((await shown()).ready).toBe(true);
    },
  );

  it('sends a burst in batches, each batch one connection with one label format a page', { timeout: 60_000 }, async () => {
    const { agent } = await station.start({ printer: uri });
    await waitFor(async () => (await shown()).ready === true, 'the printer ready');
    await Promise.all(Array.from({ length: 12 }, (_, i) => station.sandbox.bookShipment({ reference_id: `BURST-${i}` })));
    await waitFor(() => printer.printed.length === 12, 'twelve labels printed', 30_000);
    await waitFor(async () => (await agent.api.listJobs({ search: 'BURST-' })).every((j) => j.state === 'completed'), 'all completed');
    expect(printer.formats).toHaveLength(12);
    // The first label goes alone at once; what queued behind it goes in batches, a batch a connection.
    expect(printer.labelConnections()).toBeLessThan(12);
  });

  it('prints "Test page" as the ZPL test label: a ruler, the dpi and what the printer says it is', { timeout: 60_000 }, async () => {
    printer.set({ dotsPerMm: 12, model: 'ZT411-300dpi' });
    const { agent } = await station.start({ printer: uri });
    const job = await agent.api.testPrint({ printer: uri });
    await waitFor(() => printer.formats.length === 1, 'the test label');
    await waitFor(async () => (await agent.api.listJobs({}))[0]?.state === 'completed', 'the test page completed');
    expect(job.target).toBe(uri);
    const [format] = printer.formats;
    expect(format).toContain('Rendered at: 300 dpi');
    expect(format).toContain('Printer identity: ZT411-300dpi V92.21.39Z, 12 dots/mm');
    expect(format).toMatch(/^\^XA\^CI28\^PW1200\^LL1800/);
  });

  it('counts a printer that refuses connections as down: its labels wait, then print once it is back', { timeout: 60_000 }, async () => {
    const { agent } = await station.start({ printer: uri });
    await printer.stop();
    await waitFor(async () => /does not answer/.test((await shown()).detail ?? ''), 'the printer shown down', 10_000);
    await station.sandbox.bookShipment({ reference_id: 'DOWN-1' });
    await waitFor(async () => (await agent.api.listJobs({ search: 'DOWN-1' })).length === 1, 'the job');
    await new Promise((r) => setTimeout(r, 500));
    await printer.start();
    await waitFor(() => printer.printed.length === 1, 'the label printed', 20_000);
    await waitFor(async () => (await agent.api.listJobs({ search: 'DOWN-1' }))[0]?.state === 'completed', 'the job completed');
    expect(printer.formats).toHaveLength(1);
  });

  it(
    'sends each label once to a device that never answers (a plain 9100 sink): the jobs stay spooled with words saying so, readiness says it does not report its state',
    { timeout: 60_000 },
    async () => {
      printer.set({ silent: true });
      const sink = `zpl://127.0.0.1:${printer.port}?dpi=203`;
      uri = sink;
      const { agent } = await station.start({ printer: sink });
      await waitFor(async () => /does not report its state/.test((await shown()).detail ?? ''), 'the sink shown', 10_000);
      expect((await shown()).ready).toBe(true);
      await Promise.all([1, 2, 3].map((i) => station.sandbox.bookShipment({ reference_id: `SINK-${i}` })));
      await waitFor(() => printer.formats.length === 3, 'three labels sent', 30_000);
      await waitFor(async () => (await agent.api.listJobs({ search: 'SINK-' })).every((j) => j.state === 'spooled'), 'all handed over');
      await new Promise((r) => setTimeout(r, 3000));
      const jobs = await agent.api.listJobs({ search: 'SINK-' });
      expect(jobs.map((j) => j.state)).toEqual(['spooled', 'spooled', 'spooled']);
      for (const job of jobs) expect(job.reason).toMatch(/cannot be confirmed/);
      expect(printer.formats).toHaveLength(3);
    },
  );

  it(
    'puts each state the printer can be in into the status (window state bar, tray) in its words within 10 s, with no label waiting, and takes it out when ready',
    { timeout: 90_000 },
    async () => {
      const { agent } = await station.start({ printer: uri });
      const problem = async (): Promise<string> =>
        (await agent.api.getStatus({})).printerProblems?.find((p) => p.uri === uri)?.detail ?? '';
      const events: string[] = [];
      const unsubscribe = agent.subscribe((event) => {
        if (event.type === 'status') events.push(event.status.printerProblems?.[0]?.detail ?? '');
      });
      try {
        for (const [fault, words] of [
          [{ paperOut: true }, /paper out.*media/],
          [{ headUp: true }, /head open/],
          [{ paused: true }, /paused/],
        ] as const) {
          printer.set(fault);
          const changed = Date.now();
          await waitFor(async () => words.test(await problem()), `${JSON.stringify(fault)} in the status`, 10_000);
          expect(Date.now() - changed).toBeLessThan(10_000);
          expect(
            events.some((e) => words.test(e)),
            'pushed to the window and tray as a status event',
          ).toBe(true);
          const configured = (await agent.api.listConfiguredPrinters({})).find((p) => p.uri === uri);
          expect(configured).toMatchObject({ ready: false, detail: expect.stringMatching(words) });
          printer.set({ paperOut: false, headUp: false, paused: false });
          await waitFor(async () => (await problem()) === '', 'ready again in the status', 10_000);
        }
        await printer.stop();
        await waitFor(async () => /does not answer/.test(await problem()), 'unreachable in the status', 10_000);
      } finally {
        unsubscribe();
      }
    },
  );

  it(
    'sends labels waiting on paper out within seconds of the paper going in, though the line’s back-off had grown to a minute',
    { timeout: 60_000 },
    async () => {
      const { agent } = await station.start({
        printer: uri,
        tuning: { pipeline: { retryBaseMs: 60_000, retryMaxMs: 60_000, followIntervalMs: 20 } },
      });
      await waitFor(async () => (await shown()).ready === true, 'the printer ready');
      printer.set({ paperOut: true });
      await station.sandbox.bookShipment({ reference_id: 'BACK-1' });
      await waitFor(
        async () => /waiting for the printer/.test((await agent.api.listJobs({ search: 'BACK-1' }))[0]?.reason ?? ''),
        'the label waiting on the printer',
      );
      printer.set({ paperOut: false });
      const back = Date.now();
      await waitFor(() => printer.printed.length === 1, 'the label printed', 15_000);
      expect(Date.now() - back).toBeLessThan(10_000);
      await waitFor(async () => (await agent.api.listJobs({ search: 'BACK-1' }))[0]?.state === 'completed', 'the job completed');
      expect(printer.formats).toHaveLength(1);
    },
  );
});
