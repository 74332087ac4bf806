// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SiteStatusView, SiteStationView } from '../../src/shared/site';
import { SITE_REFRESH_MS } from '../../src/renderer/views/site-view';
import { settle, startApp } from '../support/fake-agent-client';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

const station = (name: string, online: boolean, more: Partial<SiteStationView> = {}): SiteStationView => ({
  name,
  role: 'station',
  online,
  lastSeen: '2026-11-26T10:00:00Z',
  printers: [{ uri: 'cups:Zebra', ready: true, words: 'ready' }],
  queued: 2,
  lastPrint: { shipmentId: 'S-9', at: '2026-11-26T10:40:00Z' },
  failures30m: 1,
  rules: null,
  fallback: null,
  ...more,
});

const status = (stations: SiteStationView[]): SiteStatusView => ({
  enabled: true,
  address: 'nats://site:4222',
  station: 'Packing 1',
  connected: true,
  stations,
  decisions: [
    {
      shipmentId: 'S-1',
      referenceId: 'ORDER-1',
      station: 'Packing 3',
      reason: 'claim',
      why: 'claimed by a scan of ORDER-1',
      decidedAt: '2026-11-26T10:42:10Z',
      claimedAt: '2026-11-26T10:42:00Z',
      movedFrom: null,
      takenBy: 'Packing 3',
    },
  ],
});

const siteTab = (root: HTMLElement) =>
  Array.from(root.querySelectorAll<HTMLButtonElement>('[role=tab]')).find((t) => t.textContent?.includes('Site'))!;
const rows = (root: HTMLElement) =>
  Array.from(root.querySelectorAll('#view-site tbody tr')).map((tr) => Array.from(tr.children).map((c) => c.textContent));

