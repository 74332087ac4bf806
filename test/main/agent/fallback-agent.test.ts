import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/shared/agent-api';
import { startStation, waitFor, type Station } from '../../support/agent-harness';

let station: Station;
beforeEach(async () => {
  station = await startStation();
});
afterEach(async () => {
  await station.close();
});

describe('agent: a stopped label printer', () => {
  it(
    'offers the fallback once (an event), and moveToFallback prints the waiting labels on the A4 printer as a4; each label prints once',
    { timeout: 60_000 },
    async () => {
      const labelsDir = join(station.dir, 'labels');
      const sheetsDir = join(station.dir, 'sheets');
      await mkdir(labelsDir, { recursive: true });
      await mkdir(sheetsDir, { recursive: true });
      const labels = `folder:${labelsDir}`;
      const sheets = `folder:${sheetsDir}`;
      const { agent } = await station.start({ printer: labels, documentPrinter: sheets });
      await agent.api.saveSettings({
        routing: {
          printers: [
            { name: 'Zebra', uri: labels, media: 'label', fallback: { printer: 'Office', auto: false } },
            { name: 'Office', uri: sheets, media: 'a4' },
          ],
        },
      });
      const events: AgentEvent[] = [];
      agent.subscribe((e) => events.push(e));
      await agent.poller?.pollOnce();
      // The label printer stops: its folder is a file now.
      await rm(labelsDir, { recursive: true });
      await writeFile(labelsDir, 'in the way');
      const booked = [await station.sandbox.bookShipment(), await station.sandbox.bookShipment()];
      const ids = booked.map((b) => b.shipmentId).sort();
      await waitFor(() => events.some((e) => e.type === 'fallback'), 'the fallback offer', 20_000);
      const offers = events.filter((e) => e.type === 'fallback');
      expect(offers).toEqual([
        {
          type: 'fallback',
          printer: labels,
          advice: expect.any(String),
          adviceMessage: { code: 'printer.folderNotAFolder', params: { path: labelsDir } },
          fallback: sheets,
        },
      ]);
      await waitFor(
        async () => (await agent.api.listJobs({})).filter((j) => j.target === labels).length === 2,
        'both labels waiting',
        20_000,
      );

      // The head label was offered to the stopped printer, which cannot be asked whether it holds
      // it (the folder is a file): it stays there and prints when the printer is back. The rest move.
      const moved = await agent.api.moveToFallback({ printer: 'Zebra' });
      expect(moved.length).toBe(1);
      for (const j of moved) expect([j.target, j.layout]).toEqual([sheets, 'a4']);
      await waitFor(async () => (await readdir(sheetsDir)).filter((f) => f.endsWith('.pdf')).length === 1, 'one sheet', 20_000);
      expect(await agent.api.moveToFallback({ printer: 'Zebra' })).toEqual([]);

      // The label printer is back: the label it kept prints there; nothing prints twice.
      await rm(labelsDir);
      await mkdir(labelsDir);
      await waitFor(async () => (await readdir(labelsDir)).filter((f) => f.endsWith('.pdf')).length === 1, 'the kept label', 20_000);
      await agent.poller?.pollOnce();
      await new Promise((r) => setTimeout(r, 1000));
      const sheetFiles = (await readdir(sheetsDir)).filter((f) => f.endsWith('.pdf'));
      const labelFiles = (await readdir(labelsDir)).filter((f) => f.endsWith('.pdf'));
      expect(sheetFiles.map((f) => f.split('_')[0])).toEqual(moved.map((j) => j.shipmentId));
      for (const f of sheetFiles) expect(f).toMatch(/_label_a4_/);
      for (const f of labelFiles) expect(f).toMatch(/_label_printer_/);
      expect([...sheetFiles, ...labelFiles].map((f) => f.split('_')[0]).sort()).toEqual(ids);
      expect(events.filter((e) => e.type === 'fallback')).toHaveLength(1);
    },
  );
});
