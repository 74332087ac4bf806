// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInput } from '../../src/shared/agent-api';
import type { PrinterInfo } from '../../src/shared/domain';
import { SettingsPanel } from '../../src/renderer/views/settings-view';
import { PrinterPicker } from '../../src/renderer/views/printer-picker';
import { context, fakeClient, printer, settings, settle } from '../support/fake-agent-client';

const PRINTERS: PrinterInfo[] = [
  printer({ uri: 'cups:Labels', name: 'Zebra at bench 1', kind: 'cups', media: 'label', ready: true }),
  printer({ uri: 'cups:Office', name: 'Office laser', kind: 'cups', media: 'a4', ready: false, detail: 'paused' }),
  printer({ uri: 'service:pr_1', name: 'Packing bench 2', kind: 'service', media: 'unknown', ready: null }),
];

afterEach(() => document.body.replaceChildren());

function group(name: string): HTMLFieldSetElement {
  return Array.from(document.querySelectorAll('fieldset')).find((f) => f.querySelector(':scope > legend')?.textContent === name)!;
}
const radios = (fieldset: HTMLElement) => Array.from(fieldset.querySelectorAll<HTMLInputElement>('input[type=radio]'));
const choiceOf = (radio: HTMLInputElement) => radio.closest('label')!;

describe('printer picker', () => {
  it('lists the discovered printers, readiness in a colour that means what it says', () => {
    const picker = new PrinterPicker({ role: 'label', legend: 'Label printer', uriLabel: 'Label printer URI' });
    document.body.append(picker.element, picker.uriField);
    picker.setPrinters(PRINTERS);
    const choices = radios(picker.element).map(choiceOf);
    const names = choices.map((c) => c.querySelector('.printer-name')?.textContent);
    expect(names).toEqual(['Zebra at bench 1', 'Office laser', 'Packing bench 2']);
    expect(choices.map((c) => c.querySelector('.readiness')?.className)).toEqual(['readiness ok', 'readiness bad', 'readiness unknown']);
    expect(choices.map((c) => c.querySelector('.readiness')?.textContent)).toEqual(['ready', 'not ready: paused', 'readiness unknown']);
    expect(choices[0]?.querySelector('.printer-detail')?.textContent).toBe('CUPS · 4x6 labels');
    expect(choices[2]?.querySelector('.printer-detail')?.textContent).toBe('Service printer · media unknown');
  });

  it("describes a printer that gets both labels and A4 documents (the demo's one folder) by both media", () => {
    const picker = new PrinterPicker({ role: 'document', legend: 'Document printer', uriLabel: 'Document printer URI' });
    document.body.append(picker.element);
    picker.setPrinters([
      printer({
        uri: 'folder:./demo-prints',
        name: 'folder:./demo-prints',
        kind: 'folder',
        media: 'label',
        roles: ['label', 'document'],
        ready: true,
      }),
      printer({ uri: 'folder:./a4', name: 'folder:./a4', kind: 'folder', media: 'a4', roles: ['document'], ready: true }),
    ]);
    const details = radios(picker.element).map((r) => choiceOf(r).querySelector('.printer-detail')?.textContent);
    expect(details).toEqual(['Folder · 4x6 labels and A4 sheets', 'Folder · A4 sheets']);
  });

  it('a chosen printer fills in the URI, and a typed URI chooses its printer', () => {
    const picker = new PrinterPicker({ role: 'label', legend: 'Label printer', uriLabel: 'Label printer URI' });
    document.body.append(picker.element, picker.uriField);
    picker.setPrinters(PRINTERS);
    picker.value = 'cups:Labels';
    expect(radios(picker.element).find((r) => r.checked)?.value).toBe('cups:Labels');
    radios(picker.element)[1]!.click();
    expect(picker.uriInput.value).toBe('cups:Office');
    expect(picker.value).toBe('cups:Office');
    picker.uriInput.value = 'service:pr_1';
    picker.uriInput.dispatchEvent(new Event('input', { bubbles: true }));
    expect(radios(picker.element).find((r) => r.checked)?.value).toBe('service:pr_1');
  });

  it('keeps a printer discovery does not list visible and chosen', () => {
    const picker = new PrinterPicker({ role: 'label', legend: 'Label printer', uriLabel: 'Label printer URI' });
    document.body.append(picker.element);
    picker.setPrinters(PRINTERS);
    picker.value = 'cups:Labels@print.example';
    const chosen = radios(picker.element).find((r) => r.checked)!;
    expect(chosen.value).toBe('cups:Labels@print.example');
    expect(choiceOf(chosen).querySelector('.readiness')?.className).toBe('readiness unknown');
    expect(choiceOf(chosen).textContent).toContain('CUPS Labels@print.example');
  });

  it('says what to do when no printer is found', () => {
    const picker = new PrinterPicker({ role: 'label', legend: 'Label printer', uriLabel: 'Label printer URI' });
    expect(picker.element.textContent).toContain('Looking for printers');
    picker.setPrinters([]);
    expect(picker.element.textContent).toContain('No printers found. Type a printer URI under Advanced.');
  });
});

