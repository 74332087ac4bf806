import { describe, expect, it } from 'vitest';
import { CarrierCache } from '../../src/main/agent/carrier-cache';
import { useHarness } from '../support/contract-harness';

const h = useHarness();

describe('GET /carriers as the routing carrier map', () => {
  it('maps every carrier code and its name to the same key', async () => {
    const { carriers } = await h.client.carriers();
    const cache = new CarrierCache({ source: () => h.client });
    await cache.refresh();
    for (const c of carriers) {
      expect(cache.key(c.carrier)).toBe(c.carrier.toLowerCase());
      expect(cache.key(c.name!), c.name!).toBe(c.carrier.toLowerCase());
      expect(cache.key(` ${c.name!.toUpperCase()} `)).toBe(c.carrier.toLowerCase());
    }
    expect(carriers.some((c) => c.name!.toLowerCase() !== c.carrier.toLowerCase())).toBe(true);
  });

  it('keeps the list itself for choosing a carrier in a rule: codes lower case, names as the service writes them', async () => {
    const { carriers } = await h.client.carriers();
    const cache = new CarrierCache({ source: () => h.client });
    expect(cache.list()).toEqual([]);
    await cache.refresh();
    expect(cache.list()).toEqual(carriers.map((c) => ({ code: c.carrier.toLowerCase(), name: c.name })));
    expect(cache.list().length).toBeGreaterThan(1);
  });
});
