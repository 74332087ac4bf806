// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY, refreshLanguage } from '../../src/renderer/i18n';
import { QueueView } from '../../src/renderer/views/queue-view';
import { ScanView } from '../../src/renderer/views/scan-view';
import { LONE_STATION, context, fakeClient, job, startApp } from '../support/fake-agent-client';
import { sayLanguages } from '../support/languages';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
  refreshLanguage();
  document.body.replaceChildren();
});

/** A station in a site: its Site tab is named in every language too, and kept when the language changes. */
async function start(): Promise<HTMLElement> {
  return (
    await startApp({
      siteStatus: async () => ({ ...LONE_STATION, enabled: true, address: 'nats://site:4222', station: 'P1', connected: true }),
    })
  ).root;
}

const tabNames = (root: HTMLElement) => Array.from(root.querySelectorAll('nav.tabs [role=tab]'), (t) => t.textContent);
const selected = (root: HTMLElement) => root.querySelector('nav.tabs [role=tab][aria-selected=true]')?.id;
const languageSelect = () => document.querySelector<HTMLSelectElement>('#set-language')!;
function choose(value: string): void {
  const select = languageSelect();
  select.focus();
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('the app in the OS language', () => {
  it('speaks Swedish when navigator.languages says sv-SE', async () => {
    sayLanguages('sv-SE', 'en-US');
    const root = await start();
    expect(tabNames(root)).toEqual(['Skanna', 'Kö och historik', 'Inställningar', 'Dagsavslut', 'Anläggning (site)']);
    expect(document.documentElement.lang).toBe('sv-SE');
    expect(root.querySelector('label[for=scan]')?.textContent).toBe(
      'Skanna eller skriv en referens, ett sändnings-id eller ett spårningsnummer',
    );
    expect(root.querySelector('.scan-form button[type=submit]')?.textContent).toBe('Sök');
    expect(root.querySelector('nav.tabs[role=tablist]')?.getAttribute('aria-label')).toBe('Vyer');
    expect(root.querySelector('.status-bar')?.textContent).toContain('Igång');
    expect(root.querySelector('.status-bar')?.getAttribute('aria-label')).toBe('Agentens status');
    expect(root.querySelector('#view-queue th')?.textContent).toBe('Läge');
  });

  it('stays English for an OS language we do not have', async () => {
    sayLanguages('de-DE');
    const root = await start();
    expect(tabNames(root)).toEqual(['Scan', 'Queue & history', 'Settings', 'End of day', 'Site']);
  });

  it('says "nothing found" in Swedish', async () => {
    sayLanguages('sv-SE');
    const client = fakeClient({
      lookup: async ({ scan }) => ({ kind: 'not_found', scanned: scan, normalized: scan, message: `Nothing found for “${scan}”` }),
    });
    const view = new ScanView(context(client));
    document.body.append(view.element);
    await view.lookup('XYZ');
    expect(document.querySelector('[role=alert]')?.textContent).toBe(
      'Inget hittades för ”XYZ”: kontrollera streckkoden eller sök i historiken.',
    );
  });
});

describe('changing the language in Settings', () => {
  it('redraws every view in the chosen language at once, keeping the tab and the focus', async () => {
    sayLanguages('en-US');
    const root = await start();
    (root.querySelector('#tab-settings') as HTMLButtonElement).click();
    expect(languageSelect().value).toBe('');
    expect(languageSelect().selectedOptions[0]?.textContent).toBe('As on this computer (English)');

    choose('sv');
    expect(tabNames(root)).toEqual(['Skanna', 'Kö och historik', 'Inställningar', 'Dagsavslut', 'Anläggning (site)']);
    expect(selected(root)).toBe('tab-settings');
    expect(document.activeElement).toBe(languageSelect());
    expect(languageSelect().value).toBe('sv');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('sv');
    expect(root.querySelector('label[for=scan]')?.textContent).toContain('Skanna');
    expect(root.querySelector('.status-bar')?.textContent).toContain('Igång');

    choose('fi');
    expect(tabNames(root)).toEqual(['Skannaa', 'Jono ja historia', 'Asetukset', 'Päivän päätös', 'Toimipaikka (site)']);
    choose('');
    expect(tabNames(root)).toEqual(['Scan', 'Queue & history', 'Settings', 'End of day', 'Site']);
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBeNull();
  });

  it('tells the desktop app the language at start and on every change, so its tray follows', async () => {
    sayLanguages('sv-SE');
    const { root, client } = await startApp();
    expect(client.uiLanguages).toEqual(['sv']);
    (root.querySelector('#tab-settings') as HTMLButtonElement).click();
    choose('fi');
    choose('');
    expect(client.uiLanguages).toEqual(['sv', 'fi', 'sv']);
  });

  it('keeps the choice for the next start, over the OS language', async () => {
    sayLanguages('sv-SE');
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'da');
    const root = await start();
    expect(tabNames(root)).toEqual(['Scan', 'Kø og historik', 'Indstillinger', 'Dagsafslutning', 'Anlæg (site)']);
    expect(languageSelect().value).toBe('da');
  });

  it('follows the OS when its language changes while running', async () => {
    sayLanguages('en-US');
    const root = await start();
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['nb-NO']);
    window.dispatchEvent(new Event('languagechange'));
    expect(tabNames(root)).toEqual(['Skann', 'Kø og historikk', 'Innstillinger', 'Dagsavslutning', 'Anlegg (site)']);
  });
});

describe('the queue in Swedish', () => {
  it('names states, documents, layouts, columns and pages in Swedish; the API names stay only as values', async () => {
    sayLanguages('sv-SE');
    const jobs = Array.from({ length: 30 }, (_, i) =>
      job({ id: `j${i}`, reference: `P-${i + 1}`, state: 'spooled', documentType: 'customsinvoice', layout: 'a4', trigger: 'reprint' }),
    );
    const view = new QueueView(context(fakeClient({ listJobs: async () => jobs })));
    document.body.append(view.element);
    await view.load();
    const first = document.querySelector('tr.job')!;
    expect(first.querySelector('.badge')?.textContent).toBe('i skrivarkön');
    expect(first.querySelector('.badge')?.getAttribute('title')).toBe('i skrivarkön (skickad till skrivaren)');
    expect(first.querySelector('.document')?.textContent).toBe('TullfakturaA4, en etikett · omutskrift');
    expect(first.querySelector('.state')?.getAttribute('data-label')).toBe('Läge');
    expect(document.querySelector('.pager-text')?.textContent).toBe('Jobb 1–25 av 30 · sida 1 av 2');
    const stateFilter = document.querySelector<HTMLSelectElement>('#job-state')!;
    expect(Array.from(stateFilter.options, (o) => [o.value, o.textContent]).slice(0, 2)).toEqual([
      ['', 'Alla lägen'],
      ['queued', 'i kö'],
    ]);
  });
});
