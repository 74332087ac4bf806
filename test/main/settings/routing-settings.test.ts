import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConfSettingsStore } from '../../../src/main/settings/conf-settings-store';
import { InvalidSettingsError } from '../../../src/main/settings/settings-store';
import { printersOf, routeFor } from '../../../src/main/printing/routing';

const API_URL = 'http://127.0.0.1:1/external/v1';
const logger = { info: () => {}, warn: () => {}, error: () => {} } as never;

describe('routing settings', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ps-routing-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a settings file from before the printer list: the two printers become two entries and route as before', async () => {
    const old = {
      environment: 'sandbox',
      apiUrl: API_URL,
      routing: {
        labelPrinter: 'cups:Zebra',
        documentPrinter: 'cups:Office',
        labelPrinterMedia: 'a4',
        sheetLayout: '2x2',
        autoPrint: ['label'],
        copies: 1,
      },
      intake: { webhooksEnabled: true, pollIntervalSeconds: 5 },
      stationRules: { mode: 'all', sources: [], carriers: [], matches: [] },
      paused: false,
    };
    await writeFile(join(dir, 'settings.json'), JSON.stringify(old), 'utf8');
    const routing = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger }).get().routing;
    expect(printersOf(routing).map((p) => [p.uri, p.media, p.layout])).toEqual([
      ['cups:Zebra', 'a4', '2x2'],
      ['cups:Office', 'a4', undefined],
    ]);
    expect(routeFor(routing, 'label')).toEqual({ target: 'cups:Zebra', layout: '2x2', media: 'a4' });
    expect(routeFor(routing, 'waybill')).toEqual({ target: 'cups:Office', layout: 'a4', media: 'a4' });
  });

  it('saves printers and rules, and refuses a rule naming no printer, a duplicate name and a label-stock fallback', () => {
    const store = createConfSettingsStore({ dataDir: dir, apiUrl: API_URL, logger });
    const printers = [
      { name: 'Zebra', uri: 'cups:Zebra', media: 'label' as const, fallback: { printer: 'Office', auto: true } },
      { name: 'Office', uri: 'cups:Office', media: 'a4' as const },
    ];
    store.update({ routing: { printers, rules: [{ documentTypes: ['label'], carriers: ['dhl'], printer: 'Zebra' }] } });
    expect(store.get().routing.printers).toEqual(printers);
    const refused = (patch: Parameters<typeof store.update>[0]): string => {
      try {
        store.update(patch);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidSettingsError);
        return (error as InvalidSettingsError).field;
      }
      throw new Error('not refused');
    };
    expect(refused({ routing: { rules: [{ documentTypes: [], carriers: [], printer: 'Nowhere' }] } })).toBe('routing.rules.0.printer');
    expect(refused({ routing: { printers: [...printers, { name: 'Zebra', uri: 'cups:Z2', media: 'label' }] } })).toBe('routing.printers');
    expect(refused({ routing: { printers: [...printers, { name: 'Z3', uri: 'not-a-uri', media: 'label' }] } })).toBe(
      'routing.printers.2.uri',
    );
    expect(
      refused({
        routing: {
          printers: [
            { ...printers[0]!, fallback: { printer: 'Z4', auto: true } },
            { name: 'Z4', uri: 'cups:Z4', media: '4x4in' },
          ],
        },
      }),
    ).toBe('routing.printers.0.fallback.printer');
    expect(store.get().routing.rules ?? []).toEqual([{ documentTypes: ['label'], carriers: ['dhl'], printer: 'Zebra' }]);
  });
});
