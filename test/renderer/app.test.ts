// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONE_STATION, settle, startApp } from '../support/fake-agent-client';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

async function start(): Promise<HTMLElement> {
  return (await startApp()).root;
}

const tabs = (root: HTMLElement) => Array.from(root.querySelectorAll<HTMLButtonElement>('nav.tabs [role=tab]'));
const visiblePanel = (root: HTMLElement) => Array.from(root.querySelectorAll<HTMLElement>('.view[role=tabpanel]')).filter((p) => !p.hidden);

describe('app', () => {
  it('shows its views as tabs, each controlling its panel', async () => {
    const root = await start();
    expect(tabs(root).map((t) => t.textContent)).toEqual(['Scan', 'Queue & history', 'Settings', 'End of day']);
    expect(root.querySelector('nav.tabs[role=tablist]')).not.toBeNull();
    for (const tab of tabs(root)) {
      expect(root.querySelector(`#${tab.getAttribute('aria-controls')}`)?.getAttribute('role')).toBe('tabpanel');
    }
    expect(tabs(root).map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false', 'false']);
    expect(visiblePanel(root).map((p) => p.id)).toEqual(['view-scan']);
    tabs(root)[2]!.click();
    expect(visiblePanel(root).map((p) => p.id)).toEqual(['view-settings']);
    expect(tabs(root).map((t) => t.tabIndex)).toEqual([-1, -1, 0, -1]);
  });

  it('shows no Site tab on a lone station, and the keyboard hint names the four tabs there are', async () => {
    const root = await start();
    expect(root.querySelector('#tab-site')).toBeNull();
    expect(root.querySelector('#view-site')).toBeNull();
    expect(root.querySelector('#scan-hint')?.textContent).toContain('Alt+1…4 switch views');
    expect(tabs(root).map((t) => t.getAttribute('aria-keyshortcuts'))).toEqual(['Alt+1', 'Alt+2', 'Alt+3', 'Alt+4']);
  });

  it('adds the Site tab, fifth with Alt+5, on a station in a site, and the hint says Alt+1…5', async () => {
    const { root } = await startApp({
      siteStatus: async () => ({ ...LONE_STATION, enabled: true, address: 'nats://site:4222', station: 'Packing 1', connected: true }),
    });
    expect(tabs(root).map((t) => t.textContent)).toEqual(['Scan', 'Queue & history', 'Settings', 'End of day', 'Site']);
    expect(tabs(root)[4]!.getAttribute('aria-keyshortcuts')).toBe('Alt+5');
    expect(root.querySelector('#scan-hint')?.textContent).toContain('Alt+1…5 switch views');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: '5', altKey: true, bubbles: true }));
    expect(
      Array.from(root.querySelectorAll<HTMLElement>('.view[role=tabpanel]'))
        .filter((p) => !p.hidden)
        .map((p) => p.id),
    ).toEqual(['view-site']);
  });

  it('moves between tabs with the arrow keys, Home and End', async () => {
    const root = await start();
    const list = root.querySelector('nav.tabs[role=tablist]')!;
    const press = (key: string) => list.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    press('ArrowRight');
    expect(visiblePanel(root).map((p) => p.id)).toEqual(['view-queue']);
    expect(document.activeElement).toBe(tabs(root)[1]);
    press('ArrowRight');
    press('ArrowRight');
    press('ArrowRight');
    expect(visiblePanel(root).map((p) => p.id)).toEqual(['view-scan']);
    press('ArrowLeft');
    expect(visiblePanel(root).map((p) => p.id)).toEqual(['view-end-of-day']);
    press('Home');
    expect(visiblePanel(root).map((p) => p.id)).toEqual(['view-scan']);
    press('End');
    expect(visiblePanel(root).map((p) => p.id)).toEqual(['view-end-of-day']);
  });
});

describe('a stopped label printer', () => {
  const startWith = (moveToFallback: (input: { printer: string }) => Promise<unknown>) =>
    startApp({ moveToFallback: moveToFallback as never });

  it('is offered: one button sends its waiting labels to the A4 fallback, then the offer goes', async () => {
    const moved: string[] = [];
    const { root, client } = await startWith(async ({ printer }) => (moved.push(printer), []));
    client.emit({ type: 'fallback', printer: 'cups:Zebra', advice: 'the queue is stopped', fallback: 'cups:Office' });
    const notice = root.querySelector('.notice')!;
    expect(notice.textContent).toContain('cups:Zebra stopped: the queue is stopped');
    const button = Array.from(notice.querySelectorAll('button')).find((b) => b.textContent === 'Send its waiting labels to cups:Office')!;
    button.click();
    await settle();
    expect(moved).toEqual(['cups:Zebra']);
    expect(root.querySelector('.notice')).toBeNull();
    client.emit({ type: 'fallbackMoved', printer: 'cups:Zebra', to: 'cups:Office', jobs: [] });
    expect(root.querySelector('.notice')!.textContent).toContain('0 waiting labels moved from cups:Zebra to cups:Office');
  });

  it('without a fallback is only reported', async () => {
    const { root, client } = await startWith(async () => []);
    client.emit({ type: 'fallback', printer: 'cups:Zebra', advice: 'out of labels', fallback: null });
    const notice = root.querySelector('.notice')!;
    expect(notice.textContent).toContain('cups:Zebra stopped: out of labels');
    expect(Array.from(notice.querySelectorAll('button')).map((b) => b.textContent)).toEqual(['×']);
  });
});
