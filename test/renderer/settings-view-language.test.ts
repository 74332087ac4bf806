// @vitest-environment happy-dom
import { printerPill } from '../../src/renderer/views/printer-pauses';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfiguredPrinter } from '../../src/shared/domain';
import { refreshLanguage } from '../../src/renderer/i18n';
import { SettingsPanel } from '../../src/renderer/views/settings-view';
import { context, fakeClient, printer, settings, settle } from '../support/fake-agent-client';
import { sayLanguages } from '../support/languages';

afterEach(() => {
  vi.restoreAllMocks();
  refreshLanguage();
  document.body.replaceChildren();
});

async function mount(configured: ConfiguredPrinter[]) {
  const paused: Array<{ paused: boolean; printer?: string }> = [];
  const client = fakeClient({
    listPrinters: async () => [printer({ uri: 'cups:Labels', name: 'Zebra', kind: 'cups', media: 'label', ready: true })],
    listConfiguredPrinters: async () => configured,
    setPaused: async (input) => {
      paused.push(input);
      return { paused: false } as never;
    },
  });
  const ctx = context(client);
  const panel = new SettingsPanel(ctx);
  document.body.append(panel.element);
  panel.element.hidden = false;
  ctx.setSettings(settings());
  panel.show();
  await settle();
  return { paused };
}

const texts = (selector: string) => Array.from(document.querySelectorAll(selector), (e) => e.textContent);

describe('settings in Swedish', () => {
  it('names the groups, fields and buttons in Swedish', async () => {
    sayLanguages('sv-SE');
    await mount([]);
    expect(texts('.settings-view legend')).toEqual(
      expect.arrayContaining([
        'Anslutning',
        'Vilken skrivare som får etiketter och vilken som får dokument',
        'Papper, kopior och automatisk utskrift',
        'Skriv ut automatiskt efter bokning',
        'Inflöde',
        'Etikettskrivare',
        'Dokumentskrivare',
      ]),
    );
    expect(texts('.settings-tabs [role=tab]')).toEqual(['Anslutning och inflöde', 'Skrivare', 'Packning', 'Våg', 'Språk och support']);
    expect(document.querySelector('label[for=set-environment]')?.textContent).toBe('Miljö');
    expect(texts('#set-environment option')).toEqual(['Testmiljö', 'Produktion', 'Egen']);
    expect(texts('#set-media option')).toEqual(['4x6-etiketter', 'A4-ark']);
    expect(texts('#set-rule-mode option')).toEqual([
      'Varje bokning',
      'Inget (skriv bara ut vid skanning)',
      'Bokningar som matchar reglerna nedan',
    ]);
    expect(document.querySelector('button[type=submit]')?.textContent).toBe('Spara inställningar');
    expect(document.querySelector('button.pause')?.textContent).toBe('Pausa automatisk utskrift');
  });

  it('says a bad field match in Swedish and sends nothing', async () => {
    sayLanguages('sv-SE');
    await mount([]);
    const matches = document.querySelector<HTMLTextAreaElement>('#set-matches')!;
    matches.value = 'colour blue';
    document.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await settle();
    expect(document.querySelector('.save-result [role=alert]')?.textContent).toBe(
      'Fältmatchningar: ”colour blue” måste vara ett fält (reference_id, sender_reference, system) följt av ett mönster.',
    );
  });

  it('pauses and resumes each configured printer with Swedish words', async () => {
    sayLanguages('sv-SE');
    const { paused } = await mount([
      { uri: 'cups:Labels', roles: ['label', 'document'], paused: false },
      { uri: 'cups:Office', roles: ['document'], paused: true },
    ]);
    const list = document.querySelector('ul[aria-label="Konfigurerade skrivare"]')!;
    const buttons = Array.from(list.querySelectorAll<HTMLButtonElement>('button.printer-pause'));
    expect(buttons.map((b) => b.textContent)).toEqual(['Pausa', 'Återuppta']);
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['Pausa CUPS Labels', 'Återuppta CUPS Office']);
    expect(texts('.printer-pause-item .printer-detail')).toEqual(['etiketter och dokument', 'dokument']);
    // An idle printer says what it is (ready), not "printing".
    expect(texts('.printer-pause-item .readiness')).toEqual(['redo', 'pausad: jobben väntar']);
    buttons[0]!.click();
    await settle();
    expect(paused).toEqual([{ paused: true, printer: 'cups:Labels' }]);
    expect(document.querySelector('.printer-pause-list .inline-result')?.textContent).toBe(
      'CUPS Labels pausad: dess jobb väntar tills den återupptas.',
    );
  });

  it('gives each printer a truthful pill: paused, printing, ready, stopped or not reachable', () => {
    sayLanguages('sv-SE');
    const found = printer({ uri: 'cups:Labels', ready: true });
    expect(printerPill(true, true, found)).toEqual({ tone: 'warn', words: 'pausad: jobben väntar' });
    expect(printerPill(false, true, found)).toMatchObject({ tone: 'ok', words: 'skriver ut' });
    expect(printerPill(false, false, found)).toMatchObject({ tone: 'ok', words: 'redo' });
    expect(printerPill(false, false, printer({ uri: 'cups:Labels', ready: false, detail: null }))).toMatchObject({ tone: 'bad' });
    expect(printerPill(false, false, undefined)).toEqual({ tone: 'unknown', words: 'nås inte' });
  });
});
