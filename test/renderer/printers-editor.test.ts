// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInput } from '../../src/shared/agent-api';
import { PrintersEditor } from '../../src/renderer/views/printers-editor';
import { context, fakeClient, settings } from '../support/fake-agent-client';

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
    document.querySelector<HTMLButtonElement>('.printers-save')!.click();
    await expect.poll(() => saved.length).toBe(1);
    expect(saved[0]!.routing!.rules).toEqual([
      { documentTypes: ['label'], carriers: ['dhl'], printer: 'Zebra' },
      { documentTypes: [], carriers: ['Bring'], printer: 'Office' },
    ]);
    expect(document.querySelector('[role=status]')!.textContent).toBe('Saved: 2 printer(s), 2 rule(s).');
  });

  it('refuses broken JSON and a sheet layout on label stock before saving, saying what to correct', async () => {
    const client = fakeClient({ getSettings: async () => settings() });
    const editor = new PrintersEditor(context(client));
    document.body.append(editor.element);
    await editor.refresh();
    const text = document.querySelector<HTMLTextAreaElement>('textarea')!;
    const status = () => document.querySelector('[role=status]')!.textContent;
    text.value = '{ "printers": [';
    document.querySelector<HTMLButtonElement>('.printers-save')!.click();
    await expect.poll(status).toMatch(/^Not valid JSON .*: correct it and save again\.$/);
    text.value = JSON.stringify({ printers: [{ name: 'Z', uri: 'cups:Z', media: '4x4in', layout: '2x2' }] });
    document.querySelector<HTMLButtonElement>('.printers-save')!.click();
    await expect.poll(status).toMatch(/^"printers\.0\.layout" is invalid: a layout override needs sheet media/);
    expect(client.calls.map((c) => c.op)).toEqual(['getSettings']);
  });
});
