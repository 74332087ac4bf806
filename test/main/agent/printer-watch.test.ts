import { describe, expect, it } from 'vitest';
import { PrinterWatch } from '../../../src/main/agent/printer-watch';
import type { Readiness } from '../../../src/main/printing/target';

describe('PrinterWatch', () => {
  it('reports a change only when a printer’s words change, says which printers are ready, and asks a costly printer at most every minGapMs', async () => {
    const said = new Map<string, Readiness>([
      ['zpl://a', { ready: true, detail: null }],
      ['windows:Zebra', { ready: true, detail: null }],
      ['service:1', { ready: null as unknown as boolean, detail: 'Packing bench' }],
    ]);
    const asked: string[] = [];
    const ready: string[] = [];
    let changes = 0;
    let now = 0;
    const watch = new PrinterWatch({
      printers: () => [...said.keys()].map((uri) => ({ uri, media: 'label' as const })),
      readiness: async (uri) => {
        asked.push(uri);
        return said.get(uri)!;
      },
      onChange: () => void (changes += 1),
      onReady: (uri) => ready.push(uri),
      minGapMs: (uri) => (uri.startsWith('windows:') ? 15_000 : 0),
      now: () => now,
    });
    await watch.check();
    expect(changes).toBe(0);
    expect(watch.problems()).toEqual([]);
    expect(ready).toEqual(['zpl://a', 'windows:Zebra']);

    said.set('zpl://a', { ready: false, detail: 'ZPL printer at a:9100 reports paper out' });
    said.set('windows:Zebra', { ready: false, detail: 'Windows printer Zebra is offline' });
    now = 4000;
    await watch.check();
    expect(changes).toBe(1);
    // Windows is not asked again within 15 s: its last answer stands.
    expect(watch.problems()).toEqual([{ uri: 'zpl://a', detail: 'ZPL printer at a:9100 reports paper out' }]);
    now = 8000;
    await watch.check();
    expect(changes).toBe(1);
    now = 15_000;
    await watch.check();
    expect(changes).toBe(2);
    expect(watch.problems().map((p) => p.uri)).toEqual(['zpl://a', 'windows:Zebra']);
    expect(asked.filter((u) => u === 'windows:Zebra')).toHaveLength(2);

    said.set('zpl://a', { ready: true, detail: null });
    now = 19_000;
    await watch.check();
    expect(changes).toBe(3);
    expect(watch.problems().map((p) => p.uri)).toEqual(['windows:Zebra']);
  });

  it('counts a readiness question that throws as not ready, in its words', async () => {
    const watch = new PrinterWatch({
      printers: () => [{ uri: 'ipp://p/ipp/print', media: 'a4' }],
      readiness: () => Promise.reject(new Error('connect ECONNREFUSED')),
      onChange: () => undefined,
    });
    await watch.check();
    expect(watch.problems()).toEqual([{ uri: 'ipp://p/ipp/print', detail: 'connect ECONNREFUSED' }]);
  });
});
