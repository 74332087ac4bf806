import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/api/client';
import { discoverPrinters, guessMedia } from '../../../src/main/printing/discovery';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { startPrivateCups, type PrivateCups } from '../../support/cups';

describe('guessMedia', () => {
  it.each([
    ['Zebra_ZD420', 'label'],
    ['ZD421', 'label'],
    ['Packing bench 1 (4x6)', 'label'],
    ['DYMO LabelWriter 4XL', 'label'],
    ['Brother QL-820NWB', 'label'],
    ['Office A4', 'a4'],
    ['HP_LaserJet_M404', 'unknown'],
    ['Printer', 'unknown'],
  ])('%s → %s', (name, media) => {
    expect(guessMedia(name)).toBe(media);
  });
});

describe('discoverPrinters', () => {
  let cups: PrivateCups;
  let sandbox: Sandbox;
  let client: ServiceClient;

  beforeAll(async () => {
    cups = await startPrivateCups({
      queues: [
        { name: 'Zebra_ZD420', kind: 'sink', description: 'Zebra ZD420 Bench 1' },
        { name: 'office', kind: 'sink', description: 'Office printer' },
        { name: 'closed', kind: 'sink' },
      ],
    });
    await cups.disable('office', 'Paper jam');
    await cups.reject('closed', 'Maintenance');
    sandbox = await startSandbox({ port: 0 });
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, retries: 0 });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
    await cups?.stop();
  });

  it('lists the CUPS queues with readiness and the service printers', async () => {
    const printers = await discoverPrinters({ platform: 'linux', env: cups.env, service: client });
    expect(printers).toEqual([
      {
        uri: 'cups:closed',
        name: 'closed',
        kind: 'cups',
        media: 'unknown',
        ready: false,
        detail: "Not accepting jobs (Maintenance): run `cupsaccept 'closed'`.",
        detailMessage: { code: 'printer.listRejecting', params: { queue: 'closed', reason: 'Maintenance' } },
      },
      {
        uri: 'cups:office',
        name: 'Office printer',
        kind: 'cups',
        media: 'unknown',
        ready: false,
        detail: "Disabled (Paper jam): run `cupsenable 'office'`.",
        detailMessage: { code: 'printer.listDisabled', params: { queue: 'office', reason: 'Paper jam' } },
      },
      { uri: 'cups:Zebra_ZD420', name: 'Zebra ZD420 Bench 1', kind: 'cups', media: 'label', ready: true, detail: null },
      {
        uri: 'service:5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a01',
        name: 'Packing bench 1 (4x6)',
        kind: 'service',
        media: 'label',
        ready: null,
        detail: 'Zebra ZD421 thermal label printer',
      },
      {
        uri: 'service:5b3a2f0e-6f0c-4c5e-9a51-0d4c6f1e7a02',
        name: 'Office A4',
        kind: 'service',
        media: 'a4',
        ready: null,
        detail: 'HP LaserJet office printer',
      },
    ]);
  });

  it('still lists the service printers when the scheduler is down, and says why', async () => {
    const errors: string[] = [];
    const printers = await discoverPrinters({
      platform: 'linux',
      env: { ...cups.env, CUPS_SERVER: '127.0.0.1:1' },
      service: client,
      onError: (source) => errors.push(source),
    });
    expect(printers.map((p) => p.kind)).toEqual(['service', 'service']);
    expect(errors).toEqual(['cups']);
  });

  it('lists Windows printers through pdf-to-printer on win32', async () => {
    const printers = await discoverPrinters({
      platform: 'win32',
      pdfToPrinter: {
        getPrinters: async () => [
          { deviceId: 'a', name: 'ZDesigner GK420d', paperSizes: ['4x6', '4x4'] },
          { deviceId: 'b', name: 'Brother HL', paperSizes: ['A4', 'Letter'] },
        ],
      },
    });
    expect(printers).toEqual([
      { uri: 'windows:ZDesigner GK420d', name: 'ZDesigner GK420d', kind: 'windows', media: 'label', ready: true, detail: null },
      { uri: 'windows:Brother HL', name: 'Brother HL', kind: 'windows', media: 'unknown', ready: true, detail: null },
    ]);
  });
});
