import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTarget } from '../../../../src/main/printing/create-target';
import { PrintError } from '../../../../src/main/printing/errors';
import { checkPrintersAtStart, PrinterUnusableError } from '../../../../src/main/printing/startup-check';
import type { PrinterTarget, SpoolRequest } from '../../../../src/main/printing/target';
import { renderDocument } from '../../../../src/sandbox/documents/render';
import { startPrivateCups, type PrivateCups } from '../../../support/cups';
import { waitFor } from '../../../support/agent-harness';
import { labelShipment } from '../../../support/label-shipment';
import { ZplReader } from '../../../support/zpl-render';

const TRACKING = '00370700000000000123';
let cups: PrivateCups;
let reader: ZplReader;
let pdf: Uint8Array;
beforeAll(async () => {
  cups = await startPrivateCups({ queues: [{ name: 'ZebraUSB', kind: 'sink' }] });
  reader = await ZplReader.create();
  pdf = await renderDocument({
    documentType: 'label',
    layout: 'printer',
    shipments: [labelShipment(9, { trackingId: TRACKING })],
  });
}, 60_000);
afterAll(async () => {
  await cups?.stop();
  await reader?.dispose();
});

const request = (jobId: string): SpoolRequest => ({
  jobId,
  title: `Print Station ${jobId}`,
  pdf,
  media: 'label',
  copies: 1,
  shipmentId: 'a1',
  documentType: 'label',
  layout: 'printer',
});

const target = (uri = 'zpl-cups:ZebraUSB'): PrinterTarget => createTarget(uri, { env: cups.env, platform: 'linux' });

describe('zpl-cups: printers (a raw CUPS queue)', () => {
  it('sends the ZPL through the queue byte for byte, and follows the job until CUPS says it printed', { timeout: 60_000 }, async () => {
    const zpl = target();
    const spooled = await zpl.spool(request('jobzc1'));
    expect(spooled.spoolerJobId).toMatch(/^ZebraUSB-\d+$/);
    const [file] = await cups.waitForOutputs('ZebraUSB', 1);
    const sent = await readFile(file!, 'latin1');
    expect(sent).toMatch(/^\^XA\^PW812\^LL1218\^.*\^PQ1,0,1,Y\^XZ\n$/s);
    const [png] = await reader.renderPngs(sent, 812 / 8, 1218 / 8, 8);
    expect(await reader.barcodes(png!)).toEqual([`CODE-128:${TRACKING}`]);
    await waitFor(async () => (await zpl.jobState(spooled.spoolerJobId!)) === 'completed', 'the job completed');
  });

  it('stops the start on a queue the scheduler does not have, naming the ones it has', async () => {
    const error = await checkPrintersAtStart(['zpl-cups:NoSuchZebra'], { env: cups.env, platform: 'linux' }, () => undefined).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PrinterUnusableError);
    expect((error as Error).message).toMatch(/zpl-cups:NoSuchZebra: .*NoSuchZebra.*the queues that exist: ZebraUSB/);
  });

  it('keeps the labels while the queue is disabled, with CUPS’s reason', { timeout: 60_000 }, async () => {
    await cups.disable('ZebraUSB', 'Media empty');
    try {
      const zpl = target();
      const error = await zpl.spool(request('jobzc2')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PrintError);
      expect((error as PrintError).printerDown).toBe(true);
      const readiness = await zpl.readiness();
      expect(readiness.ready).toBe(false);
      expect(readiness.detail).toContain('Media empty');
    } finally {
      await cups.enable('ZebraUSB');
    }
  });
});
