// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SiteStationView } from '../../src/shared/site';
import { settle, startApp } from '../support/fake-agent-client';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

const station = (name: string, scale: SiteStationView['scale']): SiteStationView => ({
  name,
  role: 'station',
  online: true,
  lastSeen: '2026-11-26T10:00:00Z',
  printers: [{ uri: 'cups:Zebra', ready: true, words: 'ready' }],
  queued: 0,
  lastPrint: null,
  failures30m: 0,
  rules: null,
  fallback: null,
  scale,
});

describe('the Site tab and each station’s scale', () => {
  it('shows a station’s scale state beside its printers, and nothing for a station without one', async () => {
    const { root } = await startApp({
      siteStatus: async () => ({
        enabled: true,
        address: 'nats://site:4222',
        station: 'Packing 1',
        connected: true,
        stations: [
          station('Packing 1', { uri: 'serial:/dev/ttyUSB0', state: 'stable', kg: 2.5 }),
          station('Packing 2', { uri: 'hid:0922:8003', state: 'offline', kg: null }),
          station('Packing 3', null),
        ],
        decisions: [],
      }),
    });
    Array.from(root.querySelectorAll<HTMLButtonElement>('[role=tab]'))
      .find((t) => t.textContent?.includes('Site'))!
      .click();
    await settle();
    // Each printer and the scale are a line of their own in the cell; printers are named as everywhere else.
    const cells = Array.from(root.querySelectorAll('#view-site tbody tr')).map((tr) =>
      Array.from(tr.children[2]?.children ?? [], (line) => line.textContent).join('; '),
    );
    expect(cells).toEqual(['CUPS Zebra: ready; Scale: 2.5 kg', 'CUPS Zebra: ready; Scale: Offline', 'CUPS Zebra: ready']);
  });
});
