// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentApi, AgentInput } from '../../src/shared/agent-api';
import { PrintersEditor } from '../../src/renderer/views/printers-editor';
import { AgentCallError } from '../../src/renderer/bridge/agent-call-error';
import { context, fakeClient, printer, settings } from '../support/fake-agent-client';

afterEach(() => document.body.replaceChildren());

const PRINTERS = [
  { name: 'Zebra', uri: 'cups:Zebra', media: 'label', fallback: { printer: 'Office', auto: true } },
  { name: 'Office', uri: 'cups:Office', media: 'a4' },
];

describe('printers editor', () => {
  it('shows the printers, rules and defaults, and saves an edit through saveSettings', async () => {
    const saved: AgentInput<'saveSettings'>[] = [];
    const current = settings({ printers: PRINTERS as never, rules: [{ documentTypes: ['label'], carriers: ['dhl'], printer: 'Zebra' }] });
    const client = fakeClient({ getSettings: async () => current, saveSettings: async (input) => (saved.push(input), current) });
    const editor = new PrintersEditor(context(client));
    document.body.append(editor.element);
    await editor.refresh();
    const text = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Printers, rules and defaults (JSON)"]')!;
    expect(JSON.parse(text.value)).toEqual({
      printers: PRINTERS,
      rules: [{ documentTypes: ['label'], carriers: ['dhl'], printer: 'Zebra' }],
      defaults: {},
    });

    const edited = JSON.parse(text.value);
    edited.rules.push({ carriers: ['Bring'], printer: 'Office' });
    text.value = JSON.stringify(edited);
    void pressSave(editor, client);
    await expect.poll(() => saved.length).toBe(1);
    expect(saved[0]!.routing!.rules).toEqual([
      { documentTypes: ['label'], carriers: ['dhl'], printer: 'Zebra' },
      { documentTypes: [], carriers: ['Bring'], printer: 'Office' },
    ]);
    expect(document.querySelector('[role=status]')!.textContent).toBe('Saved: 2 printers, 2 rules.');
  });

  it('refuses broken JSON before saving, and shows a sheet layout on label stock next to the layout, in words', async () => {
    const client = fakeClient({ getSettings: async () => settings() });
    const editor = new PrintersEditor(context(client));
    document.body.append(editor.element);
    await editor.refresh();
    const text = document.querySelector<HTMLTextAreaElement>('textarea')!;
    const status = () => document.querySelector('[role=status]')!.textContent;
    text.value = '{ "printers": [';
    void pressSave(editor, client);
    await expect.poll(status).toMatch(/^Not saved: Not valid JSON .*: correct it and save again\.$/);
    expect(document.getElementById('printers-json-error')!.textContent).toMatch(/^Not valid JSON .*: correct it and save again\.$/);
    expect(text.getAttribute('aria-invalid')).toBe('true');
    text.value = JSON.stringify({ printers: [{ name: 'Z', uri: 'cups:Z', media: '4x4in', layout: '2x2' }] });
    void pressSave(editor, client);
    await expect.poll(status).toBe('Not saved: correct what is marked next to the fields (1).');
    expect(document.getElementById('pf-printers-0-layout-error')!.textContent).toBe(
      'Label stock prints one label at a time: choose A4 or Letter paper for a sheet layout.',
    );
    expect(document.getElementById('pf-printers-0-layout')!.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(document.getElementById('pf-printers-0-layout'));
    expect(client.calls.map((c) => c.op)).not.toContain('saveSettings');
  });

  it('adds a printer and a rule through the form; the JSON and the unsaved mark follow, and saving sends the rows', async () => {
    const saved: AgentInput<'saveSettings'>[] = [];
    const current = settings({ printers: [PRINTERS[0]] as never });
    const client = fakeClient({
      getSettings: async () => current,
      listPrinters: async () => [printer({ uri: 'cups:Office', name: 'Office laser', media: 'a4', ready: false, detail: 'paper out' })],
      listCarriers: async () => [
        { code: 'dhl_express', name: 'DHL Express' },
        { code: 'bring', name: 'Bring' },
      ],
      saveSettings: async (input) => (saved.push(input), settings({ ...current.routing, ...input.routing } as never)),
    });
    const editor = new PrintersEditor(context(client));
    document.body.append(editor.element);
    await editor.refresh();
    const unsaved = () => document.querySelector('.pf-unsaved')!.textContent;
    expect(unsaved()).toBe('');
    // The fallback names a printer that is not listed yet.
    expect(document.getElementById('pf-printers-0-fallback-error')!.textContent).toBe(
      '“Office” is not in the list any more: choose another printer.',
    );

    click('#pf-add-printer');
    expect(document.activeElement).toBe(document.getElementById('pf-printers-1-name'));
    // A new row is not red before anything was typed: its name is checked once the caret leaves it.
    expect(document.getElementById('pf-printers-1-name-error')!.textContent).toBe('');
    expect(document.getElementById('pf-printers-1-name')!.getAttribute('aria-invalid')).toBe('false');
    document.getElementById('pf-printers-1-name')!.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    expect(document.getElementById('pf-printers-1-name-error')!.textContent).toBe('Give this printer a name.');
    choose('pf-printers-1-device', 'cups:Office');
    expect(value('pf-printers-1-name')).toBe('Office laser');
    expect(document.querySelector('#pf-printers-1-device + .readiness')!.textContent).toBe('not ready: paper out');
    type('pf-printers-1-name', 'Office');
    const media = document.getElementById('pf-printers-1-media');
    choose('pf-printers-1-media', 'a4');
    // The redraw keeps the select with the caret (a screen reader stays on it; typing "A4" in it goes on working).
    expect(document.getElementById('pf-printers-1-media')).toBe(media);
    expect(document.activeElement).toBe(media);
    expect(optionWords('pf-printers-1-layout')).toEqual([
      'One label a sheet',
      'Two labels a sheet',
      'Three labels a sheet',
      'Four labels a sheet',
    ]);
    expect(document.getElementById('pf-printers-0-fallback-error')!.textContent).toBe('');

    click('#pf-add-rule');
    choose('pf-rules-0-documentTypes', '["label"]');
    expect(optionWords('pf-rules-0-carriers')).toEqual(['Any carrier', 'DHL Express', 'Bring']);
    choose('pf-rules-0-carriers', '["bring"]');
    // The rule's printer is not chosen yet, nor left: no red until it is, or until saving.
    expect(document.getElementById('pf-rules-0-printer-error')!.textContent).toBe('');
    choose('pf-rules-0-printer', 'Office');
    expect(unsaved()).toBe('Unsaved changes');
    const json = JSON.parse(document.querySelector<HTMLTextAreaElement>('#printers-json')!.value);
    expect(json.rules).toEqual([{ documentTypes: ['label'], carriers: ['bring'], printer: 'Office' }]);

    void pressSave(editor, client);
    await expect.poll(() => saved.length).toBe(1);
    expect(saved[0]!.routing).toEqual({
      printers: [PRINTERS[0], { name: 'Office', uri: 'cups:Office', media: 'a4' }],
      rules: [{ documentTypes: ['label'], carriers: ['bring'], printer: 'Office' }],
      defaults: {},
    });
    await expect.poll(unsaved).toBe('');
    expect(document.querySelector('[role=status]')!.textContent).toBe('Saved: 2 printers, 1 rule.');
  });

  it('flags a rule that prints on a removed printer, and moves rules by their buttons', async () => {
    const client = fakeClient({
      getSettings: async () =>
        settings({
          printers: PRINTERS as never,
          rules: [
            { documentTypes: ['label'], carriers: ['dhl'], printer: 'Zebra' },
            { documentTypes: [], carriers: [], printer: 'Office' },
          ],
        }),
    });
    const editor = new PrintersEditor(context(client));
    document.body.append(editor.element);
    await editor.refresh();
    click('#pf-rules-1-up');
    expect(value('pf-rules-0-printer')).toBe('Office');
    expect(document.activeElement).toBe(document.getElementById('pf-rules-0-down'));
    expect(document.querySelector('.printers-editor [aria-live].visually-hidden')!.textContent).toBe('Rule moved to place 1.');
    click('#pf-printers-1-remove');
    expect(document.getElementById('pf-rules-0-printer-error')!.textContent).toBe(
      'This rule prints on “Office”, which is not in the list any more: choose a printer.',
    );
    expect(document.getElementById('pf-printers-0-fallback-error')!.textContent).toBe(
      '“Office” is not in the list any more: choose another printer.',
    );
    void pressSave(editor, client);
    await expect
      .poll(() => document.querySelector('[role=status]')!.textContent)
      .toBe('Not saved: correct what is marked next to the fields (2).');
    expect(client.calls.map((c) => c.op)).not.toContain('saveSettings');
  });

  it('shows the agent refusal next to the field it names, opening Advanced for a URI', async () => {
    const message = 'Setting "routing.printers.1.uri" is invalid: Printer "lpr:x" is not a valid printer URI. Correct it and save again.';
    const client = fakeClient({
      getSettings: async () => settings({ printers: PRINTERS as never }),
      saveSettings: async () => {
        throw new AgentCallError({ code: 'INVALID_SETTINGS', message, requestId: null });
      },
    });
    const editor = new PrintersEditor(context(client));
    document.body.append(editor.element);
    await editor.refresh();
    type('pf-printers-1-uri', 'lpr:x');
    void pressSave(editor, client);
    await expect.poll(() => document.getElementById('pf-printers-1-uri-error')!.textContent).toBe(message);
    expect(document.querySelector<HTMLDetailsElement>('details[data-details-for="printers.1.uri"]')!.open).toBe(true);
    expect(document.activeElement).toBe(document.getElementById('pf-printers-1-uri'));
    expect(document.querySelector('[role=status]')!.textContent).toBe('Not saved: the station refused a field; the reason is next to it.');
    // The next edit clears it.
    type('pf-printers-1-uri', 'cups:Office');
    expect(document.getElementById('pf-printers-1-uri-error')!.textContent).toBe('');
  });
});

/**
 * What Settings' one Save does with this form (settings-view.ts): asks it for its rows, saves
 * them with the other settings, and tells it what came of it.
 */
async function pressSave(editor: PrintersEditor, client: Pick<AgentApi, 'saveSettings'>): Promise<void> {
  const prepared = editor.prepareSave();
  if (prepared === false || prepared.routing === null) return;
  try {
    editor.saved(await client.saveSettings({ routing: prepared.routing }), prepared.routing);
  } catch (error) {
    editor.refused(error);
  }
}

function click(selector: string): void {
  document.querySelector<HTMLElement>(selector)!.click();
}

function value(id: string): string {
  return (document.getElementById(id) as HTMLInputElement | HTMLSelectElement).value;
}

function type(id: string, text: string): void {
  const input = document.getElementById(id) as HTMLInputElement;
  input.focus();
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function choose(id: string, option: string): void {
  const select = document.getElementById(id) as HTMLSelectElement;
  select.focus();
  select.value = option;
  expect(select.value, `${id} offers ${option}`).toBe(option);
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

function optionWords(id: string): string[] {
  return Array.from((document.getElementById(id) as HTMLSelectElement).options).map((o) => o.textContent ?? '');
}
