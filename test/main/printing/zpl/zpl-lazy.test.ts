import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rasterizerStarted } from '../../../../src/main/printing/zpl/zpl-raster-pool';
import { startStation, waitFor, type Station } from '../../../support/agent-harness';
import { startZplPrinter, type ZplPrinter } from '../../../support/zpl-printer';

// Its own file: MuPDF, once loaded, stays loaded for the rest of the test process.
let station: Station;
let printer: ZplPrinter;
beforeEach(async () => {
  station = await startStation();
  printer = await startZplPrinter();
});
afterEach(async () => {
  await station.close();
  await printer.close();
});

describe('MuPDF (about 120 MB once loaded)', () => {
  it(
    'is not loaded by an agent without a raw ZPL printer, nor by one whose raw printer has printed nothing yet',
    { timeout: 60_000 },
    async () => {
      await station.start();
      await station.sandbox.bookShipment({ reference_id: 'FOLDER-1' });
      await waitFor(async () => (await station.prints()).length === 1, 'the folder label');
      expect(rasterizerStarted()).toBe(false);
      await station.stopAgent();

      const uri = `zpl://127.0.0.1:${printer.port}`;
      const { agent } = await station.start({ printer: uri });
      const [info] = (await agent.api.listPrinters({})).filter((p) => p.uri === uri);
      expect(info?.ready).toBe(true);
      expect(rasterizerStarted()).toBe(false);

      await station.sandbox.bookShipment({ reference_id: 'ZPL-1' });
      await waitFor(() => printer.printed.length === 1, 'the ZPL label', 20_000);
      expect(rasterizerStarted()).toBe(true);
    },
  );
});
