import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DemoMode } from '../../../src/main/demo/demo-mode';
import { createLogger } from '../../../src/main/log';
import { shipmentOf, startStation, waitFor, type Station } from '../../support/agent-harness';

let station: Station;
beforeEach(async () => {
  station = await startStation();
});
afterEach(async () => {
  await station.close();
});

const countBy = (files: string[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(shipmentOf(f), (counts.get(shipmentOf(f)) ?? 0) + 1);
  return counts;
};

describe('agent', () => {
  it('prints a booking announced by webhook once, as a 4x6 label', async () => {
    const { agent } = await station.start();
    await agent.poller?.pollOnce(); // let the start-up reconciliation finish, so the webhook is first
    const booked = await station.sandbox.bookShipment({ source: 'API', reference_id: 'ORDER-1' });
    await waitFor(async () => (await station.prints()).length === 1, 'the label');
    await agent.pipeline.idle();
    const [file] = await station.prints();
    expect(shipmentOf(file!)).toBe(booked.shipmentId);
    const pdf = await PDFDocument.load(await readFile(join(station.printDir, file!)));
    expect(pdf.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())])).toEqual([[288, 432]]);
    const [job] = await agent.api.listJobs({ search: 'ORDER-1' });
    expect(job).toMatchObject({ shipmentId: booked.shipmentId, trigger: 'webhook', state: 'completed', reference: 'ORDER-1' });
  });

  it('prints once when a webhook and a poll race for the same booking', async () => {
    const { agent } = await station.start({ pollIntervalSeconds: 1 });
    const booked = await Promise.all(Array.from({ length: 5 }, (_, i) => station.sandbox.bookShipment({ reference_id: `RACE-${i}` })));
    await agent.poller!.pollOnce();
    await agent.poller!.pollOnce();
    await waitFor(async () => (await station.prints()).length >= 5, 'five labels');
    await agent.pipeline.idle();
    const counts = countBy(await station.prints());
    expect([...counts.keys()].sort()).toEqual(booked.map((b) => b.shipmentId).sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('prints every booking made while it was down exactly once when it comes back', async () => {
    await station.start({ pollIntervalSeconds: 1 });
    await station.agent!.agent.poller!.pollOnce(); // establish the high-water mark
    await station.stopAgent();
    const booked = [];
    for (let i = 0; i < 50; i++) booked.push(await station.sandbox.bookShipment({ reference_id: `DOWN-${i}` }));
    const { agent } = await station.start({ pollIntervalSeconds: 1 });
    await waitFor(async () => (await station.prints()).length >= 50, '50 labels', 30_000);
    await agent.poller!.pollOnce(); // a second look must not print anything again
    await agent.pipeline.idle();
    const counts = countBy(await station.prints());
    expect(counts.size).toBe(50);
    expect([...counts.keys()].sort()).toEqual(booked.map((b) => b.shipmentId).sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('resolves scans by reference, tracking id and shipment id, and says what was scanned when nothing matches', async () => {
    const { agent } = await station.start();
    const booked = await station.sandbox.bookShipment({ reference_id: 'SCAN-ME' });
    await waitFor(async () => (await station.prints()).length === 1, 'the label');
    for (const scan of ['SCAN-ME', ` ${booked.trackingId.toLowerCase()}\r`, booked.shipmentId]) {
      const result = await agent.api.lookup({ scan });
      expect(result.kind, scan).toBe('found');
      if (result.kind !== 'found') continue;
      expect(result.shipment.id).toBe(booked.shipmentId);
      expect(result.shipment.tracking.map((e) => e.status)).toContain('ORDERED');
    }
    const miss = await agent.api.lookup({ scan: 'NO-SUCH-THING-42' });
    expect(miss).toMatchObject({ kind: 'not_found' });
    if (miss.kind === 'not_found') expect(miss.message).toContain('NO-SUCH-THING-42');
  });

  it('reprints as a new job and prints a test page with the label geometry', async () => {
    const { agent } = await station.start();
    const booked = await station.sandbox.bookShipment({ reference_id: 'AGAIN' });
    await waitFor(async () => (await station.prints()).length === 1, 'the first label');
    const [reprint] = await agent.api.reprint({ shipmentId: booked.shipmentId });
    expect(reprint).toMatchObject({ trigger: 'reprint', shipmentId: booked.shipmentId, reference: 'AGAIN' });
    const test = await agent.api.testPrint({ printer: `folder:${station.printDir}` });
    await waitFor(async () => (await station.prints()).length === 3, 'the reprint and the test page');
    await agent.pipeline.idle();
    expect(countBy(await station.prints()).get(booked.shipmentId)).toBe(2);
    const testFile = (await station.prints()).find((f) => f.includes(test.id))!;
    const pdf = await PDFDocument.load(await readFile(join(station.printDir, testFile)));
    expect([pdf.getPage(0).getWidth(), pdf.getPage(0).getHeight()]).toEqual([288, 432]);
  });

  it('takes a new API key from settings without ever returning it', async () => {
    const { agent } = await station.start();
    const saved = await agent.api.saveSettings({ apiKey: station.sandbox.apiKey, routing: { copies: 2 } });
    expect(saved.apiKeySet).toBe(true);
    expect(saved.routing.copies).toBe(2);
    expect(JSON.stringify(await agent.api.getSettings({}))).not.toContain(station.sandbox.apiKey);
    await expect(agent.api.testConnection({ apiKey: 'wrong-key-123' })).rejects.toMatchObject({ code: 'SERVICE_UNAUTHORIZED' });
    await expect(agent.api.testConnection({})).resolves.toMatchObject({ team: 'Sandbox Team' });
    expect(station.lines.join('\n')).not.toContain(station.sandbox.apiKey);
  });

  it('never sends the stored key to a new address unless it is entered again', async () => {
    const { agent } = await station.start();
    const elsewhere = 'http://127.0.0.1:9/external/v1';
    await expect(agent.api.testConnection({ apiUrl: elsewhere })).rejects.toMatchObject({ code: 'API_KEY_REQUIRED' });
    await expect(agent.api.saveSettings({ apiUrl: elsewhere })).rejects.toMatchObject({ code: 'API_KEY_REQUIRED' });
    expect((await agent.api.getSettings({})).apiUrl).toBe(station.sandbox.baseUrl);
  });

  it('refuses to save a printer that is not a printer URI, naming the valid forms', async () => {
    const { agent } = await station.start();
    await expect(agent.api.saveSettings({ routing: { labelPrinter: 'not-a-uri' } })).rejects.toMatchObject({
      code: 'INVALID_PRINTER_URI',
      message: expect.stringContaining('cups:QUEUE'),
    });
    expect((await agent.api.getSettings({})).routing.labelPrinter).toBe(`folder:${station.printDir}`);
    await station.stopAgent();
    // The command line's --printer goes through the same check.
    await expect(station.start({ printer: 'not-a-uri' })).rejects.toMatchObject({ code: 'INVALID_PRINTER_URI' });
  });

  it('answers the service carriers it routes by, for the rule form', async () => {
    const { agent } = await station.start();
    const carriers = await agent.api.listCarriers({});
    expect(carriers).toContainEqual({ code: 'dhl_express', name: 'DHL Express' });
    expect(carriers.map((c) => c.code)).toEqual(expect.arrayContaining(['postnord', 'bring']));
  });

  it('lists a printer this platform cannot drive as not ready, instead of failing the list', async () => {
    // The start refuses such a printer (startup-check.ts); settings saved later can still name one.
    const { agent } = await station.start();
    await agent.api.saveSettings({ routing: { documentPrinter: 'windows:Office A4' } });
    const printers = await agent.api.listPrinters({});
    expect(printers.find((p) => p.uri === 'windows:Office A4')).toMatchObject({ kind: 'windows', ready: false });
    expect(printers.find((p) => p.uri === `folder:${station.printDir}`)).toMatchObject({ kind: 'folder', ready: true });
  });

  it('says what each configured printer is for: one folder for labels and documents has both roles', async () => {
    const { agent } = await station.start();
    const printers = await agent.api.listPrinters({});
    expect(printers.find((p) => p.uri === `folder:${station.printDir}`)).toMatchObject({ media: 'label', roles: ['label', 'document'] });
    await station.stopAgent();
    const documents = `folder:${join(station.dir, 'a4')}`;
    const again = await station.start({ documentPrinter: documents });
    const listed = await again.agent.api.listPrinters({});
    expect(listed.find((p) => p.uri === documents)).toMatchObject({ media: 'a4', roles: ['document'] });
    expect(listed.find((p) => p.uri === `folder:${station.printDir}`)).toMatchObject({ media: 'label', roles: ['label'] });
  });

  it('gives a document printer loaded with label stock one role, the same in both printer lists', async () => {
    // listPrinters and listConfiguredPrinters once judged this printer by two rules: the first by
    // its media as well (label stock: "label" too), the second by the setting alone. The setting is
    // right: documents go to the document printer and labels do not (routeFor sends labels to the
    // label printer), so it is a document printer whatever it holds. The same holds the other way
    // round for a label printer on sheets.
    const { agent } = await station.start();
    const documents = `folder:${join(station.dir, 'documents-on-labels')}`;
    const labels = `folder:${join(station.dir, 'labels-on-sheets')}`;
    await agent.api.saveSettings({
      routing: {
        labelPrinter: labels,
        documentPrinter: documents,
        printers: [
          { name: 'Documents', uri: documents, media: 'label' },
          { name: 'Labels', uri: labels, media: 'a4' },
        ],
      },
    });
    const listed = await agent.api.listPrinters({});
    const configured = await agent.api.listConfiguredPrinters({});
    expect(listed.find((p) => p.uri === documents)).toMatchObject({ media: 'label', roles: ['document'] });
    expect(configured.find((p) => p.uri === documents)).toMatchObject({ roles: ['document'] });
    expect(listed.find((p) => p.uri === labels)).toMatchObject({ media: 'a4', roles: ['label'] });
    expect(configured.find((p) => p.uri === labels)).toMatchObject({ roles: ['label'] });
  });

  it('reprints only to printers the station uses or can see', async () => {
    const { agent } = await station.start();
    const booked = await station.sandbox.bookShipment({ reference_id: 'WHERE' });
    await waitFor(async () => (await station.prints()).length === 1, 'the label');
    const outside = `folder:${join(station.dir, 'somewhere-else')}`;
    await expect(agent.api.reprint({ shipmentId: booked.shipmentId, printer: outside })).rejects.toMatchObject({ code: 'UNKNOWN_PRINTER' });
    await expect(agent.api.testPrint({ printer: outside })).rejects.toMatchObject({ code: 'UNKNOWN_PRINTER' });
    const [again] = await agent.api.reprint({ shipmentId: booked.shipmentId, printer: `folder:${station.printDir}` });
    expect(again).toMatchObject({ trigger: 'reprint' });
  });

  it('holds automatic prints while paused and prints them on resume', async () => {
    const { agent } = await station.start();
    await agent.api.setPaused({ paused: true });
    expect((await agent.api.getStatus({})).state).toBe('paused');
    await station.sandbox.bookShipment({ reference_id: 'HELD' });
    await waitFor(async () => (await agent.api.listJobs({ search: 'HELD' })).length === 1, 'the held job');
    await new Promise((r) => setTimeout(r, 200));
    expect(await station.prints()).toEqual([]);
    await agent.api.setPaused({ paused: false });
    await waitFor(async () => (await station.prints()).length === 1, 'the released label');
  });
});

describe('agent demo mode (first run: "Try the demo")', () => {
  it('runs the embedded sandbox in the agent and prints its bookings', async () => {
    // The demo's entry points hand the agent the provider; the agent itself loads no demo code.
    const { agent } = await station.start({ demo: new DemoMode(createLogger({ write: () => {}, timestamps: false })) });
    const status = await agent.api.startDemo({});
    expect(status).toMatchObject({ environment: 'sandbox', team: 'Sandbox Team' });
    // The demo's first booking happens at once; the in-app demo polls every 2 s.
    await waitFor(
      async () => (await agent.api.listJobs({ search: 'DEMO-0001' })).some((j) => j.state === 'completed'),
      'the first demo label',
      20_000,
    );
  });

  it('refuses "Try the demo" with a clear error when its entry point offers no demo', async () => {
    const { agent } = await station.start();
    await expect(agent.api.startDemo({})).rejects.toMatchObject({
      code: 'DEMO_UNAVAILABLE',
      message: expect.stringContaining('npm run demo'),
    });
    expect(await agent.api.getStatus({})).toMatchObject({ team: 'Sandbox Team', state: 'ok' }); // still connected as before
  });
});