describe('settings panel', () => {
  async function mount() {
    const saved: Array<AgentInput<'saveSettings'>> = [];
    const client = fakeClient({
      listPrinters: async () => PRINTERS,
      saveSettings: async (input) => {
        saved.push(input);
        return settings({ labelPrinter: input.routing?.labelPrinter, documentPrinter: input.routing?.documentPrinter });
      },
    });
    const ctx = context(client);
    const panel = new SettingsPanel(ctx);
    document.body.append(panel.element);
    panel.element.hidden = false;
    ctx.setSettings(settings());
    panel.show();
    await settle();
    return { panel, saved };
  }

  it('saves the printers chosen from the lists', async () => {
    const { saved } = await mount();
    const label = group('Label printer');
    const documents = group('Document printer');
    expect(radios(label).find((r) => r.checked)?.value).toBe('cups:Labels');
    expect(radios(documents).find((r) => r.checked)?.value).toBe('cups:Office');
    radios(label)
      .find((r) => r.value === 'service:pr_1')!
      .click();
    radios(documents)
      .find((r) => r.value === 'cups:Labels')!
      .click();
    document.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await settle();
    expect(saved).toHaveLength(1);
    expect(saved[0]?.routing).toMatchObject({ labelPrinter: 'service:pr_1', documentPrinter: 'cups:Labels' });
    expect(document.querySelector('.save-result')?.textContent).toBe('Settings saved.');
  });

  it('saves the printers form with the other fields in one Save, or nothing while a row must be corrected', async () => {
    const { saved } = await mount();
    const poll = document.querySelector<HTMLInputElement>('#set-poll')!;
    poll.value = '25';
    poll.dispatchEvent(new Event('input', { bubbles: true }));
    // A printer row with no name and no printer: the one Save stops, says where, and sends nothing.
    document.querySelector<HTMLButtonElement>('#pf-add-printer')!.click();
    document.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await settle();
    expect(saved).toHaveLength(0);
    expect(document.querySelector('.save-result [role=alert]')?.textContent).toBe(
      'Not saved: correct the marked printer fields under Printers first.',
    );
    expect(document.getElementById('settings-panel-printers')!.hidden).toBe(false);
    expect(document.activeElement).toBe(document.getElementById('pf-printers-0-name'));
    // Corrected: one call carries the row and the poll interval.
    const name = document.getElementById('pf-printers-0-name') as HTMLInputElement;
    name.value = 'Zebra';
    name.dispatchEvent(new Event('input', { bubbles: true }));
    const device = document.getElementById('pf-printers-0-device') as HTMLSelectElement;
    device.value = 'cups:Labels';
    device.dispatchEvent(new Event('change', { bubbles: true }));
    document.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await settle();
    expect(saved).toHaveLength(1);
    expect(saved[0]?.intake?.pollIntervalSeconds).toBe(25);
    expect(saved[0]?.routing?.printers).toEqual([{ name: 'Zebra', uri: 'cups:Labels', media: 'label' }]);
    expect(saved[0]?.routing?.labelPrinter).toBe('cups:Labels');
    expect(document.querySelector('.save-result')?.textContent).toBe('Settings saved.');
  });

  it('keeps typing a URI under Advanced, and saves what was typed', async () => {
    const { saved } = await mount();
    const details = document.querySelector('details.advanced')!;
    expect(details.querySelector('summary')?.textContent).toBe('Advanced: type a printer URI');
    const input = details.querySelector<HTMLInputElement>('#set-label-printer')!;
    expect(details.querySelector(`label[for="${input.id}"]`)?.textContent).toBe('Label printer URI');
    input.value = 'folder:/srv/labels';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    document.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await settle();
    expect(saved[0]?.routing?.labelPrinter).toBe('folder:/srv/labels');
  });

  it('names the documents to print automatically in words', async () => {
    await mount();
    const checks = group('Print automatically after booking');
    const labels = Array.from(checks.querySelectorAll('label')).map((l) => l.textContent);
    expect(labels).toEqual([
      'Label',
      'Manifest',
      'Waybill',
      'Customs invoice',
      'Proof of delivery',
      'Export accompanying document',
      'Sales invoice',
    ]);
    expect(document.body.textContent).not.toMatch(/customsinvoice|proofofdelivery|salesinvoice|\babd\b/);
  });
});