describe('the Site tab', () => {
  it('says which protection the site connection lacks', async () => {
    const { root } = await startApp({ siteStatus: async () => ({ ...status([station('Packing 1', true)]), missingProtection: ['tls'] }) });
    siteTab(root).click();
    await settle();
    expect(root.querySelector('#view-site .site-summary')?.textContent).toBe(
      "Connected to nats://site:4222 as Packing 1. This site's link has no TLS: bookings cross the network readable (site-setup, docs/OPERATIONS.md).",
    );
  });

  it('names every station beside online or offline, with its printers, queue, last print and failures; and the latest decisions', async () => {
    const { root } = await startApp({
      siteStatus: async () =>
        status([
          station('Packing 1', true),
          station('Packing 3', false, {
            printers: [{ uri: 'cups:Zebra', ready: false, words: 'queue Zebra is disabled' }],
            lastPrint: { shipmentId: '3f1c9a2e-0b7d-4e7a-9c1f-5d2b8e6a4c10', reference: 'ORDER-77', at: '2026-11-26T10:41:00Z' },
          }),
        ]),
    });
    siteTab(root).click();
    await settle();
    const [one, three] = rows(root);
    expect(one?.slice(0, 2)).toEqual(['Packing 1', 'online']);
    // Printers named as everywhere in the UI (docs/OPERATIONS.md), never by their URI.
    expect(one?.[2]).toBe('CUPS Zebra: ready');
    expect(one?.slice(3).map((c) => c?.split(' ')[0])).toEqual(['2', 'S-9', '1']);
    expect(three?.slice(0, 3)).toEqual(['Packing 3', 'offline', 'CUPS Zebra: queue Zebra is disabled']);
    // Names and references whole, in a cell that ends them with an ellipsis when too narrow.
    expect(root.querySelector('#view-site tbody tr:nth-child(2) td:nth-child(5) .token')?.getAttribute('title')).toBe('ORDER-77');
    // The parcel's reference, not a shipment UUID broken over four lines at 800 px.
    expect(three?.[4]?.split(' ')[0]).toBe('ORDER-77');
    expect(root.querySelector('#view-site .site-decisions')?.textContent).toMatch(
      /^ORDER-1: printed at Packing 3: claimed by a scan at \d/,
    );
    expect(root.querySelector('#view-site .site-summary')?.textContent).toBe('Connected to nats://site:4222 as Packing 1.');
  });

  it('keeps itself current while open: a station that stops turns offline without a click', async () => {
    let online = true;
    const { root } = await startApp({ siteStatus: async () => status([station('Packing 2', online)]) });
    siteTab(root).click();
    await settle();
    expect(rows(root)[0]?.[1]).toBe('online');
    online = false;
    await vi.advanceTimersByTimeAsync(SITE_REFRESH_MS);
    await settle();
    expect(rows(root)[0]?.[1]).toBe('offline');
  });

  it('is not there on a station in no site: one line in Settings says how to join one', async () => {
    const { root } = await startApp({
      siteStatus: async () => ({ enabled: false, address: null, station: null, connected: false, stations: [], decisions: [] }),
    });
    expect(siteTab(root)).toBeUndefined();
    expect(root.querySelector('#view-site')).toBeNull();
    const join = root.querySelector<HTMLElement>('#view-settings .site-join');
    expect(join?.hidden).toBe(false);
    expect(join?.textContent).toContain('--site nats://HOST:PORT');
  });

  it('lists relays apart from the stations, and keeps the join line out of Settings', async () => {
    const { root } = await startApp({
      siteStatus: async () =>
        status([
          station('Packing 1', true),
          station('relay@pack-host/3f9a1c', true, { role: 'relay', printers: [], lastPrint: null }),
          // Named twice by the site's presence list (a heartbeat rewritten while it was read): one row.
          station('Packing 1', true),
        ]),
    });
    siteTab(root).click();
    await settle();
    expect(rows(root).map((r) => r[0])).toEqual(['Packing 1']);
    expect(root.querySelector('#view-site .site-relays')?.textContent).toBe('relay@pack-host/3f9a1c online');
    expect(root.querySelector<HTMLElement>('#view-settings .site-join')?.hidden).toBe(true);
    // The site's rules are edited for stations: a relay prints nothing and has none.
    expect(Array.from(root.querySelectorAll<HTMLOptionElement>('#site-rules-station option')).map((o) => o.value)).not.toContain(
      'relay@pack-host/3f9a1c',
    );
  });

  it('edits another station’s rules for the site and shows what the site now holds', async () => {
    const saved: unknown[] = [];
    const rules = { mode: 'filtered' as const, sources: [], carriers: [], matches: [{ field: 'reference_id' as const, pattern: 'B-' }] };
    const { root } = await startApp({
      siteStatus: async () => status([station('Packing 1', true), station('Packing 2', true, { rules })]),
      saveSiteRules: async (input) => {
        saved.push(input);
        return status([station('Packing 1', true), station('Packing 2', true, { rules: input.rules as typeof rules })]);
      },
    });
    siteTab(root).click();
    await settle();
    const select = root.querySelector<HTMLSelectElement>('#site-rules-station')!;
    select.value = 'Packing 2';
    select.dispatchEvent(new Event('change'));
    const matches = root.querySelector<HTMLTextAreaElement>('#site-rules-matches')!;
    expect(matches.value).toBe('reference_id B-');
    matches.value = 'reference_id B-\nsystem /^shop/';
    root.querySelector<HTMLFormElement>('form.site-rules')!.requestSubmit();
    await settle();
    expect(saved).toEqual([
      {
        station: 'Packing 2',
        rules: {
          mode: 'filtered',
          sources: [],
          carriers: [],
          matches: [
            { field: 'reference_id', pattern: 'B-' },
            { field: 'system', pattern: '/^shop/' },
          ],
        },
      },
    ]);
    expect(root.querySelector('form.site-rules [role=status]')?.textContent).toBe('Rules saved: the site decides by them now.');
    // A refresh while editing leaves the fields alone.
    matches.value = 'reference_id C-';
    await vi.advanceTimersByTimeAsync(SITE_REFRESH_MS);
    await settle();
    expect(matches.value).toBe('reference_id C-');
  });
});