describe('raw ZPL printer fields under a picker’s URI', () => {
  const fill = (picker: PrinterPicker, kind: string, address: string, dpi: string): void => {
    const kindSelect = picker.uriField.querySelector<HTMLSelectElement>('#set-label-zpl-kind')!;
    kindSelect.value = kind;
    kindSelect.dispatchEvent(new Event('change'));
    picker.uriField.querySelector<HTMLInputElement>('#set-label-zpl-address')!.value = address;
    picker.uriField.querySelector<HTMLSelectElement>('#set-label-zpl-dpi')!.value = dpi;
    picker.uriField.querySelector<HTMLButtonElement>('.zpl-use')!.click();
  };

  it.each([
    ['zpl', '10.0.0.7', '', 'zpl://10.0.0.7', 'Host name or IP address (port 9100 unless :PORT)'],
    ['zpl', 'zebra-2:6101', '300', 'zpl://zebra-2:6101?dpi=300', 'Host name or IP address (port 9100 unless :PORT)'],
    ['zpl-cups', 'Zebra_ZD421', '203', 'zpl-cups:Zebra_ZD421?dpi=203', 'Raw CUPS queue'],
    ['zpl-windows', 'ZDesigner ZD421 (USB)', '', 'zpl-windows:ZDesigner ZD421 (USB)', 'Windows printer name'],
  ])('puts a %s printer at %s (%s dpi) into the URI field as %s', (kind, address, dpi, uri, label) => {
    const picker = new PrinterPicker({ role: 'label', legend: 'Label printer', uriLabel: 'Label printer URI' });
    document.body.append(picker.element, picker.uriField);
    fill(picker, kind, address, dpi);
    expect(picker.value).toBe(uri);
    expect(picker.uriField.querySelector('label[for="set-label-zpl-address"]')?.textContent).toBe(label);
    expect(radios(picker.element).find((r) => r.checked)?.value).toBe(uri);
  });

  it('offers the three raw kinds by their names, and leaves the URI alone while the address is empty', () => {
    const picker = new PrinterPicker({ role: 'label', legend: 'Label printer', uriLabel: 'Label printer URI' });
    document.body.append(picker.element, picker.uriField);
    picker.value = 'cups:Labels';
    const options = Array.from(picker.uriField.querySelectorAll('#set-label-zpl-kind option')).map((o) => o.textContent);
    expect(options).toEqual(['ZPL printer', 'ZPL on CUPS', 'ZPL on Windows']);
    fill(picker, 'zpl', '  ', '');
    expect(picker.value).toBe('cups:Labels');
  });
});
